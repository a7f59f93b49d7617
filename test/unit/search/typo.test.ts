import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { correctWord, isOneEditAway } from '../../../src/search/typo.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Every string one edit from `word` that keeps its first letter, spelled out (the definition). */
function editsKeepingFirstLetter(word: string): Set<string> {
  const edits = new Set<string>();
  for (let i = 1; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail !== '') edits.add(head + tail.slice(1));
    if (tail.length >= 2) edits.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (tail !== '' && letter !== tail[0]) edits.add(head + letter + tail.slice(1));
      edits.add(head + letter + tail);
    }
  }
  edits.delete(word);
  return edits;
}

describe('isOneEditAway', () => {
  it('accepts deletions, insertions, replacements and swaps after the first letter', () => {
    for (const edit of ['ise', 'issue', 'isie', 'iuse', 'isuel'])
      expect(isOneEditAway('isue', edit)).toBe(true);
    for (const other of ['sue', 'isue', 'ssue', 'iseu2', 'issues', 'x'])
      expect(isOneEditAway('isue', other)).toBe(false);
  });

  it('agrees with spelling out every edit (property)', () => {
    const word = fc.stringMatching(/^[a-c0]{1,6}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(isOneEditAway(a, b)).toBe(editsKeepingFirstLetter(a).has(b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('correctWord', () => {
  it('picks the most preferred candidate one edit away, then the alphabetically first', () => {
    const vocabulary = ['issue', 'tissue', 'isle', 'issues'];
    const preference = (word: string) => (word === 'issue' ? 5 : 1);
    expect(correctWord('isue', vocabulary, preference)).toBe('issue');
    expect(correctWord('isue', vocabulary, () => 1)).toBe('isle');
    expect(correctWord('xyz', vocabulary, () => 1)).toBeUndefined();
  });

  it('skips candidates whose preference is −∞', () => {
    expect(correctWord('isue', ['isle'], () => Number.NEGATIVE_INFINITY)).toBeUndefined();
  });
});
