import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createToolIndex, type ToolIndexOptionsInput } from '../../../src/search/index.js';
import { HERMES_OPTIONS, PLAIN_BM25_OPTIONS } from '../../../src/search/presets.js';
import { ACTION_SYNONYMS } from '../../../src/search/synonyms.js';
import type { IndexEntry } from '../../../src/search/types.js';

// Words for random catalogs and queries: shared stems (issue/issues), camelCase, a service name
// (slack), English words no tool may hold (tomorrow), names (zorblat) and near-typos (mesage).
const WORDS = [
  'create',
  'issue',
  'issues',
  'list',
  'listing',
  'send',
  'message',
  'messages',
  'channel',
  'repo',
  'repository',
  'file',
  'files',
  'search',
  'delete',
  'event',
  'calendar',
  'slack',
  'github',
  'pullRequest',
  'createIssue',
  'weather',
  'forecast',
  'zorblat',
  'tomorrow',
  'the',
  'a',
];
const QUERY_WORDS = [...WORDS, 'mesage', 'calender', 'jira', 'please', 'qqqxz', 'GitHub', 'ISSUES'];

const word = fc.constantFrom(...WORDS);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });

const entry: fc.Arbitrary<IndexEntry> = fc
  .record({
    server: fc.constantFrom('github', 'slack', 'weather', 'files', null),
    name: words(1, 3),
    description: fc.option(words(0, 12), { nil: undefined }),
    parameters: words(0, 3),
    keywords: fc.option(words(1, 2), { nil: undefined }),
  })
  .map(({ server, name, description, parameters, keywords }) => ({
    name: `mcp__${server ?? 'x'}__${name.join('_')}`,
    server,
    description: description?.join(' '),
    inputSchema: { type: 'object', properties: Object.fromEntries(parameters.map((p) => [p, {}])) },
    ...(keywords === undefined ? {} : { keywords }),
  }));

const catalog = (max: number) => fc.array(entry, { minLength: 0, maxLength: max });
const query = fc
  .array(fc.constantFrom(...QUERY_WORDS), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(' '));

const PRESETS: Array<[string, ToolIndexOptionsInput | undefined]> = [
  ['default', undefined],
  ['hermes', HERMES_OPTIONS],
  ['plain BM25', PLAIN_BM25_OPTIONS],
  ['field weights and synonyms', { fieldWeights: { name: 3, description: 0.5 }, synonyms: ACTION_SYNONYMS }],
  ['relevance floor', { relevanceFloor: { fromTerms: 2, fraction: 0.5 }, maxQueryTerms: 2 }],
  ['BM25F', { lengthNormalization: 'field', fieldWeights: { name: 2, parameterDescriptions: 1 } }],
];

describe('ToolIndex.extend', () => {
  it.each(PRESETS)('ranks base + extra exactly as one index over both (%s, property)', (_name, options) => {
    fc.assert(
      fc.property(
        catalog(10),
        catalog(5),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        (base, extra, queries) => {
          const extended = createToolIndex(base, options).extend(extra);
          const whole = createToolIndex([...base, ...extra], options);
          expect(extended.size).toBe(whole.size);
          for (const text of queries) {
            for (const limit of [3, 25]) {
              expect(extended.search(text, { limit, explain: true })).toEqual(
                whole.search(text, { limit, explain: true }),
              );
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('extends an extended index, and leaves every index it came from as it was (property)', () => {
    fc.assert(
      fc.property(catalog(8), catalog(4), catalog(4), query, (base, first, second, text) => {
        const index = createToolIndex(base);
        const before = index.search(text, { explain: true });
        const once = index.extend(first);
        const onceBefore = once.search(text, { explain: true });
        const twice = once.extend(second);
        expect(twice.search(text, { explain: true })).toEqual(
          createToolIndex([...base, ...first, ...second]).search(text, { explain: true }),
        );
        expect(index.search(text, { explain: true })).toEqual(before);
        expect(once.search(text, { explain: true })).toEqual(onceBefore);
        expect(index.size).toBe(base.length);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps base order before extra order between equal scores, and finds an extra by its exact name', () => {
    const twin = (name: string): IndexEntry => ({ name, description: 'send a message' });
    // No name-match boost: the names differ in words, and only catalog order should decide.
    const index = createToolIndex([twin('mcp__a__send'), twin('mcp__b__send')], { nameMatchBoost: 0 }).extend(
      [twin('mcp__c__send'), twin('mcp__a__send')],
    );
    expect(index.search('send message', { limit: 10 }).matches).toEqual([
      'mcp__a__send',
      'mcp__b__send',
      'mcp__c__send',
      'mcp__a__send',
    ]);
    expect(index.search('mcp__c__send').matches[0]).toBe('mcp__c__send');
  });

  it('counts extra tools in document frequencies, so a word common among them ranks lower', () => {
    const base = createToolIndex([
      { name: 'mcp__a__one', description: 'archive mail' },
      { name: 'mcp__a__two', description: 'forward mail' },
    ]);
    const alone = base.search('archive', { explain: true }).explanation!.matches[0]!.bm25;
    const crowded = base
      .extend([
        { name: 'connectors__g__archive', description: 'archive a thread' },
        { name: 'connectors__g__archive_all', description: 'archive every thread' },
      ])
      .search('archive', { explain: true }).explanation!.matches[0]!.bm25;
    expect(crowded).toBeLessThan(alone);
  });

  it('refuses extra tools that are not an array of entries with names, naming the bad one', () => {
    const index = createToolIndex([{ name: 'mcp__a__one' }]);
    expect(() => index.extend('nope' as never)).toThrow(ToolbridgeError);
    expect(() => index.extend([{ name: 'ok' }, { name: ' ' }])).toThrow(/extend: extra\[1\]\.name/);
  });
});
