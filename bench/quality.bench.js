// The issue-7 table: search quality of the reference, plain BM25 and our default, all catalogs, limit 5.
import {
  createToolIndex,
  evaluateIndex,
  evaluateTypos,
  HERMES_OPTIONS,
  PLAIN_BM25_OPTIONS,
} from '../dist/search/index.js';
import { loadCatalogEntries, loadDevQueries, loadQueryFixture } from './fixtures.js';
import { fixed, table } from './measure.js';

export function runQualityBench() {
  const entries = loadCatalogEntries();
  const dev = loadDevQueries();
  const negatives = loadQueryFixture('negative-queries.jsonl');
  const heldOut1 = loadQueryFixture('negative-queries-heldout-1.jsonl');
  const heldOut2 = loadQueryFixture('negative-queries-heldout-2.jsonl');
  const heldOut3 = loadQueryFixture('negative-queries-heldout-3.jsonl');
  const heldOut4 = loadQueryFixture('negative-queries-heldout-4.jsonl');
  const heldOut5 = loadQueryFixture('negative-queries-heldout-5.jsonl');
  const heldOut6 = loadQueryFixture('negative-queries-heldout-6.jsonl');
  const heldOut7 = loadQueryFixture('negative-queries-heldout-7.jsonl');
  const typos = loadQueryFixture('typo-queries.jsonl');
  const engines = [
    ['reference (hermes preset)', HERMES_OPTIONS],
    ['plain BM25 + stemming', PLAIN_BM25_OPTIONS],
    ['toolbridge default', undefined],
  ];
  const keyword = (rows) => rows.filter((row) => row.style === 'keyword');
  const natural = (rows) => rows.filter((row) => row.style === 'natural');
  const known = (rows) => rows.filter((row) => row.known);
  const indexes = engines.map(([, options]) => createToolIndex(entries, options));
  const metrics = (index, queries) => evaluateIndex(index, queries, { k: 5 }).overall;
  const hitWithEmpty = (index, queries) => {
    const { hitAtK, emptyRate } = metrics(index, queries);
    return `${fixed(hitAtK, 3)} (${fixed(100 * emptyRate, 0)}% empty)`;
  };
  const empty = (index, queries) => fixed(metrics(index, queries).emptyRate, 3);
  const typo = (index, queries) => {
    const report = evaluateTypos(index, queries, 5);
    return `${fixed(report.hitRate, 3)} (${fixed(100 * report.correctedRate, 0)}% corrected)`;
  };
  const rows = [
    [`keyword hit@5 (${keyword(dev).length} queries)`, (index) => hitWithEmpty(index, keyword(dev))],
    [`natural hit@5 (${natural(dev).length})`, (index) => hitWithEmpty(index, natural(dev))],
    [`known-item hit@5 (${known(dev).length})`, (index) => fixed(metrics(index, known(dev)).hitAtK, 3)],
    [
      `absent service, empty rate: well-known (${negatives.filter((row) => row.tier === 'well-known').length})`,
      (index) =>
        empty(
          index,
          negatives.filter((row) => row.tier === 'well-known'),
        ),
    ],
    [`absent service, empty rate: all (${negatives.length})`, (index) => empty(index, negatives)],
    [`absent service, phrasing set 1 (${heldOut1.length})`, (index) => empty(index, heldOut1)],
    [`absent service, phrasing set 2 (${heldOut2.length})`, (index) => empty(index, heldOut2)],
    [`absent service, phrasing set 3 (${heldOut3.length})`, (index) => empty(index, heldOut3)],
    [`absent service, phrasing set 4 (${heldOut4.length})`, (index) => empty(index, heldOut4)],
    [`absent service, phrasing set 5 (${heldOut5.length})`, (index) => empty(index, heldOut5)],
    [`absent service, phrasing set 6 (${heldOut6.length})`, (index) => empty(index, heldOut6)],
    [`absent service, phrasing set 7, held out (${heldOut7.length})`, (index) => empty(index, heldOut7)],
    [`typo hit@5 when the clean query hits (${typos.length} typo queries)`, (index) => typo(index, typos)],
  ];

  // Our default on each half of dev: rules were tuned on half A and confirmed on half B.
  const ours = indexes[2];
  const halves = ['A', 'B'].map((half) => {
    const rowsOf = dev.filter((row) => row.half === half);
    const typosOf = typos.filter((row) => rowsOf.some((devRow) => `typo-${devRow.id}` === row.id));
    return [
      `half ${half} (${rowsOf.length} queries)`,
      fixed(metrics(ours, keyword(rowsOf)).hitAtK, 3),
      fixed(metrics(ours, natural(rowsOf)).hitAtK, 3),
      fixed(metrics(ours, known(rowsOf)).hitAtK, 3),
      fixed(evaluateTypos(ours, typosOf, 5).hitRate, 3),
    ];
  });
  return [
    '## Search quality (issue 7): all catalogs together, limit 5',
    '',
    table([
      ['', ...engines.map(([name]) => name)],
      ...rows.map(([label, cell]) => [label, ...indexes.map(cell)]),
    ]),
    '',
    'Targets: keyword ≥ 0.65, natural ≥ 0.35, known-item ≥ 0.97, absent service empty ≥ 0.95, typo ≥ 0.80.',
    '',
    '### toolbridge default on the two halves of dev (split by a hash of each query group)',
    '',
    table([['', 'keyword', 'natural', 'known-item', 'typo'], ...halves]),
  ].join('\n');
}
