// Query speed of several builds of the engine in one process, interleaved, so a shared machine's
// load hits them alike: node bench/tools/compare-query-speed.js [DIR...] [--rounds N]. Each DIR
// is a checkout with `dist/` built (`npm run build:host`); the first one's bench data and
// MiniSearch are used, and this checkout is measured when no DIR is given. Prints, per build,
// the median and p99 query time over all rounds, each query's fastest round (median over the
// queries: what a query costs when nothing preempts it) and the CPU time per query, for the dev
// queries and the external set's 40-word tasks, with the ratio to the first build.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCatalogEntries, loadDevQueries, loadExternalQueries } from '../fixtures.js';
import { fixed, median, percentile, table } from '../measure.js';
import { createMiniSearchIndex } from '../minisearch-engine.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 7;
const dirs = args.length > 0 ? args : [resolve(import.meta.dirname, '..', '..')];
const entries = loadCatalogEntries();
const sets = {
  dev: loadDevQueries().map((row) => row.query),
  external: loadExternalQueries().map((row) => row.query),
};

const engines = [];
for (const dir of dirs) {
  const { createToolIndex } = await import(pathToFileURL(resolve(dir, 'dist', 'search', 'index.js')).href);
  const index = createToolIndex(entries);
  engines.push({ name: dir, search: (query) => index.search(query, { limit: 5 }) });
}
const mini = createMiniSearchIndex(entries);
engines.push({ name: 'minisearch 7', search: (query) => mini.search(query, 5) });

for (const engine of engines) {
  engine.times = {};
  engine.cpu = {};
  for (const [set, queries] of Object.entries(sets)) {
    // Two untimed passes: the JIT and each build's first-use data and memos.
    for (let pass = 0; pass < 2; pass++) for (const query of queries) engine.search(query);
    engine.times[set] = queries.map(() => []);
    engine.cpu[set] = [];
  }
}

const loadBefore = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  // Alternate the order, so neither build always runs first.
  for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) {
    for (const [set, queries] of Object.entries(sets)) {
      const cpu = process.cpuUsage();
      queries.forEach((query, i) => {
        const start = process.hrtime.bigint();
        engine.search(query);
        engine.times[set][i].push(Number(process.hrtime.bigint() - start) / 1e3);
      });
      const used = process.cpuUsage(cpu);
      engine.cpu[set].push((used.user + used.system) / queries.length);
    }
  }
}

const stats = (engine, set) => ({
  median: median(engine.times[set].flat()),
  p99: percentile(engine.times[set].flat(), 99),
  fastest: median(engine.times[set].map((times) => Math.min(...times))),
  cpu: median(engine.cpu[set]),
});
const rows = [
  [
    'build',
    ...Object.keys(sets).flatMap((set) => [`${set} median µs`, 'p99', 'fastest round', 'CPU/query', 'ratio']),
  ],
];
const first = Object.fromEntries(Object.keys(sets).map((set) => [set, stats(engines[0], set)]));
for (const engine of engines) {
  const cells = Object.keys(sets).flatMap((set) => {
    const s = stats(engine, set);
    return [
      fixed(s.median),
      fixed(s.p99, 0),
      fixed(s.fastest),
      fixed(s.cpu),
      fixed(s.median / first[set].median, 3),
    ];
  });
  rows.push([engine.name, ...cells]);
}
console.log(
  `## Query speed, interleaved: ${rounds} rounds of ${sets.dev.length} dev queries and ${sets.external.length} external tasks, ` +
    `load average ${fixed(loadBefore)} → ${fixed(loadavg()[0])}`,
);
console.log(table(rows));
