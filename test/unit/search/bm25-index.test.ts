import { describe, expect, it } from 'vitest';
import {
  Bm25Index,
  type Bm25Parameters,
  ScoreAccumulator,
  SegmentBuilder,
} from '../../../src/search/bm25-index.js';

type Doc = string[][];

/** An index over documents given as term lists per field, with its term ids by name. */
interface Built {
  index: Bm25Index;
  termId(term: string): number;
}

/**
 * A segment over `documents` from document `firstDoc`: terms get local ids in `ids` as first
 * seen, and `termIndex` (when given) maps index-wide ids to those.
 */
function segment(
  documents: Doc[],
  parameters: Bm25Parameters,
  ids: Map<string, number>,
  firstDoc = 0,
  termIndex: ReadonlyMap<number, number> | null = null,
) {
  const builder = new SegmentBuilder(parameters.fieldWeights.length, parameters, documents.length);
  for (const fields of documents) {
    fields.forEach((terms, field) => {
      for (const term of terms) {
        if (!ids.has(term)) ids.set(term, ids.size);
        builder.add(ids.get(term)!, field, 1);
      }
    });
    builder.endDocument();
  }
  return builder.build(firstDoc, termIndex);
}

/** Builds an index from documents given as term lists per field (field i weighs `weights[i]`). */
function build(
  documents: Doc[],
  weights = [1, 1],
  lengthNormalization: 'document' | 'field' = 'document',
  k1 = 1.5,
  b = 0.75,
): Built {
  const parameters = { k1, b, fieldWeights: weights, lengthNormalization };
  const ids = new Map<string, number>();
  const index = new Bm25Index([segment(documents, parameters, ids)], parameters);
  return { index, termId: (term) => ids.get(term) ?? -1 };
}

describe('Bm25Index', () => {
  // A: alpha beta (dl 2) · B: beta gamma beta (dl 3) · C: delta (dl 1) → N 3, avgdl 2.
  const { index, termId } = build([[['alpha', 'beta']], [['beta', 'gamma', 'beta']], [['delta']]]);

  it('computes idf as ln(1 + (N − df + 0.5) / (df + 0.5))', () => {
    expect(index.documentFrequency(termId('beta'))).toBe(2);
    expect(index.idf(termId('beta'))).toBeCloseTo(Math.log(1.6), 12);
    expect(index.idf(termId('delta'))).toBeCloseTo(Math.log(1 + 2.5 / 1.5), 12);
    expect(termId('missing')).toBe(-1);
    expect(index.documentFrequency(-1)).toBe(0);
  });

  it('scores tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)) times idf, checked by hand', () => {
    const beta = termId('beta');
    // A: tf 1, dl 2 → 1·2.5 / (1 + 1.5·1) = 1.
    expect(index.contribution(beta, 0)).toBeCloseTo(Math.log(1.6) * 1, 12);
    // B: tf 2, dl 3 → 2·2.5 / (2 + 1.5·(0.25 + 0.75·1.5)) = 5 / 4.0625.
    expect(index.contribution(beta, 1)).toBeCloseTo(Math.log(1.6) * (5 / 4.0625), 12);
    expect(index.contribution(beta, 2)).toBe(0);
  });

  it('accumulates the same scores over postings, with coverage and gate marks', () => {
    const acc = new ScoreAccumulator(index.documentCount);
    acc.reset();
    index.accumulate(termId('beta'), 1, acc, { countsForCoverage: true, isGate: false });
    index.accumulate(termId('delta'), 1, acc, { countsForCoverage: true, isGate: true });
    expect(acc.touchedCount).toBe(3);
    expect(acc.scores[1]).toBeCloseTo(index.contribution(termId('beta'), 1), 12);
    expect([...acc.coverage]).toEqual([1, 1, 1]);
    expect([0, 1, 2].map((doc) => acc.holdsGate(doc))).toEqual([false, false, true]);
    acc.reset();
    expect(acc.touchedCount).toBe(0);
    expect([0, 1, 2].some((doc) => acc.isTouched(doc) || acc.holdsGate(doc))).toBe(false);
  });

  it('adds a term only to the documents already reached, by walking or by looking them up', () => {
    // 40 documents hold `common`; `rare` reaches a few: few enough to look up, or enough to walk.
    const documents: Doc[] = Array.from({ length: 40 }, (_, doc) => [
      ['common', ...(doc % 3 === 0 ? ['rare'] : []), ...(doc === 7 ? ['one'] : [])],
    ]);
    const built = build(documents);
    for (const first of ['one', 'rare']) {
      const acc = new ScoreAccumulator(40);
      acc.reset();
      built.index.accumulate(built.termId(first), 1, acc, { countsForCoverage: true, isGate: false });
      built.index.accumulateTouched(built.termId('common'), 0.5, acc, {
        countsForCoverage: true,
        isGate: true,
      });
      const reached = [...acc.touched.subarray(0, acc.touchedCount)];
      expect(reached.length).toBe(first === 'one' ? 1 : 14);
      for (const doc of reached) {
        const expected =
          built.index.contribution(built.termId(first), doc) +
          built.index.contribution(built.termId('common'), doc, 0.5);
        expect(acc.scores[doc]).toBe(expected);
        expect(acc.coverage[doc]).toBe(2);
        expect(acc.holdsGate(doc)).toBe(true);
      }
      expect(acc.maxScore).toBe(Math.max(...reached.map((doc) => acc.scores[doc]!)));
    }
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
      expect(weighted.index.contribution(weighted.termId('x'), doc)).toBeCloseTo(
        plain.index.contribution(plain.termId('x'), doc),
        12,
      );
    }
  });

  it('normalises each field by its own length under BM25F, checked by hand', () => {
    // Field 0 (weight 2): d0 [x], d1 [y] → avg 1. Field 1 (weight 1): d0 [], d1 [x, z, z] → avg 1.5.
    const { index, termId } = build(
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
    expect(index.contribution(termId('x'), 0)).toBeCloseTo(score(2), 12);
    expect(index.contribution(termId('x'), 1)).toBeCloseTo(score(1 / 1.75), 12);
  });

  it('gives a field of weight 0 no say at all', () => {
    const { index, termId } = build(
      [
        [['x'], ['hidden']],
        [['x'], []],
      ],
      [1, 0],
    );
    expect(index.documentFrequency(termId('hidden'))).toBe(0);
    expect(index.contribution(termId('x'), 0)).toBe(index.contribution(termId('x'), 1));
  });

  it('floors avgdl at 1 so documents without words do not divide by zero', () => {
    const empty = build([[], [['solo']]]);
    // avgdl 0.5 → 1: the lone word is scored as in a document of average length.
    const idf = Math.log(1 + 1.5 / 1.5);
    expect(empty.index.contribution(empty.termId('solo'), 1)).toBeCloseTo((idf * 2.5) / (1 + 1.5), 12);
  });

  it('bounds each term by its best contribution to any document', () => {
    const beta = termId('beta');
    expect(index.maxContribution(beta)).toBe(
      Math.max(index.contribution(beta, 0), index.contribution(beta, 1)),
    );
    expect(index.maxContribution(-1)).toBe(0);
  });
});

