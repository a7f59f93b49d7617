import { ToolbridgeError } from '../base/errors.js';
import type { SearchExplanation, ToolIndex } from './types.js';

/** One judged query. `relevant` holds full tool names as the index knows them; empty = nothing should match. */
export interface EvalQuery {
  id: string;
  query: string;
  /** Free-form group (`keyword`, `natural`, …); metrics are also reported per style. */
  style?: string;
  relevant: readonly string[];
}

export interface EvaluateOptions {
  /** Cut-off for recall@k and hit@k. @defaultValue 5 */
  k?: number;
  /** Attach the engine's explanation to each miss (slower). @defaultValue false */
  explainMisses?: boolean;
}

export interface EvalMetrics {
  /** Queries in the group. */
  queries: number;
  /** Queries with at least one relevant tool (recall, hit and MRR average over these). */
  judged: number;
  /** Share of judged queries whose first match is relevant. */
  hitAt1: number;
  /** Mean share of a query's relevant tools found in the top k. */
  recallAtK: number;
  /** Share of judged queries with at least one relevant tool in the top k. */
  hitAtK: number;
  /** Mean of 1 / rank of the first relevant tool within the top 10 (0 when none). */
  mrrAt10: number;
  /** Share of queries (judged or not) that returned no match at all. */
  emptyRate: number;
}

/** A judged query with no relevant tool in the top k. */
export interface EvalMiss {
  id: string;
  query: string;
  style?: string;
  relevant: string[];
  /** What the engine returned (top k). */
  matches: string[];
  /** Rank (1-based) of each relevant tool within the first 50 results, or null if further down or never admitted. */
  relevantRanks: Record<string, number | null>;
  /** Words the engine corrected, ignored or stopped on, and the scores of the top matches. */
  explanation?: SearchExplanation;
}

export interface EvalReport {
  k: number;
  overall: EvalMetrics;
  byStyle: Record<string, EvalMetrics>;
  misses: EvalMiss[];
}

const MRR_DEPTH = 10;
const MISS_DEPTH = 50;

interface Outcome {
  style: string | undefined;
  judged: boolean;
  recall: number;
  hit: boolean;
  first: boolean;
  reciprocalRank: number;
  empty: boolean;
}

/** Runs every query against `index` and scores the results against `relevant`. */
export function evaluateIndex(
  index: ToolIndex,
  queries: readonly EvalQuery[],
  options: EvaluateOptions = {},
): EvalReport {
  const k = options.k ?? 5;
  if (!(Number.isInteger(k) && k >= 1)) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `evaluateIndex: option "k" must be an integer ≥ 1, got ${k}.`,
    );
  }
  const outcomes: Outcome[] = [];
  const misses: EvalMiss[] = [];
  for (const query of queries) {
    const relevant = new Set(query.relevant);
    const ranked = index.search(query.query, { limit: Math.max(k, MRR_DEPTH) }).matches;
    const topK = ranked.slice(0, k);
    const found = topK.filter((name) => relevant.has(name)).length;
    const firstRelevant = ranked.findIndex((name) => relevant.has(name));
    const outcome: Outcome = {
      style: query.style,
      judged: relevant.size > 0,
      recall: relevant.size > 0 ? found / relevant.size : 0,
      hit: found > 0,
      first: firstRelevant === 0,
      reciprocalRank: firstRelevant >= 0 && firstRelevant < MRR_DEPTH ? 1 / (firstRelevant + 1) : 0,
      empty: ranked.length === 0,
    };
    outcomes.push(outcome);
    if (outcome.judged && !outcome.hit)
      misses.push(describeMiss(index, query, topK, options.explainMisses ?? false));
  }
  const byStyle: Record<string, EvalMetrics> = {};
  const styles = [
    ...new Set(outcomes.map((outcome) => outcome.style).filter((style) => style !== undefined)),
  ];
  for (const style of styles.sort()) byStyle[style] = summarise(outcomes.filter((o) => o.style === style));
  return { k, overall: summarise(outcomes), byStyle, misses };
}

function describeMiss(index: ToolIndex, query: EvalQuery, matches: string[], explain: boolean): EvalMiss {
  const deep = index.search(query.query, { limit: MISS_DEPTH, explain });
  const relevantRanks: Record<string, number | null> = {};
  for (const name of query.relevant) {
    const at = deep.matches.indexOf(name);
    relevantRanks[name] = at >= 0 ? at + 1 : null;
  }
  const miss: EvalMiss = {
    id: query.id,
    query: query.query,
    relevant: [...query.relevant],
    matches,
    relevantRanks,
  };
  if (query.style !== undefined) miss.style = query.style;
  if (deep.explanation !== undefined) {
    miss.explanation = { ...deep.explanation, matches: deep.explanation.matches.slice(0, matches.length) };
  }
  return miss;
}

function summarise(outcomes: readonly Outcome[]): EvalMetrics {
  const judged = outcomes.filter((outcome) => outcome.judged);
  const mean = (values: number[]): number =>
    values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    queries: outcomes.length,
    judged: judged.length,
    hitAt1: mean(judged.map((o) => (o.first ? 1 : 0))),
    recallAtK: mean(judged.map((o) => o.recall)),
    hitAtK: mean(judged.map((o) => (o.hit ? 1 : 0))),
    mrrAt10: mean(judged.map((o) => o.reciprocalRank)),
    emptyRate: mean(outcomes.map((o) => (o.empty ? 1 : 0))),
  };
}

/** A query with a typo, and the same query spelled right. */
export interface TypoQuery {
  id: string;
  /** The mistyped query. */
  query: string;
  /** The query as it should have been typed. */
  clean: string;
  relevant: readonly string[];
}

export interface TypoReport {
  /** Typo queries whose clean form finds a relevant tool in the top k (the ones that can count). */
  cleanHits: number;
  /** Share of those whose mistyped form still finds one. */
  hitRate: number;
  /** Share of those whose response names a correction. */
  correctedRate: number;
}

/** How well typos are survived: among queries found when spelled right, how many still are. */
export function evaluateTypos(index: ToolIndex, queries: readonly TypoQuery[], k = 5): TypoReport {
  let cleanHits = 0;
  let typoHits = 0;
  let corrected = 0;
  for (const query of queries) {
    const relevant = new Set(query.relevant);
    const found = (matches: string[]) => matches.slice(0, k).some((name) => relevant.has(name));
    if (!found(index.search(query.clean, { limit: k }).matches)) continue;
    cleanHits += 1;
    const result = index.search(query.query, { limit: k });
    if (found(result.matches)) typoHits += 1;
    if ((result.corrections?.length ?? 0) > 0) corrected += 1;
  }
  return {
    cleanHits,
    hitRate: cleanHits === 0 ? 0 : typoHits / cleanHits,
    correctedRate: cleanHits === 0 ? 0 : corrected / cleanHits,
  };
}
