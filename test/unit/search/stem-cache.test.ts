import { describe, expect, it } from 'vitest';
import { StemCache } from '../../../src/search/stem-cache.js';
import { stem } from '../../../src/search/stemmer.js';
import { hashRange, PLAIN_TOKENIZER } from '../../../src/search/tokenizer.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: false };

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
  });

  it('remembers texts per tokenizer setting', () => {
    const cache = new StemCache();
    const plain = [...cache.wordsOf('createIssue now', PLAIN_TOKENIZER)].map((id) => cache.word(id));
    const split = [...cache.wordsOf('createIssue now', SPLIT)].map((id) => cache.word(id));
    expect(plain).toEqual(['createissue', 'now']);
    expect(split).toEqual(['create', 'issue', 'createissue', 'now']);
    expect(cache.wordsOf('createIssue now', SPLIT)).toBe(cache.wordsOf('createIssue now', SPLIT));
  });
});
