// Speed on the real catalogs: index build, query latency and heap, ours next to MiniSearch.
import { createToolIndex, HERMES_OPTIONS } from '../dist/search/index.js';
import { loadCatalogEntries, loadDevQueries } from './fixtures.js';
import { fixed, retainedHeapMb, table, timeBuilds, timeQueries, verdict } from './measure.js';
import { createMiniSearchIndex } from './minisearch-engine.js';

const BUILD_RUNS = 15;
const QUERY_PASSES = 5;

export function runSpeedBench() {
  const entries = loadCatalogEntries();
  const queries = loadDevQueries().map((row) => row.query);
  // Ours first: its cold build pays for stemming every distinct word once (the stems are shared).
  const ours = timeBuilds(() => createToolIndex(entries), BUILD_RUNS);
  const hermes = timeBuilds(() => createToolIndex(entries, HERMES_OPTIONS), BUILD_RUNS);
  const mini = timeBuilds(() => createMiniSearchIndex(entries), Math.ceil(BUILD_RUNS / 3));

  const oursQuery = timeQueries((query) => ours.index.search(query, { limit: 5 }), queries, QUERY_PASSES);
  const hermesQuery = timeQueries((query) => hermes.index.search(query, { limit: 5 }), queries, QUERY_PASSES);
  const miniQuery = timeQueries((query) => mini.index.search(query, 5), queries, QUERY_PASSES);

  const oursHeap = retainedHeapMb(() => createToolIndex(entries));
  const hermesHeap = retainedHeapMb(() => createToolIndex(entries, HERMES_OPTIONS));
  const miniHeap = retainedHeapMb(() => createMiniSearchIndex(entries));

  const buildRatio = mini.medianMs / ours.medianMs;
  const queryRatio = miniQuery.medianUs / oursQuery.medianUs;
  const lines = [
    `## Speed: ${entries.length} tools (all shared catalogs), ${queries.length} dev queries × ${QUERY_PASSES} passes, limit 5`,
    '',
    table([
      ['engine', 'build cold ms', 'build median ms', 'query median µs', 'query p99 µs', 'index heap MB'],
      [
        'toolbridge (default)',
        fixed(ours.coldMs),
        fixed(ours.medianMs),
        fixed(oursQuery.medianUs),
        fixed(oursQuery.p99Us),
        fixed(oursHeap),
      ],
      [
        'toolbridge (hermes preset)',
        fixed(hermes.coldMs),
        fixed(hermes.medianMs),
        fixed(hermesQuery.medianUs),
        fixed(hermesQuery.p99Us),
        fixed(hermesHeap),
      ],
      [
        'minisearch 7 (same words + stems)',
        fixed(mini.coldMs),
        fixed(mini.medianMs),
        fixed(miniQuery.medianUs),
        fixed(miniQuery.p99Us),
        fixed(miniHeap),
      ],
    ]),
    '',
    `build: ${fixed(ours.medianMs)} ms (target ≤ 30: ${verdict(ours.medianMs <= 30)}), ` +
      `${fixed(buildRatio)}× faster than MiniSearch (target ≥ 10: ${verdict(buildRatio >= 10)})`,
    `query: ${fixed(oursQuery.medianUs)} µs median (target ≤ 50: ${verdict(oursQuery.medianUs <= 50)}), ` +
      `${fixed(queryRatio)}× faster than MiniSearch (target ≥ 10: ${verdict(queryRatio >= 10)})`,
    `heap: ${fixed(miniHeap / oursHeap)}× less than MiniSearch`,
  ];
  return lines.join('\n');
}
