import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildListing,
  LISTING_HEADER,
  type ListingTool,
  shortDescription,
} from '../../../src/catalog/listing.js';
import { estimateTokens } from '../../../src/catalog/tokens.js';

describe('shortDescription', () => {
  it('keeps the first sentence and collapses whitespace', () => {
    expect(shortDescription('  Open   an\nissue.  Then more. ')).toBe('Open an issue.');
    expect(shortDescription('Ready! Go.')).toBe('Ready!');
    expect(shortDescription('Why? Because.')).toBe('Why?');
  });

  it('does not end a sentence at e.g., i.e. or etc.', () => {
    expect(shortDescription('List issues, e.g. open ones. More.')).toBe('List issues, e.g. open ones.');
    expect(shortDescription('Files, i.e. blobs. More.')).toBe('Files, i.e. blobs.');
    expect(shortDescription('Tags, labels etc. are kept. More.')).toBe('Tags, labels etc. are kept.');
  });

  it('needs whitespace or the end after the mark, so versions and paths stay whole', () => {
    expect(shortDescription('Uses v1.2 of file.txt for now')).toBe('Uses v1.2 of file.txt for now');
  });

  it('clips past 60 characters at the last space, drops trailing punctuation and adds …', () => {
    const text = 'Create or update a Linear issue with a very long explanation that keeps going';
    expect(shortDescription(text)).toBe('Create or update a Linear issue with a very long…');
    expect(shortDescription(`${'a'.repeat(58)}, bbbbbbbbbb`)).toBe(`${'a'.repeat(58)}…`);
    expect(shortDescription('x'.repeat(80))).toBe(`${'x'.repeat(60)}…`);
  });

  it('keeps exactly 60 characters and counts code points, not UTF-16 units', () => {
    expect(shortDescription('y'.repeat(60))).toBe('y'.repeat(60));
    const emoji = '😀'.repeat(60);
    expect(shortDescription(emoji)).toBe(emoji);
  });

  it('reads only what it needs from a huge description', () => {
    expect(shortDescription(`Short start. ${'z '.repeat(100_000)}`)).toBe('Short start.');
  });

  it('returns an empty string for a missing description', () => {
    expect(shortDescription(undefined)).toBe('');
    expect(shortDescription('   ')).toBe('');
  });
});

const tool = (serverId: string, name: string, description = ''): ListingTool => ({
  serverId,
  name,
  description,
});

