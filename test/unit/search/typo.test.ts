import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { correctWord, editsKeepingFirstLetter } from '../../../src/search/typo.js';

describe('editsKeepingFirstLetter', () => {
  it('covers deletions, insertions, replacements and swaps after the first letter', () => {
    const edits = editsKeepingFirstLetter('isue');
    for (const edit of ['ise', 'issue', 'isie', 'iuse']) expect(edits.has(edit)).toBe(true);
    expect(edits.has('sue')).toBe(false);
    expect(edits.has('isue')).toBe(false);
  });

  it('keeps the first letter and changes the length by at most one (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}$/), (word) => {
        for (const edit of editsKeepingFirstLetter(word)) {
          expect(edit[0]).toBe(word[0]);
          expect(Math.abs(edit.length - word.length)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});

describe('correctWord', () => {
  it('picks the most preferred candidate, then the alphabetically first', () => {
    const vocabulary = new Set(['issue', 'tissue', 'isle', 'issues']);
    const preference = (word: string) => (word === 'issue' ? 5 : 1);
    expect(correctWord('isue', vocabulary, preference)).toBe('issue');
    expect(correctWord('isue', vocabulary, () => 1)).toBe('isle');
    expect(correctWord('xyz', vocabulary, () => 1)).toBeUndefined();
  });

  it('skips candidates whose preference is −∞', () => {
    expect(correctWord('isue', new Set(['isle']), () => Number.NEGATIVE_INFINITY)).toBeUndefined();
  });
});
