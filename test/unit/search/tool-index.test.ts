import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createToolIndex, DEFAULT_TOOL_INDEX_OPTIONS } from '../../../src/search/index.js';
import { HERMES_OPTIONS } from '../../../src/search/presets.js';
import type { IndexEntry } from '../../../src/search/types.js';

const params = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
});

const CATALOG: IndexEntry[] = [
  {
    name: 'mcp__github__create_issue',
    server: 'github',
    description: 'Open a new issue in a repository',
    inputSchema: params('title', 'body'),
  },
  {
    name: 'mcp__github__list_issues',
    server: 'github',
    description: 'List issues in a repository',
    inputSchema: params('repo'),
  },
  {
    name: 'mcp__slack__send_message',
    server: 'slack',
    description: 'Post a message into a channel',
    inputSchema: params('channel', 'text'),
  },
  {
    name: 'mcp__calendar__create_event',
    server: 'calendar',
    description: 'Add an event to the calendar',
    inputSchema: params('title', 'start'),
  },
  {
    name: 'mcp__gist__save_snippet',
    server: 'gist',
    description: 'Save a shell command snippet',
    inputSchema: params('content'),
  },
];

const hermes = (entries: IndexEntry[] = CATALOG) => createToolIndex(entries, HERMES_OPTIONS);