describe('buildListing', () => {
  const small = [
    tool('github', 'gh_b', 'Second tool.'),
    tool('github', 'gh_a', 'First tool. More.'),
    tool('', 'misc'),
  ];

  it('writes full blocks sorted by label and name, "other" for no server, no trailing newline', () => {
    const listing = buildListing(small, { budgetTokens: 1000 });
    expect(listing.form).toBe('full');
    expect(listing.text).toBe(
      [
        LISTING_HEADER,
        'github tools (2):',
        '- gh_a: First tool.',
        '- gh_b: Second tool.',
        'other tools (1):',
        '- misc',
      ].join('\n'),
    );
    expect(listing.tokens).toBe(estimateTokens(listing.text!));
    expect(listing.groups).toEqual([
      { label: 'github', toolCount: 2, style: 'full' },
      { label: 'other', toolCount: 1, style: 'full' },
    ]);
  });

  it('is the same whatever order the tools come in', () => {
    const a = buildListing(small, { budgetTokens: 1000 });
    const b = buildListing([...small].reverse(), { budgetTokens: 1000 });
    expect(b.text).toBe(a.text);
  });

  it('returns form none and no text for an empty catalog or a zero budget', () => {
    expect(buildListing([], { budgetTokens: 1000 })).toEqual({
      form: 'none',
      text: null,
      tokens: 0,
      groups: [],
    });
    expect(buildListing(small, { budgetTokens: 0 }).form).toBe('none');
  });

  it('adds one line per unavailable server, in label order, with or without a count', () => {
    const listing = buildListing([tool('github', 'gh_a')], {
      budgetTokens: 1000,
      unavailable: [
        { serverId: 'zeta', toolCount: 3, reason: 'the server failed to start' },
        { serverId: 'alpha', reason: 'it needs sign-in' },
        { serverId: 'github', toolCount: 9, reason: 'ignored: the server is listed' },
      ],
    });
    expect(listing.text!.split('\n').slice(1)).toEqual([
      'alpha (tools unavailable: it needs sign-in)',
      'github tools (1):',
      '- gh_a',
      'zeta (3 tools unavailable: the server failed to start)',
    ]);
  });

  // Two servers with 80-character labels and one short tool each: their names blocks are the
  // largest, so largest-first collapses them first, yet each summary line is longer than its
  // block. The reference grows past the budget before it reaches the server that would help.
  const growing = [
    tool(`${'g'.repeat(80)}1`, 'short_tool'),
    tool(`${'g'.repeat(80)}2`, 'short_tool'),
    ...[1, 2, 3].map((i) => tool('b', `b_tool_with_a_long_name_${i}`)),
  ];
  const namesTokens = (tools: ListingTool[]) => {
    const full = buildListing(tools, { budgetTokens: 10_000 });
    const names = buildListing(tools, { budgetTokens: full.tokens - 1, algorithm: 'reference' });
    expect(names.form).toBe('names');
    return names.tokens;
  };

  it('reference algorithm: a collapse that grows the text can end at none', () => {
    expect(
      buildListing(growing, { budgetTokens: namesTokens(growing) - 5, algorithm: 'reference' }).form,
    ).toBe('none');
  });

  it('toolbridge algorithm: skips growing collapses and finds the mixed listing that fits', () => {
    const budget = namesTokens(growing) - 5;
    const listing = buildListing(growing, { budgetTokens: budget });
    expect(listing.form).toBe('mixed');
    expect(listing.tokens).toBeLessThanOrEqual(budget);
    expect(listing.groups.map((group) => group.style)).toEqual(['summary', 'names', 'names']);
    expect(listing.text).toContain('b (3 tools — names not listed; discover via `tool_search`)');
  });

  it('toolbridge algorithm: spends the rest of the budget on full blocks, cheapest first', () => {
    const tools = [
      tool('alpha', 'alpha_one', 'Alpha does one thing.'),
      tool('beta', 'beta_one', 'Beta does one thing with a much longer description here.'),
      tool('gamma', 'gamma_one'),
    ];
    expect(buildListing(tools, { budgetTokens: 10_000 }).form).toBe('full');
    // Room for alpha's description but not beta's.
    const budget = namesTokens(tools) + 8;
    const reference = buildListing(tools, { budgetTokens: budget, algorithm: 'reference' });
    const ours = buildListing(tools, { budgetTokens: budget });
    expect(reference.groups.map((group) => group.style)).toEqual(['names', 'names', 'names']);
    expect(ours.form).toBe('names');
    // gamma has no description, so a full block would add nothing.
    expect(ours.groups.map((group) => group.style)).toEqual(['full', 'names', 'names']);
    expect(ours.text).toContain('- alpha_one: Alpha does one thing.');
    expect(ours.tokens).toBeLessThanOrEqual(budget);
  });

  it('collapses every server when only summaries fit (form groups)', () => {
    const tools = Array.from({ length: 40 }, (_, i) =>
      tool(i < 20 ? 'one' : 'two', `tool_with_long_name_${i}`),
    );
    const listing = buildListing(tools, { budgetTokens: 60 });
    expect(listing.form).toBe('groups');
    expect(listing.text!.split('\n')).toHaveLength(3);
  });
});

describe('buildListing properties', () => {
  const catalogs = fc.array(
    fc.record({
      serverId: fc.constantFrom('a', 'gh', 'linear', 'a-rather-long-server-label-for-summaries', ''),
      name: fc.stringMatching(/^[a-z_]{1,30}$/),
      description: fc.constantFrom(
        '',
        'Does one thing.',
        'A longer description that runs past sixty characters for sure.',
      ),
    }),
    { maxLength: 25 },
  );

  it('stays within budget, counts its own tokens, and lists every name in full and names forms', () => {
    fc.assert(
      fc.property(
        catalogs,
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom('reference', 'toolbridge'),
        (tools, budget, algorithm) => {
          const listing = buildListing(tools, {
            budgetTokens: budget,
            algorithm: algorithm as 'reference' | 'toolbridge',
          });
          if (listing.text === null) {
            expect(listing.form).toBe('none');
            return;
          }
          expect(listing.tokens).toBe(estimateTokens(listing.text));
          expect(listing.tokens).toBeLessThanOrEqual(budget);
          if (listing.form === 'full' || listing.form === 'names') {
            for (const tool of tools) expect(listing.text).toContain(tool.name);
          }
        },
      ),
    );
  });

  it('toolbridge is never left with no listing when the reference has one, and never shows less', () => {
    fc.assert(
      fc.property(catalogs, fc.integer({ min: 0, max: 400 }), (tools, budget) => {
        const reference = buildListing(tools, { budgetTokens: budget, algorithm: 'reference' });
        const ours = buildListing(tools, { budgetTokens: budget });
        if (reference.form !== 'none') expect(ours.form).not.toBe('none');
        const listed = (listing: typeof ours) =>
          listing.groups.filter((group) => group.style !== 'summary').length;
        expect(listed(ours)).toBeGreaterThanOrEqual(listed(reference));
      }),
    );
  });
});
