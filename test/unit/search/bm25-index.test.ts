import { describe, expect, it } from 'vitest';
import { Bm25IndexBuilder, ScoreAccumulator } from '../../../src/search/bm25-index.js';

type Doc = string[][];

/** Builds an index from documents given as term lists per field (field i weighs `weights[i]`). */
function build(
  documents: Doc[],
  weights = [1, 1],
  lengthNormalization: 'document' | 'field' = 'document',
  k1 = 1.5,
  b = 0.75,
) {
  const builder = new Bm25IndexBuilder(weights.length);
  for (const fields of documents) {
    fields.forEach((terms, field) => {
      for (const term of terms) builder.add(builder.termId(term), field);
    });
    builder.endDocument();
  }
  return builder.build({ k1, b, fieldWeights: weights, lengthNormalization });
}

describe('Bm25Index', () => {
  // A: alpha beta (dl 2) · B: beta gamma beta (dl 3) · C: delta (dl 1) → N 3, avgdl 2.
  const index = build([[['alpha', 'beta']], [['beta', 'gamma', 'beta']], [['delta']]]);

  it('computes idf as ln(1 + (N − df + 0.5) / (df + 0.5))', () => {
    expect(index.documentFrequency(index.termId('beta'))).toBe(2);
    expect(index.idf(index.termId('beta'))).toBeCloseTo(Math.log(1.6), 12);
    expect(index.idf(index.termId('delta'))).toBeCloseTo(Math.log(1 + 2.5 / 1.5), 12);
    expect(index.termId('missing')).toBe(-1);
    expect(index.documentFrequency(-1)).toBe(0);
  });

  it('scores tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)) times idf, checked by hand', () => {
    const beta = index.termId('beta');
    // A: tf 1, dl 2 → 1·2.5 / (1 + 1.5·1) = 1.
    expect(index.contribution(beta, 0)).toBeCloseTo(Math.log(1.6) * 1, 12);
    // B: tf 2, dl 3 → 2·2.5 / (2 + 1.5·(0.25 + 0.75·1.5)) = 5 / 4.0625.
    expect(index.contribution(beta, 1)).toBeCloseTo(Math.log(1.6) * (5 / 4.0625), 12);
    expect(index.contribution(beta, 2)).toBe(0);
  });

  it('accumulates the same scores over postings, with coverage and gate marks', () => {
    const acc = new ScoreAccumulator(index.documentCount);
    acc.reset();
    index.accumulate(index.termId('beta'), 1, acc, { countsForCoverage: true, isGate: false });
    index.accumulate(index.termId('delta'), 1, acc, { countsForCoverage: true, isGate: true });
    expect(acc.touchedCount).toBe(3);
    expect(acc.scores[1]).toBeCloseTo(index.contribution(index.termId('beta'), 1), 12);
    expect([...acc.coverage]).toEqual([1, 1, 1]);
    expect([0, 1, 2].map((doc) => acc.holdsGate(doc))).toEqual([false, false, true]);
    acc.reset();
    expect(acc.touchedCount).toBe(0);
    expect([0, 1, 2].some((doc) => acc.isTouched(doc) || acc.holdsGate(doc))).toBe(false);
  });

  it('counts a field weight as that many occurrences, in tf and in document length', () => {
    const weighted = build(
      [
        [['x'], []],
        [[], ['x', 'y', 'z']],
      ],
      [3, 1],
    );
    const plain = build([[['x', 'x', 'x']], [['x', 'y', 'z']]], [1]);
    for (const doc of [0, 1]) {
      expect(weighted.contribution(weighted.termId('x'), doc)).toBeCloseTo(
        plain.contribution(plain.termId('x'), doc),
        12,
      );
    }
  });

  it('normalises each field by its own length under BM25F, checked by hand', () => {
    // Field 0 (weight 2): d0 [x], d1 [y] → avg 1. Field 1 (weight 1): d0 [], d1 [x, z, z] → avg 1.5.
    const index = build(
      [
        [['x'], []],
        [['y'], ['x', 'z', 'z']],
      ],
      [2, 1],
      'field',
    );
    const idf = Math.log(1 + (2 - 2 + 0.5) / 2.5);
    // d0: tf~ = 2·1 / (0.25 + 0.75·1/1) = 2. d1: tf~ = 1·1 / (0.25 + 0.75·3/1.5) = 1/1.75.
    const score = (tf: number) => (idf * tf * 2.5) / (tf + 1.5);
    expect(index.contribution(index.termId('x'), 0)).toBeCloseTo(score(2), 12);
    expect(index.contribution(index.termId('x'), 1)).toBeCloseTo(score(1 / 1.75), 12);
  });

  it('gives a field of weight 0 no say at all', () => {
    const index = build(
      [
        [['x'], ['hidden']],
        [['x'], []],
      ],
      [1, 0],
    );
    expect(index.documentFrequency(index.termId('hidden'))).toBe(0);
    expect(index.contribution(index.termId('x'), 0)).toBeCloseTo(
      index.contribution(index.termId('x'), 1),
      12,
    );
  });

  it('floors avgdl at 1 so documents without words do not divide by zero', () => {
    const empty = build([[], [['solo']]]);
    // avgdl 0.5 → 1: the lone word is scored as in a document of average length.
    const idf = Math.log(1 + 1.5 / 1.5);
    expect(empty.contribution(empty.termId('solo'), 1)).toBeCloseTo((idf * 2.5) / (1 + 1.5), 12);
  });
});