describe('createToolIndex (Hermes preset)', () => {
  describe('what is indexed', () => {
    it('indexes name words without the mcp__ prefix, the description and parameter names', () => {
      const index = hermes();
      expect(index.search('mcp').matches).toEqual([]);
      expect(index.search('channel').matches).toEqual(['mcp__slack__send_message']);
      expect(index.search('snippet').matches).toEqual(['mcp__gist__save_snippet']);
    });

    it('adds the server label only when it is not already a name word', () => {
      const entries: IndexEntry[] = [
        { name: 'mcp__github__a_b', server: 'github' },
        { name: 'mcp__x__b', server: 'github' },
        { name: 'mcp__y__c', server: 'scoped-gh' },
      ];
      const { explanation } = createToolIndex(entries, HERMES_OPTIONS).search('github', { explain: true });
      // Both hold `github` once in three words: for the first it is a name word, for the second the label.
      expect(explanation?.matches.map((match) => match.name)).toEqual(['mcp__github__a_b', 'mcp__x__b']);
      expect(explanation?.matches[0]?.score).toBeCloseTo(explanation?.matches[1]?.score ?? 0, 12);
      // A label with a separator is always added, then tokenised.
      expect(createToolIndex(entries, HERMES_OPTIONS).search('scoped').matches).toEqual(['mcp__y__c']);
    });

    it('indexes malformed or missing descriptions and schemas as empty text', () => {
      const entries = [
        { name: 'tool_one', description: null, inputSchema: 'not a schema' },
        { name: 'tool_two', description: 42, inputSchema: { properties: ['a', 'b'] } },
        { name: 'tool_three', inputSchema: { properties: { depth: 'x' } }, keywords: ['ok', 7] },
        { name: 'tool_four', server: 5 },
      ] as unknown as IndexEntry[];
      const index = createToolIndex(entries, HERMES_OPTIONS);
      expect(index.size).toBe(4);
      expect(index.search('tool', { limit: 10 }).matches).toHaveLength(4);
      expect(index.search('depth').matches).toEqual(['tool_three']);
      expect(index.search('ok').matches).toEqual(['tool_three']);
      expect(index.search('42').matches).toEqual([]);
    });

    it('returns names verbatim, whatever their case or characters', () => {
      const index = createToolIndex([{ name: 'mcp__Odd Server__Do.Thing!' }], HERMES_OPTIONS);
      expect(index.search('thing').matches).toEqual(['mcp__Odd Server__Do.Thing!']);
    });

    it('rejects an entry without a usable name, naming it', () => {
      expect(() => createToolIndex([{ name: 'ok' }, { name: '  ' }])).toThrow(/entries\[1\]\.name/);
      expect(() => createToolIndex([null as unknown as IndexEntry])).toThrow(ToolbridgeError);
      expect(() => createToolIndex('nope' as unknown as IndexEntry[])).toThrow(/entries must be an array/);
    });
  });

  describe('rarest-term gate', () => {
    it('admits only tools holding the rarest query term', () => {
      // `repository` is in two tools, `open` in one: only create_issue is admitted.
      expect(hermes().search('open repository').matches).toEqual(['mcp__github__create_issue']);
    });

    it('returns nothing when a query word is in no tool', () => {
      expect(hermes().search('send telegram message').matches).toEqual([]);
    });

    it('breaks a tie for rarest by query order', () => {
      const { explanation } = hermes().search('channel snippet', { explain: true });
      expect(explanation?.gateToken).toBe('channel');
      expect(explanation?.matches.map((match) => match.name)).toEqual(['mcp__slack__send_message']);
    });
  });

  describe('relevance floor', () => {
    it('requires one term below four answerable terms', () => {
      const { explanation } = hermes().search('list issues repository', { explain: true });
      expect(explanation?.requiredCoverage).toBe(1);
    });

    it('requires half of four or more answerable terms (rounded up), ignoring unanswerable ones', () => {
      const index = hermes();
      for (const [query, required] of [
        ['create issue repository title', 2],
        ['create issue repository title body', 3],
        ['create issue repository title body zzz', 3],
      ] as const) {
        expect(index.search(query, { explain: true }).explanation?.requiredCoverage).toBe(required);
      }
    });

    it('drops a tool that holds the gate term but too little of the rest', () => {
      // Gate `open` (create_issue only) — but with 4 answerable terms it must also hold 2 of them.
      const index = hermes();
      expect(index.search('open channel message post').matches).toEqual([]);
      expect(index.search('open issue repository body').matches).toEqual(['mcp__github__create_issue']);
    });
  });

  describe('exact name', () => {
    it('ranks a tool first when the query is its full name, trimmed and case-insensitive', () => {
      const { matches, explanation } = hermes().search('  MCP__GitHub__List_Issues ', { explain: true });
      expect(matches[0]).toBe('mcp__github__list_issues');
      expect(explanation?.matches[0]?.exactName).toBe(true);
    });

    it('admits the exact name even when the gate would not, and lists it once', () => {
      // `mcp` is not indexed (the prefix is stripped), so the gate term of this query is in no tool.
      expect(hermes().search('mcp__slack__send_message').matches).toEqual(['mcp__slack__send_message']);
      const index = createToolIndex([{ name: 'alpha_beta' }, { name: 'alpha' }], HERMES_OPTIONS);
      expect(index.search('alpha').matches).toEqual(['alpha', 'alpha_beta']);
    });
  });

  describe('ordering and limits', () => {
    it('keeps catalog order between equal scores', () => {
      const twins = ['b_tool', 'a_tool', 'c_tool'].map((name) => ({ name, description: 'same words here' }));
      expect(createToolIndex(twins, HERMES_OPTIONS).search('same words').matches).toEqual([
        'b_tool',
        'a_tool',
        'c_tool',
      ]);
    });

    it('counts a repeated query word twice in the score', () => {
      const index = hermes();
      const once = index.search('calendar', { explain: true }).explanation?.matches[0]?.score ?? 0;
      const twice = index.search('calendar calendar', { explain: true }).explanation?.matches[0]?.score ?? 0;
      expect(twice).toBeCloseTo(2 * once, 12);
    });

    it('returns at most limit names, the default limit without one, and nothing for limit ≤ 0', () => {
      const index = hermes();
      expect(index.search('a', { limit: 2 }).matches).toHaveLength(2);
      expect(index.search('a').matches).toHaveLength(4);
      const many = createToolIndex(
        Array.from({ length: 9 }, (_, i) => ({ name: `tool_${i}` })),
        HERMES_OPTIONS,
      );
      expect(many.search('tool').matches).toHaveLength(5);
      expect(index.search('a', { limit: 0 }).matches).toEqual([]);
      expect(index.search('a', { limit: -3 }).matches).toEqual([]);
      expect(() => index.search('a', { limit: Number.NaN })).toThrow(/limit/);
    });

    it('returns nothing for a query without ASCII letters or digits, or an empty catalog', () => {
      expect(hermes().search('?? -- !!').matches).toEqual([]);
      expect(createToolIndex([], HERMES_OPTIONS).search('issue').matches).toEqual([]);
    });

    it('agrees with a stable sort of every admitted tool by score (property)', () => {
      const words = ['issue', 'message', 'create', 'list', 'event', 'repository', 'channel', 'save'];
      const index = hermes();
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }),
          fc.integer({ min: 1, max: 6 }),
          (query, limit) => {
            const text = query.join(' ');
            const all = index.search(text, { limit: 100, explain: true });
            const top = index.search(text, { limit }).matches;
            expect(top).toEqual(all.matches.slice(0, limit));
            const scores = all.explanation?.matches.map((match) => match.score) ?? [];
            for (let i = 1; i < scores.length; i++) expect(scores[i - 1]).toBeGreaterThanOrEqual(scores[i]!);
            expect(new Set(all.matches).size).toBe(all.matches.length);
          },
        ),
      );
    });
  });

  describe('explain', () => {
    it('reports the gate, answerable terms, coverage and per-term scores summing to the score', () => {
      const { explanation } = hermes().search('create issue xyzzy', { explain: true });
      expect(explanation).toMatchObject({
        query: 'create issue xyzzy',
        terms: ['creat', 'issu', 'xyzzi'],
        gateToken: 'xyzzi',
        answerableTerms: ['creat', 'issu'],
        requiredCoverage: 1,
        matches: [],
      });
      const found = hermes().search('create issue', { explain: true }).explanation!;
      const first = found.matches[0]!;
      expect(first.name).toBe('mcp__github__create_issue');
      expect(Object.keys(first.terms).sort()).toEqual(['creat', 'issu']);
      expect(first.score).toBeCloseTo(
        Object.values(first.terms).reduce((sum, value) => sum + value, 0),
        12,
      );
      expect(first.coverage).toBe(2);
    });

    it('leaves the explanation out unless asked', () => {
      expect(hermes().search('issue').explanation).toBeUndefined();
    });
  });
});

