// One fresh process's first pass over queries it has not seen (run by speed.bench.js):
// node bench/tools/first-pass.js <engine>, `engine` `default` or `minisearch`. Each set (the dev
// queries, the external set's 40-word tasks) is split in two: one half runs first, twice and
// untimed, so the code is optimised for both kinds of query and the English lists are read; then
// a new index times each query of the other half once (words new to the process, unless the
// first half had them) and again (warm). Prints one JSON line of medians in µs per set.
import { loadCatalogEntries, loadDevQueries, loadExternalQueries } from '../fixtures.js';
import { median } from '../measure.js';

const engine = process.argv[2] ?? 'default';
const entries = loadCatalogEntries();
// Dev's halves keep a query and its keyword form together (`half`, by group); the external tasks alternate.
const dev = loadDevQueries();
const external = loadExternalQueries().map((row, i) => ({ ...row, half: i % 2 === 0 ? 'A' : 'B' }));
const sets = { dev, external };
const queriesOf = (rows, half) => rows.filter((row) => row.half === half).map((row) => row.query);

let build;
if (engine === 'minisearch') {
  const { createMiniSearchIndex } = await import('../minisearch-engine.js');
  build = () => {
    const index = createMiniSearchIndex(entries);
    return (query) => index.search(query, 5);
  };
} else {
  const { createToolIndex } = await import('../../dist/search/index.js');
  build = () => {
    const index = createToolIndex(entries);
    return (query) => index.search(query, { limit: 5 });
  };
}

const warm = build();
for (let pass = 0; pass < 2; pass++) {
  for (const rows of Object.values(sets)) for (const query of queriesOf(rows, 'A')) warm(query);
}
const search = build();
const timed = (queries) =>
  queries.map((query) => {
    const start = process.hrtime.bigint();
    search(query);
    return Number(process.hrtime.bigint() - start) / 1e3;
  });
const result = {};
for (const [name, rows] of Object.entries(sets)) {
  const queries = queriesOf(rows, 'B');
  result[name] = { firstUs: median(timed(queries)), warmUs: median(timed(queries)) };
}
console.log(JSON.stringify(result));
