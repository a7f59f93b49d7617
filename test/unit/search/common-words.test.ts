import { describe, expect, it } from 'vitest';
import { englishWordsLoaded, isEnglishWord } from '../../../src/search/node/common-words.js';

describe('isEnglishWord', () => {
  it('reads the word lists only when first asked', () => {
    expect(englishWordsLoaded()).toBe(false);
    expect(isEnglishWord('please')).toBe(true);
    expect(englishWordsLoaded()).toBe(true);
  });

  it('knows dictionary words, and names common in everyday speech, whatever their case in the lists', () => {
    for (const word of [
      'tomorrow',
      'smartphone',
      'middleware',
      'london',
      'friday',
      'picasso',
      'aardvark',
      'zzzs',
    ]) {
      expect(isEnglishWord(word), word).toBe(true);
    }
  });

  it('does not know product names or made-up words', () => {
    for (const word of ['jira', 'hubspot', 'zendesk', 'qwzxv', 'issuee', 'aa1']) {
      expect(isEnglishWord(word), word).toBe(false);
    }
  });
});
