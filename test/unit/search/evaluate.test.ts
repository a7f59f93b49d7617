import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { evaluateIndex } from '../../../src/search/evaluate.js';
import type { SearchOptions, SearchResult, ToolIndex } from '../../../src/search/types.js';

/** An index that answers from a fixed table, so every metric can be worked out by hand. */
function fixedIndex(answers: Record<string, string[]>): ToolIndex {
  return {
    size: 100,
    search(query: string, options: SearchOptions = {}): SearchResult {
      return { matches: (answers[query] ?? []).slice(0, options.limit ?? 5) };
    },
  };
}

const index = fixedIndex({
  q1: ['a', 'b', 'c'],
  q2: ['x', 'y', 'z', 'w', 'v', 'target'],
  q3: [],
  q4: ['b', 'a'],
  neg: ['noise'],
});

describe('evaluateIndex', () => {
  const report = evaluateIndex(
    index,
    [
      { id: '1', query: 'q1', style: 'keyword', relevant: ['a', 'c', 'missing'] },
      { id: '2', query: 'q2', style: 'natural', relevant: ['target'] },
      { id: '3', query: 'q3', style: 'natural', relevant: ['a'] },
      { id: '4', query: 'q4', style: 'keyword', relevant: ['a'] },
      { id: 'n', query: 'neg', style: 'negative', relevant: [] },
    ],
    { k: 5 },
  );

  it('computes hit@1, recall@k, hit@k and MRR@10 over judged queries', () => {
    expect(report.overall.queries).toBe(5);
    expect(report.overall.judged).toBe(4);
    // recall: 2/3, 0 (rank 6 > k), 0, 1 → mean 5/12.
    expect(report.overall.recallAtK).toBeCloseTo(5 / 12, 12);
    expect(report.overall.hitAtK).toBeCloseTo(2 / 4, 12);
    // first match relevant: q1 only.
    expect(report.overall.hitAt1).toBeCloseTo(1 / 4, 12);
    // reciprocal ranks: 1, 1/6, 0, 1/2.
    expect(report.overall.mrrAt10).toBeCloseTo((1 + 1 / 6 + 0 + 1 / 2) / 4, 12);
  });

  it('counts empty answers over all queries, judged or not', () => {
    expect(report.overall.emptyRate).toBeCloseTo(1 / 5, 12);
    expect(report.byStyle.negative).toMatchObject({ queries: 1, judged: 0, emptyRate: 0 });
  });

  it('reports each style on its own', () => {
    expect(Object.keys(report.byStyle)).toEqual(['keyword', 'natural', 'negative']);
    expect(report.byStyle.keyword?.hitAtK).toBe(1);
    expect(report.byStyle.natural).toMatchObject({ judged: 2, hitAtK: 0, emptyRate: 0.5 });
  });

  it('lists misses with where each relevant tool ranked', () => {
    expect(report.misses.map((miss) => miss.id)).toEqual(['2', '3']);
    expect(report.misses[0]).toMatchObject({
      matches: ['x', 'y', 'z', 'w', 'v'],
      relevantRanks: { target: 6 },
    });
    expect(report.misses[1]?.relevantRanks).toEqual({ a: null });
  });

  it('rejects a k below 1', () => {
    expect(() => evaluateIndex(index, [], { k: 0 })).toThrow(ToolbridgeError);
  });
});
