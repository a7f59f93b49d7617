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
  const typos = loadQueryFixture('typo-queries.jsonl');
  const engines = [
    ['reference (hermes preset)', HERMES_OPTIONS],
    ['plain BM25 + stemming', PLAIN_BM25_OPTIONS],
    ['toolbridge default', undefined],
  ];
  const columns = engines.map(([, options]) => {
    const index = createToolIndex(entries, options);
    const hit = (queries) => evaluateIndex(index, queries, { k: 5 }).overall;
    const keyword = hit(dev.filter((row) => row.style === 'keyword'));
    const natural = hit(dev.filter((row) => row.style === 'natural'));
    const typo = evaluateTypos(index, typos, 5);
    return [
      `${fixed(keyword.hitAtK, 3)} (${fixed(100 * keyword.emptyRate, 0)}% empty)`,
      `${fixed(natural.hitAtK, 3)} (${fixed(100 * natural.emptyRate, 0)}% empty)`,
      fixed(hit(dev.filter((row) => row.known)).hitAtK, 3),
      fixed(hit(negatives.filter((row) => row.tier === 'well-known')).emptyRate, 3),
      fixed(hit(negatives).emptyRate, 3),
      `${fixed(typo.hitRate, 3)} (${fixed(100 * typo.correctedRate, 0)}% corrected)`,
    ];
  });
  const labels = [
    `keyword hit@5 (${dev.filter((row) => row.style === 'keyword').length} queries)`,
    `natural hit@5 (${dev.filter((row) => row.style === 'natural').length})`,
    `known-item hit@5 (${dev.filter((row) => row.known).length})`,
    `absent service, empty rate: well-known (${negatives.filter((row) => row.tier === 'well-known').length})`,
    `absent service, empty rate: all (${negatives.length})`,
    `typo hit@5 when the clean query hits (${typos.length} typo queries)`,
  ];
  return [
    '## Search quality (issue 7): all catalogs together, limit 5',
    '',
    table([
      ['', ...engines.map(([name]) => name)],
      ...labels.map((label, row) => [label, ...columns.map((c) => c[row])]),
    ]),
    '',
    'Targets: keyword ≥ 0.65, natural ≥ 0.35, known-item ≥ 0.97, absent service empty ≥ 0.95, typo ≥ 0.80.',
  ].join('\n');
}