describe('options', () => {
  it('are frozen defaults, each overridable', () => {
    expect(Object.isFrozen(DEFAULT_TOOL_INDEX_OPTIONS)).toBe(true);
    expect(() => createToolIndex(CATALOG, { k1: 1.2, fieldWeights: { name: 2 } })).not.toThrow();
  });

  it.each([
    [{ k1: 0 }, 'createToolIndex: option "k1" must be > 0'],
    [{ b: 1.5 }, 'option "b" must be between 0 and 1'],
    [{ fieldWeights: { name: -1 } }, 'option "fieldWeights.name" must be a number ≥ 0'],
    [{ gate: 'sometimes' }, 'option "gate"'],
    [{ relevanceFloor: { fromTerms: 0, fraction: 0.5 } }, 'relevanceFloor.fromTerms'],
    [{ relevanceFloor: { fromTerms: 4, fraction: 0 } }, 'relevanceFloor.fraction'],
    [{ typoMinLength: 2 }, 'typoMinLength'],
    [{ nameMatchBoost: -1 }, 'nameMatchBoost'],
    [{ wordCoverageBoost: Number.NaN }, 'wordCoverageBoost'],
    [{ lengthNormalization: 'both' }, 'lengthNormalization'],
    [{ unknownNameMaxWords: 1.5 }, 'unknownNameMaxWords'],
    [{ synonyms: ['open'] }, 'synonyms'],
    [{ synonymWeight: 2 }, 'synonymWeight'],
    [{ defaultLimit: 0 }, 'defaultLimit'],
    [{ countRepeatedTerms: 'yes' }, 'countRepeatedTerms'],
    [{ maxPerServer: -1 }, 'maxPerServer'],
  ])('rejects %j with INVALID_ARGUMENT', (options, message) => {
    let thrown: unknown;
    try {
      createToolIndex(CATALOG, options as never);
    } catch (error) {
      thrown = error;
    }
    expect(ToolbridgeError.is(thrown, 'INVALID_ARGUMENT')).toBe(true);
    expect((thrown as Error).message).toContain(message);
  });
});
