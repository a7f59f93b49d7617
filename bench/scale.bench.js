// Scale: a synthetic 100,000-tool catalog built from the real catalogs' words.
import { createToolIndex } from '../dist/search/index.js';
import { loadCatalogEntries, loadDevQueries, syntheticEntries } from './fixtures.js';
import { fixed, table, timeBuilds, timeQueries, verdict } from './measure.js';
import { coldBuilds, indexHeap } from './speed.bench.js';

const TOOLS = 100_000;
const FRESH_PROCESSES = 3;

export function runScaleBench() {
  // The first build in a fresh process, as a host starting over 100,000 tools pays it.
  const fresh = {
    ours: coldBuilds('default', FRESH_PROCESSES, TOOLS),
    mini: coldBuilds('minisearch', FRESH_PROCESSES, TOOLS),
  };
  const entries = syntheticEntries(loadCatalogEntries(), TOOLS);
  const queries = loadDevQueries().map((row) => row.query);
  const build = timeBuilds(() => createToolIndex(entries), 3);
  const query = timeQueries((text) => build.index.search(text, { limit: 5 }), queries, 2);
  const heap = indexHeap('default', TOOLS);
  return [
    `## Scale: ${TOOLS.toLocaleString('en-US')} synthetic tools, ${queries.length} dev queries × 2 passes, limit 5`,
    '',
    table([
      [
        'engine',
        `first build, fresh process ms (median of ${FRESH_PROCESSES}; CPU ms)`,
        'build median ms',
        'query median µs',
        'query p99 µs',
        'index heap MB',
        'with English data MB',
        'after queries MB',
      ],
      [
        'toolbridge (default)',
        `${fixed(fresh.ours.buildMs)} (${fixed(fresh.ours.buildCpuMs)})`,
        fixed(build.medianMs),
        fixed(query.medianUs),
        fixed(query.p99Us),
        fixed(heap.indexMb),
        fixed(heap.englishMb),
        fixed(heap.queriedMb),
      ],
      [
        'minisearch 7 (same words + stems)',
        `${fixed(fresh.mini.buildMs)} (${fixed(fresh.mini.buildCpuMs)})`,
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ]),
    '',
    `first build in a fresh process ≤ 1500 ms: ${verdict(fresh.ours.buildMs <= 1500)}, ` +
      `${fixed(fresh.mini.buildMs / fresh.ours.buildMs)}× faster than MiniSearch's · ` +
      `later builds ≤ 1500 ms: ${verdict(build.medianMs <= 1500)} · median query ≤ 1000 µs: ${verdict(query.medianUs <= 1000)} · ` +
      `heap ≤ 300 MB (a fresh process, index, English data and the reader's memos after every dev query and ` +
      `external task): ${verdict(heap.queriedMb <= 300)}`,
  ].join('\n');
}
