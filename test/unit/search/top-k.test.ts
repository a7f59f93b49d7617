import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK } from '../../../src/search/top-k.js';

describe('TopK', () => {
  it('keeps the k best, ties in document order', () => {
    const top = new TopK(3);
    for (const [doc, score] of [
      [4, 1],
      [2, 5],
      [7, 5],
      [1, 1],
      [3, 9],
      [0, 5],
    ] as const)
      top.offer(doc, score);
    expect(top.ranked()).toEqual({ docs: [3, 0, 2], scores: [9, 5, 5] });
    expect(top.threshold).toBe(5);
    expect(new TopK(2).threshold).toBe(Number.NEGATIVE_INFINITY);
  });

  it('equals a stable sort by descending score, whatever the offer order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(50), { minLength: 0, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        (docs, scores, k) => {
          const top = new TopK(k);
          for (const doc of docs) top.offer(doc, scores[doc % 40]!);
          const expected = [...docs]
            .sort((a, b) => a - b)
            .sort((a, b) => scores[b % 40]! - scores[a % 40]!)
            .slice(0, k);
          expect(top.ranked().docs).toEqual(expected);
        },
      ),
    );
  });
});
