// One fresh process's first build (run by speed.bench.js and scale.bench.js):
// node bench/tools/cold-build.js <engine> [tools]. Loads the catalogs untimed (with `tools`, the
// synthetic catalog of that many tools made from them), then times importing the engine, its
// first build and first queries, and prints one JSON line. `engine` is `default`, `hermes` or
// `minisearch`.
import { ENGLISH_FIRST_QUERY, loadCatalogEntries, syntheticEntries } from '../fixtures.js';

const engine = process.argv[2] ?? 'default';
const tools = Number(process.argv[3] ?? 0);
// Synthetic tools reach the engine as a host's do, parsed from JSON (their servers' tools/list):
// used as the generator built them (joined strings, objects grown key by key), our first build
// took about 40% longer.
const entries =
  tools > 0
    ? JSON.parse(JSON.stringify(syntheticEntries(loadCatalogEntries(), tools)))
    : loadCatalogEntries();
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const time = async (fn) => {
  const wall = performance.now();
  const cpu = cpuMs();
  const value = await fn();
  return { value, wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
};

const result = {};
if (engine === 'minisearch') {
  const load = await time(() => import('../minisearch-engine.js'));
  const build = await time(() => load.value.createMiniSearchIndex(entries));
  Object.assign(result, { importMs: load.wallMs, buildMs: build.wallMs, buildCpuMs: build.cpuMs });
  result.firstQueryMs = (await time(() => build.value.search('list files in a directory'))).wallMs;
} else {
  const load = await time(() => import('../../dist/search/index.js'));
  const { createToolIndex, HERMES_OPTIONS } = load.value;
  const build = await time(() => createToolIndex(entries, engine === 'hermes' ? HERMES_OPTIONS : undefined));
  Object.assign(result, { importMs: load.wallMs, buildMs: build.wallMs, buildCpuMs: build.cpuMs });
  const index = build.value;
  const first = await time(() => index.search(ENGLISH_FIRST_QUERY));
  result.firstQueryMs = first.wallMs;
  result.firstQueryCpuMs = first.cpuMs;
  result.englishQueryMs = first.wallMs;
  result.secondQueryMs = (await time(() => index.search('list files tomorrow in my dropbox folder'))).wallMs;
}
console.log(JSON.stringify(result));
