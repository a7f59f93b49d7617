import { describe, expect, it } from 'vitest';
import { StemCache } from '../../../src/search/stem-cache.js';
import { stem } from '../../../src/search/stemmer.js';
import { hashRange, PLAIN_TOKENIZER } from '../../../src/search/tokenizer.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: false };

/** The last bag read, as words and counts. */
function bagOf(cache: StemCache): Array<[string, number]> {
  const pairs: Array<[string, number]> = [];
  for (let i = 0; i < cache.bagLength; i += 2) pairs.push([cache.word(cache.bag[i]!), cache.bag[i + 1]!]);
  return pairs;
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

  it('reads a text as a bag: each word once with its count, in order of first appearance', () => {
    const cache = new StemCache();
    cache.readBag('Create an issue, then createIssue again: issue!', 0, SPLIT);
    expect(bagOf(cache)).toEqual([
      ['create', 2],
      ['an', 1],
      ['issue', 3],
      ['then', 1],
      ['createissue', 1],
      ['again', 1],
    ]);
    cache.readBag('createIssue now', 0, PLAIN_TOKENIZER);
    expect(bagOf(cache)).toEqual([
      ['createissue', 1],
      ['now', 1],
    ]);
  });

  it('reads from a position, so a name is read without its prefix', () => {
    const cache = new StemCache();
    cache.readBag('mcp__github__list_issues', 5, SPLIT);
    expect(bagOf(cache).map(([word]) => word)).toEqual(['github', 'list', 'issues']);
  });

  it('stems each distinct word once: shared stems share an id', () => {
    const cache = new StemCache();
    cache.readBag('issue issues running runs', 0, PLAIN_TOKENIZER);
    const stems = bagOf(cache).map(([word]) =>
      cache.stemIdOf(cache.findWord(word, hashRange(word, 0, word.length))),
    );
    expect(stems[0]).toBe(stems[1]);
    expect(stems[2]).toBe(stems[3]);
    expect(cache.stemCount).toBe(2);
  });
});
