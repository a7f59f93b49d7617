// Speed on the real catalogs: index build (in a fresh process and warm), query latency, heap and
// extension by a few tools, ours next to MiniSearch.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createToolIndex, HERMES_OPTIONS } from '../dist/search/index.js';
import { loadCatalogEntries, loadDevQueries, loadExternalQueries } from './fixtures.js';
import { fixed, median, percentile, table, timeBuilds, timeOnce, timeQueries, verdict } from './measure.js';
import { createMiniSearchIndex } from './minisearch-engine.js';

const BUILD_RUNS = 15;
const WARM_UP_BUILDS = 5;
const QUERY_PASSES = 5;
const FRESH_PROCESSES = 5;
const EXTRA_TOOLS = 10;
const COLD_BUILD = fileURLToPath(new URL('./tools/cold-build.js', import.meta.url));
const FIRST_PASS = fileURLToPath(new URL('./tools/first-pass.js', import.meta.url));
const INDEX_HEAP = fileURLToPath(new URL('./tools/index-heap.js', import.meta.url));
const FIRST_PASS_PROCESSES = 3;
const NEW_INDEX_PASSES = 3;

/**
 * Medians over `processes` new processes of their first build (wall and CPU ms) and first
 * queries; with `tools`, over the synthetic catalog of that many tools.
 */
