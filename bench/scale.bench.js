// Scale: a synthetic 100,000-tool catalog built from the real catalogs' words.
import { createToolIndex } from '../dist/search/index.js';
import { loadCatalogEntries, loadDevQueries, syntheticEntries } from './fixtures.js';
import { fixed, retainedHeapMb, table, timeBuilds, timeQueries, verdict } from './measure.js';

const TOOLS = 100_000;

export function runScaleBench() {
  const entries = syntheticEntries(loadCatalogEntries(), TOOLS);
  const queries = loadDevQueries().map((row) => row.query);
  const build = timeBuilds(() => createToolIndex(entries), 3);
  const query = timeQueries((text) => build.index.search(text, { limit: 5 }), queries, 2);
  build.index = undefined;
  const heap = retainedHeapMb(() => createToolIndex(entries));
  return [
    `## Scale: ${TOOLS.toLocaleString('en-US')} synthetic tools, ${queries.length} dev queries × 2 passes, limit 5`,
    '',
    table([
      ['engine', 'build cold ms', 'build median ms', 'query median µs', 'query p99 µs', 'index heap MB'],
      [
        'toolbridge (default)',
        fixed(build.coldMs),
        fixed(build.medianMs),
        fixed(query.medianUs),
        fixed(query.p99Us),
        fixed(heap),
      ],
    ]),
    '',
    `build ≤ 1500 ms: ${verdict(build.medianMs <= 1500)} · median query ≤ 1000 µs: ${verdict(query.medianUs <= 1000)} · ` +
      `heap ≤ 300 MB: ${verdict(heap <= 300)}`,
  ].join('\n');
}
