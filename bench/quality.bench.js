// Search quality, every set, limit 5: our default next to plain BM25 and the reference, same run
// (issue #15's protocol). Each set says what it taught: `tuned` sets prompted rules; `once` sets
// are measured once as written and never tuned on (the headline; every absent-services-*.jsonl
// fixture is measured); `dev` sets were used to choose among rules (dev.jsonl half A tuned, half
// B checked; the external dev half chose the common-word threshold). Absent-service sets count
// the share of queries answered with nothing.
import { join } from 'node:path';
import {
  createToolIndex,
  evaluateIndex,
  evaluateTypos,
  HERMES_OPTIONS,
  PLAIN_BM25_OPTIONS,
} from '../dist/search/index.js';
import {
  absentServiceSets,
  loadCatalogEntries,
  loadDevQueries,
  loadExternalQueries,
  loadQueryFixture,
  newToTheProject,
  sharedDataDir,
} from './fixtures.js';
import { fixed, table } from './measure.js';

const ENGINES = [
  ['toolbridge default', undefined],
  ['plain BM25', PLAIN_BM25_OPTIONS],
  ['reference', HERMES_OPTIONS],
];

export function runQualityBench() {
  const shared = loadCatalogEntries();
  const external = loadCatalogEntries(join(sharedDataDir(), 'external', 'catalogs'));
  const dev = loadDevQueries();
  const externalQueries = loadExternalQueries();
  const byStyle = (style) => dev.filter((row) => row.style === style);
  const catalogs = {
    shared: shared,
    external: external,
    mixed: [...shared, ...external],
  };
  const indexes = Object.fromEntries(
    Object.entries(catalogs).map(([name, entries]) => [
      name,
      ENGINES.map(([, options]) => createToolIndex(entries, options)),
    ]),
  );
  const positives = [
    ['external, its catalogs alone', 'dev (chose rules)', 'external', externalQueries],
    ['external, mixed with the 84', 'dev (chose rules)', 'mixed', externalQueries],
    ['dev keyword', 'dev (half A tuned)', 'shared', byStyle('keyword')],
    ['dev natural', 'dev (half A tuned)', 'shared', byStyle('natural')],
    ['dev known-item', 'dev (half A tuned)', 'shared', dev.filter((row) => row.known)],
    ['paraphrases', 'tuned (written by search-terms)', 'shared', loadQueryFixture('paraphrases-tuned.jsonl')],
    [
      'agent queries tuned-9',
      'tuned (read for issue #15)',
      'shared',
      loadQueryFixture('agent-positives-tuned-9.jsonl'),
    ],
    [
      'paraphrases tuned-9',
      'tuned (written once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-9.jsonl'),
    ],
    [
      'agent queries once-10',
      'once (rounds 12, 13 read the emptied ones)',
      'shared',
      loadQueryFixture('agent-positives-once-10.jsonl'),
    ],
    [
      'agent queries once-11',
      'once (rounds 12, 13 read the emptied ones)',
      'shared',
      loadQueryFixture('agent-positives-once-11.jsonl'),
    ],
    [
      'agent queries once-12',
      'once (rounds 12, 13 read the emptied ones)',
      'shared',
      loadQueryFixture('agent-positives-once-12.jsonl'),
    ],
    [
      'agent queries once-18',
      'once (the headline)',
      'shared',
      loadQueryFixture('agent-positives-once-18.jsonl'),
    ],
    ['paraphrases once-18', 'once (the headline)', 'shared', loadQueryFixture('paraphrases-once-18.jsonl')],
    [
      'agent queries tuned-17',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('agent-positives-tuned-17.jsonl'),
    ],
    [
      'agent queries tuned-17, new to the project',
      'tuned (measured once, misses read)',
      'shared',
      newToTheProject('agent-positives-tuned-17.jsonl'),
    ],
    [
      'paraphrases tuned-17',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-17.jsonl'),
    ],
    [
      'agent queries tuned-16',
      'tuned (rounds 13, 14 read the misses)',
      'shared',
      loadQueryFixture('agent-positives-tuned-16.jsonl'),
    ],
    [
      'paraphrases tuned-16',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-16.jsonl'),
    ],
    [
      'agent queries tuned-15',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('agent-positives-tuned-15.jsonl'),
    ],
    [
      'paraphrases tuned-15',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-15.jsonl'),
    ],
    [
      'agent queries tuned-14',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('agent-positives-tuned-14.jsonl'),
    ],
    [
      'paraphrases once-14',
      'once (measured, misses not read)',
      'shared',
      loadQueryFixture('paraphrases-once-14.jsonl'),
    ],
    [
      'agent queries once-13',
      'once (rounds 12, 13 read the emptied ones)',
      'shared',
      loadQueryFixture('agent-positives-once-13.jsonl'),
    ],
    [
      'paraphrases once-13',
      'once (measured, misses not read)',
      'shared',
      loadQueryFixture('paraphrases-once-13.jsonl'),
    ],
    [
      'paraphrases tuned-12',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-12.jsonl'),
    ],
    [
      'paraphrases tuned-11',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-11.jsonl'),
    ],
    [
      'paraphrases tuned-10',
      'tuned (measured once, misses read)',
      'shared',
      loadQueryFixture('paraphrases-tuned-10.jsonl'),
    ],
  ];
  const cell = (metrics) =>
    `${fixed(metrics.hitAt1, 3)} / ${fixed(metrics.hitAtK, 3)} / ${fixed(metrics.recallAtK, 3)} / ` +
    `${fixed(metrics.mrrAt10, 3)} / ${fixed(100 * metrics.emptyRate, 1)}%`;
  const positiveRows = positives.map(([label, status, catalog, queries]) => [
    `${label} (${queries.length})`,
    status,
    ...indexes[catalog].map((index) => cell(evaluateIndex(index, queries, { k: 5 }).overall)),
  ]);
  const absentRows = absentServiceSets().map((name) => {
    const status = name.startsWith('once-') ? 'once (the headline)' : 'tuned';
    const queries = loadQueryFixture(`absent-services-${name}.jsonl`);
    return [
      `absent services ${name} (${queries.length})`,
      status,
      ...indexes.shared.map((index) => fixed(evaluateIndex(index, queries, { k: 5 }).overall.emptyRate, 3)),
    ];
  });
  const typoRows = [
    ['tuned', 'tuned'],
    ['once-10', 'once (measured, misses not read)'],
    ['once-11', 'once (measured, misses not read)'],
    ['once-12', 'once (measured, misses not read)'],
    ['once-13', 'once (measured, misses not read)'],
    ['once-14', 'once (measured, misses not read)'],
    ['once-15', 'once (measured, misses not read)'],
    ['once-16', 'once (measured, misses not read)'],
    ['once-17', 'once (measured, misses not read)'],
    ['once-18', 'once (the headline)'],
  ].map(([name, status]) => {
    const typos = loadQueryFixture(`typo-queries-${name}.jsonl`);
    return [
      `typos ${name}, of clean hits (${typos.length})`,
      status,
      ...indexes.shared.map((index) => {
        const report = evaluateTypos(index, typos, 5);
        return `${fixed(report.hitRate, 3)} (${fixed(100 * report.correctedRate, 0)}% corrected)`;
      }),
    ];
  });
  const halves = ['A', 'B'].map((half) => {
    const rows = dev.filter((row) => row.half === half);
    const hit = (queries) => fixed(evaluateIndex(indexes.shared[0], queries, { k: 5 }).overall.hitAtK, 3);
    return [
      `half ${half} (${rows.length})`,
      hit(rows.filter((row) => row.style === 'keyword')),
      hit(rows.filter((row) => row.style === 'natural')),
      hit(rows.filter((row) => row.known)),
    ];
  });
  return [
    '## Search quality (issue 15): every set, limit 5, same run',
    '',
    'Positives: hit@1 / hit@5 / recall@5 / MRR@10 / empty. Absent services: share answered with nothing.',
    '',
    table([
      ['set', 'taught rules?', ...ENGINES.map(([name]) => name)],
      ...positiveRows,
      ...absentRows,
      ...typoRows,
    ]),
    '',
    '### toolbridge default on the two halves of dev (split by a hash of each query group), hit@5',
    '',
    table([['', 'keyword', 'natural', 'known-item'], ...halves]),
  ].join('\n');
}