export function coldBuilds(engine, processes = FRESH_PROCESSES, tools = 0) {
  const runs = [];
  for (let i = 0; i < processes; i++) {
    const child = spawnSync(process.execPath, [COLD_BUILD, engine, String(tools)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`cold build (${engine}) failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout));
  }
  const of = (key) => median(runs.map((run) => run[key]));
  return { buildMs: of('buildMs'), buildCpuMs: of('buildCpuMs'), englishQueryMs: of('englishQueryMs') };
}

/**
 * What a fresh process keeps alive for an index (`bench/tools/index-heap.js`), in MB: the index,
 * then with the English data a first query reads, then after every dev query and external task.
 */
export function indexHeap(engine, tools = 0) {
  const child = spawnSync(process.execPath, ['--expose-gc', INDEX_HEAP, engine, String(tools)], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`index heap (${engine}) failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

/**
 * Medians over `processes` new processes (`bench/tools/first-pass.js`) of a first pass over
 * queries new to the process, and of a second pass, per set.
 */
function newQueryPasses(engine, processes = FIRST_PASS_PROCESSES) {
  const runs = [];
  for (let i = 0; i < processes; i++) {
    const child = spawnSync(process.execPath, [FIRST_PASS, engine], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`first pass (${engine}) failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout));
  }
  const of = (set, key) => median(runs.map((run) => run[set][key]));
  return Object.fromEntries(
    ['dev', 'external'].map((set) => [set, { firstUs: of(set, 'firstUs'), warmUs: of(set, 'warmUs') }]),
  );
}

/**
 * Per-query latency of one pass over `queries` on an index `build` makes anew for each pass: every
 * query is new to that index (a host's index after its catalog changed, or extended by a query's
 * connector hits), though not to the process.
 */
function timeNewIndexPasses(build, queries, passes) {
  const micros = [];
  for (let pass = 0; pass < passes; pass++) {
    const search = build();
    for (const query of queries) {
      const start = process.hrtime.bigint();
      search(query);
      micros.push(Number(process.hrtime.bigint() - start) / 1e3);
    }
  }
  return { medianUs: median(micros), p99Us: percentile(micros, 99) };
}

export function runSpeedBench() {
  const entries = loadCatalogEntries();
  const queries = loadDevQueries().map((row) => row.query);
  const fresh = {
    ours: coldBuilds('default'),
    hermes: coldBuilds('hermes'),
    mini: coldBuilds('minisearch'),
  };
  // Warm-up builds first, so the medians measure optimised code (fresh processes are measured above).
  for (let i = 0; i < WARM_UP_BUILDS; i++) {
    createToolIndex(entries);
    createToolIndex(entries, HERMES_OPTIONS);
  }
  createMiniSearchIndex(entries);
  const ours = timeBuilds(() => createToolIndex(entries), BUILD_RUNS);
  const hermes = timeBuilds(() => createToolIndex(entries, HERMES_OPTIONS), BUILD_RUNS);
  const mini = timeBuilds(() => createMiniSearchIndex(entries), Math.ceil(BUILD_RUNS / 3));

  const oursQuery = timeQueries((query) => ours.index.search(query, { limit: 5 }), queries, QUERY_PASSES);
  // Long natural-language tasks (the external set's, median 43 words) on the same index.
  const longQueries = loadExternalQueries().map((row) => row.query);
  const oursLong = timeQueries((query) => ours.index.search(query, { limit: 5 }), longQueries, QUERY_PASSES);
  const miniLong = timeQueries((query) => mini.index.search(query, 5), longQueries, QUERY_PASSES);
  const hermesQuery = timeQueries((query) => hermes.index.search(query, { limit: 5 }), queries, QUERY_PASSES);
  const miniQuery = timeQueries((query) => mini.index.search(query, 5), queries, QUERY_PASSES);
  // First passes, where our reader has remembered nothing of a query's words: each query once on
  // a new index (not MiniSearch's, which remembers nothing per word), then queries new to a process.
  const newIndexSearch = () => {
    const index = createToolIndex(entries);
    return (query) => index.search(query, { limit: 5 });
  };
  const oursNewIndex = {
    dev: timeNewIndexPasses(newIndexSearch, queries, NEW_INDEX_PASSES),
    external: timeNewIndexPasses(newIndexSearch, longQueries, NEW_INDEX_PASSES),
  };
  // One process for MiniSearch: its 40-word queries take about 100 times ours.
  const newToProcess = { ours: newQueryPasses('default'), mini: newQueryPasses('minisearch', 1) };

  const oursHeap = indexHeap('default');
  const hermesHeap = indexHeap('hermes');
  const miniHeap = indexHeap('minisearch');

  // A query's connector hits: the last tools of the catalog, renamed, added to an index of the rest.
  const base = createToolIndex(entries.slice(0, -EXTRA_TOOLS));
  const extra = entries
    .slice(-EXTRA_TOOLS)
    .map((entry) => ({ ...entry, name: `connectors__x__${entry.name}` }));
  const extendUs = median(Array.from({ length: 200 }, () => timeOnce(() => base.extend(extra)).ms * 1000));

  const buildRatio = mini.medianMs / ours.medianMs;
  const passes = ({ firstUs, warmUs }) => `${fixed(firstUs)} / ${fixed(warmUs)}`;
  const queryRatio = miniQuery.medianUs / oursQuery.medianUs;
  const row = (name, fresh, build, query, heap) => [
    name,
    fixed(fresh.buildMs),
    fixed(build.medianMs),
    fixed(query.medianUs),
    fixed(query.p99Us),
    fixed(heap.indexMb),
    fixed(heap.queriedMb),
  ];
  const lines = [
    `## Speed: ${entries.length} tools (all shared catalogs), ${queries.length} dev queries × ${QUERY_PASSES} passes, limit 5`,
    '',
    table([
      [
        'engine',
        `first build, fresh process ms (median of ${FRESH_PROCESSES})`,
        'build median ms',
        'query median µs',
        'query p99 µs',
        'index heap MB',
        'after queries MB',
      ],
      row('toolbridge (default)', fresh.ours, ours, oursQuery, oursHeap),
      row('toolbridge (hermes preset)', fresh.hermes, hermes, hermesQuery, hermesHeap),
      row('minisearch 7 (same words + stems)', fresh.mini, mini, miniQuery, miniHeap),
    ]),
    '',
    `build: ${fixed(ours.medianMs)} ms (target ≤ 30: ${verdict(ours.medianMs <= 30)}), ` +
      `${fixed(buildRatio)}× faster than MiniSearch (target ≥ 10: ${verdict(buildRatio >= 10)}); ` +
      `in a fresh process ${fixed(fresh.ours.buildMs)} ms, ${fixed(fresh.mini.buildMs / fresh.ours.buildMs)}× faster`,
    `query: ${fixed(oursQuery.medianUs)} µs median (target ≤ 50: ${verdict(oursQuery.medianUs <= 50)}), ` +
      `${fixed(queryRatio)}× faster than MiniSearch (target ≥ 10: ${verdict(queryRatio >= 10)})`,
    `40-word queries (${longQueries.length} external tasks): ${fixed(oursLong.medianUs)} µs median ` +
      `(target ≤ 200: ${verdict(oursLong.medianUs <= 200)}), p99 ${fixed(oursLong.p99Us)} µs; ` +
      `MiniSearch ${fixed(miniLong.medianUs)} µs median`,
    '',
    `First passes: our reader remembers what each word is, per index, so a query repeated (above) finds its words read. ` +
      `Below, each query once on a new index (median of ${NEW_INDEX_PASSES} indexes), and half of each set new to a ` +
      `process that ran the other half (bench/tools/first-pass.js; median of ${FIRST_PASS_PROCESSES} processes, MiniSearch 1):`,
    '',
    table([
      [
        'query median µs',
        'dev, repeated',
        'dev, new index',
        'dev, new to the process (1st / 2nd pass)',
        '40-word, repeated',
        '40-word, new index',
        '40-word, new to the process (1st / 2nd pass)',
      ],
      [
        'toolbridge (default)',
        fixed(oursQuery.medianUs),
        fixed(oursNewIndex.dev.medianUs),
        passes(newToProcess.ours.dev),
        fixed(oursLong.medianUs),
        fixed(oursNewIndex.external.medianUs),
        passes(newToProcess.ours.external),
      ],
      [
        'minisearch 7 (same words + stems)',
        fixed(miniQuery.medianUs),
        '',
        passes(newToProcess.mini.dev),
        fixed(miniLong.medianUs),
        '',
        passes(newToProcess.mini.external),
      ],
    ]),
    '',
    `first pass on a new index: ${fixed(oursNewIndex.dev.medianUs)} µs median (target ≤ 50: ` +
      `${verdict(oursNewIndex.dev.medianUs <= 50)}), 40-word ${fixed(oursNewIndex.external.medianUs)} µs ` +
      `(target ≤ 200: ${verdict(oursNewIndex.external.medianUs <= 200)}); new to the process ` +
      `${fixed(newToProcess.ours.dev.firstUs)} µs (target ≤ 50: ${verdict(newToProcess.ours.dev.firstUs <= 50)}), ` +
      `40-word ${fixed(newToProcess.ours.external.firstUs)} µs (target ≤ 200: ` +
      `${verdict(newToProcess.ours.external.firstUs <= 200)}), ` +
      `${fixed(newToProcess.mini.dev.firstUs / newToProcess.ours.dev.firstUs)}× and ` +
      `${fixed(newToProcess.mini.external.firstUs / newToProcess.ours.external.firstUs)}× faster than MiniSearch`,
    '',
    `first query in a fresh process, reading every English list and WordNet: ${fixed(fresh.ours.englishQueryMs)} ms ` +
      `(target ≤ 150: ${verdict(fresh.ours.englishQueryMs <= 150)})`,
    `extend by ${EXTRA_TOOLS} tools (a query's connector hits): ${fixed(extendUs)} µs median, ` +
      `${fixed((ours.medianMs * 1000) / extendUs, 0)}× less than a rebuild`,
    `heap (a fresh process, JS heap and memory outside it, over the entries loaded): index ${fixed(oursHeap.indexMb)} MB, ` +
      `${fixed(miniHeap.indexMb / oursHeap.indexMb)}× MiniSearch's; with the English data a first query reads ` +
      `${fixed(oursHeap.englishMb)} MB, after every dev query and external task ${fixed(oursHeap.queriedMb)} MB`,
  ];
  return lines.join('\n');
}