describe('Bm25Index.extend', () => {
  const parameters: Bm25Parameters = {
    k1: 1.5,
    b: 0.75,
    fieldWeights: [1, 2],
    lengthNormalization: 'document',
  };
  const first: Doc[] = [[['alpha', 'beta']], [['beta', 'gamma', 'beta'], ['gamma']], [['delta']]];
  const more: Doc[] = [[['beta'], ['epsilon']], [['alpha', 'alpha', 'zeta']]];

  it('scores exactly as one index built over all the documents', () => {
    const ids = new Map<string, number>();
    const whole = new Bm25Index([segment([...first, ...more], parameters, ids)], parameters);
    // The base numbers its terms as the whole index does (first sight); the extension numbers its
    // own from 0 and maps the index-wide ids onto them.
    const base = new Bm25Index([segment(first, parameters, new Map())], parameters);
    const local = new Map<string, number>();
    for (const fields of more)
      for (const terms of fields) for (const term of terms) if (!local.has(term)) local.set(term, local.size);
    const termIndex = new Map([...local].map(([term, id]) => [ids.get(term)!, id]));
    const extended = base.extend(segment(more, parameters, new Map(local), first.length, termIndex));

    expect(extended.documentCount).toBe(5);
    for (const id of ids.values()) {
      expect(extended.documentFrequency(id)).toBe(whole.documentFrequency(id));
      expect(extended.idf(id)).toBe(whole.idf(id));
      expect(extended.maxContribution(id)).toBe(whole.maxContribution(id));
      for (let doc = 0; doc < 5; doc++)
        expect(extended.contribution(id, doc)).toBe(whole.contribution(id, doc));
    }
    const acc = new ScoreAccumulator(0);
    acc.reset(5);
    extended.accumulate(ids.get('alpha')!, 1, acc, { countsForCoverage: true, isGate: false });
    expect([...acc.touched.subarray(0, acc.touchedCount)]).toEqual([0, 4]);
    // The base is left as it was.
    expect(base.documentCount).toBe(3);
    expect(base.documentFrequency(ids.get('beta')!)).toBe(2);
  });
});
