import { describe, expect, it } from 'vitest';
import { StemCache } from '../../../src/search/stem-cache.js';
import { PARAMETER_DESCRIPTION_WORDS, parameterDescriptions } from '../../../src/search/tool-document.js';
import {
  DESCRIPTION,
  KEYWORDS,
  NAME,
  PARAMETER_DESCRIPTIONS,
  PARAMETERS,
  SERVER,
  ToolWordsMemo,
} from '../../../src/search/tool-words.js';
import type { IndexEntry } from '../../../src/search/types.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: false };

/** A tool's triples as [word, field, count]. */
function triples(cache: StemCache, memo: ToolWordsMemo, tool: number): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  for (let i = memo.start(tool); i < memo.end(tool); i += 3) {
    out.push([cache.word(memo.words[i]!), memo.words[i + 1]!, memo.words[i + 2]!]);
  }
  return out;
}

const ENTRY: IndexEntry = {
  name: 'mcp__github__create_issue',
  server: 'github',
  description: 'Create an issue. An issue tracks work.',
  inputSchema: { type: 'object', properties: { repo: { description: 'Repository name' }, issueTitle: {} } },
  keywords: ['ticket'],
};

describe('ToolWordsMemo', () => {
  it('reads every field of a tool, name words first', () => {
    const cache = new StemCache();
    const memo = new ToolWordsMemo(cache, SPLIT, true);
    const tool = memo.wordsOf({ ...ENTRY, server: 'gh' });
    expect(triples(cache, memo, tool)).toEqual([
      ['github', NAME, 1],
      ['create', NAME, 1],
      ['issue', NAME, 1],
      ['gh', SERVER, 1],
      ['create', DESCRIPTION, 1],
      ['an', DESCRIPTION, 2],
      ['issue', DESCRIPTION, 2],
      ['tracks', DESCRIPTION, 1],
      ['work', DESCRIPTION, 1],
      ['repo', PARAMETERS, 1],
      ['issue', PARAMETERS, 1],
      ['title', PARAMETERS, 1],
      ['issuetitle', PARAMETERS, 1],
      ['repository', PARAMETER_DESCRIPTIONS, 1],
      ['name', PARAMETER_DESCRIPTIONS, 1],
      ['ticket', KEYWORDS, 1],
    ]);
    expect((memo.nameEnd(tool) - memo.start(tool)) / 3).toBe(3);
  });

  it('leaves out a server label that is already a name word', () => {
    const cache = new StemCache();
    const memo = new ToolWordsMemo(cache, SPLIT, false);
    const fields = triples(cache, memo, memo.wordsOf(ENTRY)).map(([, field]) => field);
    expect(fields).not.toContain(SERVER);
    expect(fields).not.toContain(PARAMETER_DESCRIPTIONS);
  });

  it('reuses a remembered tool while every text it was read from is unchanged', () => {
    const memo = new ToolWordsMemo(new StemCache(), SPLIT, true);
    const first = memo.wordsOf(ENTRY);
    memo.startReading();
    expect(memo.wordsOf({ ...ENTRY, inputSchema: structuredClone(ENTRY.inputSchema) })).toBe(first);
  });

  it('reads a tool again when any of its texts changed', () => {
    const memo = new ToolWordsMemo(new StemCache(), SPLIT, true);
    memo.wordsOf(ENTRY);
    const changes: IndexEntry[] = [
      { ...ENTRY, description: 'Open an issue.' },
      { ...ENTRY, server: 'other' },
      { ...ENTRY, inputSchema: { properties: { repo: {} } } },
      { ...ENTRY, inputSchema: { properties: { issueTitle: {}, repo: { description: 'Repository name' } } } },
      { ...ENTRY, inputSchema: { properties: { repo: { description: 'Repo' }, issueTitle: {} } } },
      {
        ...ENTRY,
        inputSchema: {
          properties: { repo: { description: 'Repository name' }, issueTitle: { description: 'Title' } },
        },
      },
      {
        ...ENTRY,
        inputSchema: { properties: { repo: { description: 'Repository  name' }, issueTitle: {} } },
      },
      { ...ENTRY, keywords: ['bug'] },
      { ...ENTRY, keywords: undefined },
    ];
    for (const changed of changes) {
      memo.startReading();
      const remembered = memo.wordsOf(ENTRY);
      memo.startReading();
      expect(memo.wordsOf(changed)).not.toBe(remembered);
      memo.startReading();
      expect(memo.wordsOf(ENTRY)).not.toBe(remembered);
    }
  });

  it('looks nothing up in a batch that started with nothing remembered (a first build)', () => {
    const memo = new ToolWordsMemo(new StemCache(), SPLIT, true);
    memo.startReading();
    const first = memo.wordsOf(ENTRY);
    expect(memo.wordsOf(ENTRY)).not.toBe(first);
    memo.startReading();
    const again = memo.wordsOf(ENTRY);
    expect(again).not.toBe(first);
    memo.startReading();
    expect(memo.wordsOf(ENTRY)).toBe(again);
  });
});

describe('parameterDescriptions', () => {
  const words = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => `w${from + i}`).join(' ');

  it(`keeps the first ${PARAMETER_DESCRIPTION_WORDS} whitespace-separated words over all parameters`, () => {
    const properties = {
      a: { description: `  ${words(30)}  ` },
      b: { description: 'not a parameter of the list' },
      c: { description: `${words(5, 30)}\t\n${words(10, 35)}` },
      d: { description: 'past the cut' },
    };
    const text = parameterDescriptions(properties, ['a', 'c', 'd']);
    expect(text.split(/\s+/)).toEqual(words(PARAMETER_DESCRIPTION_WORDS).split(' '));
    expect(text).not.toContain('past');
  });

  it('counts a run of any white space, wide ones too, as one break', () => {
    const text = parameterDescriptions({ a: { description: `one\u00a0\u00a0two\u3000three ${words(50)}` } }, [
      'a',
    ]);
    expect(text.startsWith('one\u00a0\u00a0two\u3000three w0')).toBe(true);
    expect(text.split(/\s+/)).toHaveLength(PARAMETER_DESCRIPTION_WORDS);
  });

  it('skips parameters with no text description', () => {
    expect(
      parameterDescriptions(
        { a: {}, b: { description: 7 }, c: { description: ' ' }, d: { description: 'ok' } },
        ['a', 'b', 'c', 'd'],
      ),
    ).toBe('ok');
  });
});
