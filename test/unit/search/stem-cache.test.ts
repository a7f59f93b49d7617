import { describe, expect, it } from 'vitest';
import { StemCache } from '../../../src/search/stem-cache.js';
import { stem } from '../../../src/search/stemmer.js';
import { hashRange, PLAIN_TOKENIZER } from '../../../src/search/tokenizer.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: false };

/** `text` read from `from` as a bag of [word, field, count] (field 5), written after two slots of padding. */
function bagOf(
  cache: StemCache,
  text: string,
  options = SPLIT,
  from = 0,
  wholeFlag = 0,
): Array<[string, number, number]> {
  const out = new Int32Array(2 + 3 * cache.scan(text, from, options));
  const end = cache.writeBag(text, 5, wholeFlag, out, 2);
  const triples: Array<[string, number, number]> = [];
  for (let i = 2; i < end; i += 3) triples.push([cache.word(out[i]!), out[i + 1]!, out[i + 2]!]);
  return triples;
}

describe('StemCache', () => {
  it('gives one id per lower-cased word, found by position, with its stem', () => {
    const cache = new StemCache();
    const text = 'Issues issues ISSUES running';
    const first = cache.wordId(text, 0, 6, hashRange(text, 0, 6));
    expect(cache.wordId(text, 7, 13, hashRange(text, 7, 13))).toBe(first);
    expect(cache.wordId(text, 14, 20, hashRange(text, 14, 20))).toBe(first);
    const running = cache.wordId(text, 21, 28, hashRange(text, 21, 28));
    expect(cache.word(first)).toBe('issues');
    expect(cache.stem(cache.stemIdOf(first))).toBe(stem('issues'));
    expect(cache.stem(cache.stemIdOf(running))).toBe('run');
    expect(cache.wordCount).toBe(2);
    expect(cache.findWord('issues', hashRange('issues', 0, 6))).toBe(first);
    expect(cache.findWord('missing', hashRange('missing', 0, 7))).toBe(-1);
    expect(cache.findStem('run')).toBe(cache.stemIdOf(running));
    expect(cache.findStem('walk')).toBe(-1);
  });

  it('reads a text as a bag: each word once with its field and count, in order of first appearance', () => {
    const cache = new StemCache();
    expect(bagOf(cache, 'Create an issue, then createIssue again: issue!')).toEqual([
      ['create', 5, 2],
      ['an', 5, 1],
      ['issue', 5, 3],
      ['then', 5, 1],
      ['createissue', 5, 1],
      ['again', 5, 1],
    ]);
    expect(bagOf(cache, 'createIssue now', PLAIN_TOKENIZER)).toEqual([
      ['createissue', 5, 1],
      ['now', 5, 1],
    ]);
  });

  it('flags a word that only came as a split run given whole', () => {
    const cache = new StemCache();
    expect(bagOf(cache, 'NewsTool', SPLIT, 0, 8)).toEqual([
      ['news', 5, 1],
      ['tool', 5, 1],
      ['newstool', 5 | 8, 1],
    ]);
    expect(bagOf(cache, 'NewsTool newstool', SPLIT, 0, 8).at(-1)).toEqual(['newstool', 5, 2]);
  });

  it('reads from a position, so a name is read without its prefix', () => {
    const cache = new StemCache();
    expect(bagOf(cache, 'mcp__github__list_issues', SPLIT, 5).map(([word]) => word)).toEqual([
      'github',
      'list',
      'issues',
    ]);
  });

  it('stems each distinct word once: shared stems share an id', () => {
    const cache = new StemCache();
    const stems = bagOf(cache, 'issue issues running runs', PLAIN_TOKENIZER).map(([word]) =>
      cache.stemIdOf(cache.findWord(word, hashRange(word, 0, word.length))),
    );
    expect(stems[0]).toBe(stems[1]);
    expect(stems[2]).toBe(stems[3]);
    expect(cache.stemCount).toBe(2);
  });
});
