// What one fresh process keeps alive for an index (run by speed.bench.js and scale.bench.js):
// node --expose-gc bench/tools/index-heap.js <engine> [tools]. Loads the catalogs (with `tools`,
// the synthetic catalog of that many tools, parsed from JSON as cold-build.js does) and measures
// memory; then imports the engine, builds and holds the index, measures again; then (not
// MiniSearch) a first query reads every English list and WordNet, and every dev query and
// external task fills the reader's memos, each measured. Prints one JSON line of MB over the
// memory with the entries loaded: `indexMb`, `englishMb` (index and English data) and `queriedMb`.
// In one process that already built indexes, a new one's memory cannot be told from what the
// old ones leave to the process-wide memos (that gave negative figures).
import {
  ENGLISH_FIRST_QUERY,
  loadCatalogEntries,
  loadDevQueries,
  loadExternalQueries,
  syntheticEntries,
} from '../fixtures.js';

const engine = process.argv[2] ?? 'default';
const tools = Number(process.argv[3] ?? 0);
if (typeof globalThis.gc !== 'function') throw new Error('Run with node --expose-gc.');

// JS heap and memory outside it: typed arrays, buffers and external strings (files read as text).
const usedMb = () => {
  globalThis.gc();
  globalThis.gc();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.external) / 2 ** 20;
};

// Held to the end, as a host holds its tools: only what the index adds is counted.
const entries =
  tools > 0
    ? JSON.parse(JSON.stringify(syntheticEntries(loadCatalogEntries(), tools)))
    : loadCatalogEntries();
const queries = [...loadDevQueries(), ...loadExternalQueries()].map((row) => row.query);
const base = usedMb();
let search;
if (engine === 'minisearch') {
  const { createMiniSearchIndex } = await import('../minisearch-engine.js');
  const index = createMiniSearchIndex(entries);
  search = (query) => index.search(query);
} else {
  const { createToolIndex, HERMES_OPTIONS } = await import('../../dist/search/index.js');
  const index = createToolIndex(entries, engine === 'hermes' ? HERMES_OPTIONS : undefined);
  search = (query) => index.search(query);
}
const built = usedMb();
search(ENGLISH_FIRST_QUERY);
const english = usedMb();
for (const query of queries) search(query);
const queried = usedMb();
console.log(JSON.stringify({ indexMb: built - base, englishMb: english - base, queriedMb: queried - base }));
