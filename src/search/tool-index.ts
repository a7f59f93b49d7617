import { ToolbridgeError } from '../base/errors.js';
import { type Bm25Index, Bm25IndexBuilder, ScoreAccumulator } from './bm25-index.js';
import { stem } from './stemmer.js';
import { scanWords, type TokenizerOptions, tokenize } from './tokenizer.js';
import { toolDocumentText } from './tool-document.js';
import { TopK } from './top-k.js';
import type {
  Correction,
  IndexEntry,
  MatchExplanation,
  SearchExplanation,
  SearchOptions,
  SearchResult,
  ToolIndex,
} from './types.js';

/** How much one occurrence of a word counts in each part of a tool (1 everywhere = plain BM25). */
export interface FieldWeights {
  /** Words of the tool name (`mcp__github__create_issue` → github, create, issue). */
  name: number;
  /** The server label, when it is not already a name word. */
  server: number;
  description: number;
  /** Top-level parameter names. */
  parameters: number;
  /** Descriptions of the top-level parameters (0 = not indexed). */
  parameterDescriptions: number;
  /** The entry's own `keywords`. */
  keywords: number;
}

/**
 * Which documents a query may return at all, before ranking.
 * - `rarest-term`: only tools holding the query's rarest term (reference §1.4); a word no tool
 *   holds empties the result.
 * - `unknown-name`: a word no tool holds empties the result only when it looks like a name (not a
 *   common English word, nor a typo of a catalog word); common words no tool holds are ignored.
 * - `off`: plain BM25, any tool holding any query term.
 */
export type GateMode = 'rarest-term' | 'unknown-name' | 'off';

/** The relevance floor (reference §1.5): with `fromTerms` or more answerable terms, a match must hold `ceil(fraction × answerable)` of them; otherwise one. */
export interface RelevanceFloor {
  fromTerms: number;
  fraction: number;
}

export interface ToolIndexOptions {
  /**
   * BM25 term-frequency saturation: higher lets repeated words count for more.
   * @defaultValue 1.5
   */
  k1: number;
  /**
   * BM25 length normalisation, 0 (none) to 1 (full): how much long descriptions are penalised.
   * @defaultValue 0.75
   */
  b: number;
  /**
   * Per-field weights. Raise `name` and `server` to prefer tools whose name says what the query
   * says over tools that merely mention it.
   * @defaultValue `{ name: 1, server: 1, description: 1, parameters: 1, parameterDescriptions: 0, keywords: 1 }`
   */
  fieldWeights: Readonly<FieldWeights>;
  /**
   * Split `createIssue` into `create` + `issue` (documents and queries alike).
   * @defaultValue false
   */
  splitCamelCase: boolean;
  /**
   * Split letters from digits: `v2api` → `v` + `2` + `api`.
   * @defaultValue false
   */
  splitLetterDigit: boolean;
  /**
   * Which tools a query may return before ranking; see {@link GateMode}.
   * @defaultValue 'rarest-term'
   */
  gate: GateMode;
  /**
   * Minimum share of the query a match must cover; `null` means one term is enough.
   * @defaultValue `{ fromTerms: 4, fraction: 0.5 }`
   */
  relevanceFloor: Readonly<RelevanceFloor> | null;
  /**
   * Replace a query word no tool holds by a catalog word one edit away (never changing the first
   * letter, only for words of `typoMinLength` letters or more), and say so in `corrections`.
   * @defaultValue false
   */
  typoCorrection: boolean;
  /**
   * Shortest query word that typo correction will touch.
   * @defaultValue 4
   */
  typoMinLength: number;
  /**
   * Groups of interchangeable words (`['create', 'open', 'add']`): a query word also finds tools
   * that use another word of its group, at `synonymWeight` of the score.
   * @defaultValue `[]`
   */
  synonyms: readonly (readonly string[])[];
  /**
   * Share of the score a synonym earns compared with the word itself.
   * @defaultValue 0.5
   */
  synonymWeight: number;
  /**
   * Names returned when `search` is called without a `limit`.
   * @defaultValue 5
   */
  defaultLimit: number;
}

export type ToolIndexOptionsInput = Partial<Omit<ToolIndexOptions, 'fieldWeights'>> & {
  fieldWeights?: Partial<FieldWeights>;
};

/** Defaults: the reference's behaviour. */
export const DEFAULT_TOOL_INDEX_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  k1: 1.5,
  b: 0.75,
  fieldWeights: Object.freeze({
    name: 1,
    server: 1,
    description: 1,
    parameters: 1,
    parameterDescriptions: 0,
    keywords: 1,
  }),
  splitCamelCase: false,
  splitLetterDigit: false,
  gate: 'rarest-term',
  relevanceFloor: Object.freeze({ fromTerms: 4, fraction: 0.5 }),
  typoCorrection: false,
  typoMinLength: 4,
  synonyms: Object.freeze([]),
  synonymWeight: 0.5,
  defaultLimit: 5,
});

export function resolveToolIndexOptions(input: ToolIndexOptionsInput = {}): Readonly<ToolIndexOptions> {
  const options: ToolIndexOptions = {
    ...DEFAULT_TOOL_INDEX_OPTIONS,
    ...stripUndefined(input),
    fieldWeights: { ...DEFAULT_TOOL_INDEX_OPTIONS.fieldWeights, ...stripUndefined(input.fieldWeights ?? {}) },
  };
  validate(options);
  return Object.freeze(options);
}

/** Builds a searchable index over `entries`, kept in the given (catalog) order for ties. */
export function createToolIndex(entries: readonly IndexEntry[], options?: ToolIndexOptionsInput): ToolIndex {
  if (!Array.isArray(entries))
    invalid('entries must be an array of { name, description?, inputSchema?, server? }');
  return new Bm25ToolIndex(entries, resolveToolIndexOptions(options));
}

interface QueryTerm {
  stem: string;
  termId: number;
  boost: number;
  countsForCoverage: boolean;
}

interface QueryPlan {
  stems: string[];
  terms: QueryTerm[];
  answerable: string[];
  gateTermId: number;
  gateToken: string | undefined;
  corrections: Correction[];
  ignoredWords: string[];
  unknownWords: string[];
}

class Bm25ToolIndex implements ToolIndex {
  private readonly names: string[];
  private readonly exactNames = new Map<string, number[]>();
  private readonly bm25: Bm25Index;
  private readonly accumulator: ScoreAccumulator;
  private readonly tokenizer: TokenizerOptions;
  /** Every distinct word of the catalog → its term id (the vocabulary typo correction searches). */
  private readonly words = new Map<string, number>();

  constructor(
    entries: readonly IndexEntry[],
    private readonly options: Readonly<ToolIndexOptions>,
  ) {
    this.tokenizer = { splitCamelCase: options.splitCamelCase, splitLetterDigit: options.splitLetterDigit };
    const builder = new Bm25IndexBuilder();
    const weights = options.fieldWeights;
    // Each distinct word is stemmed and looked up once.
    let weight = 0;
    const addWord = (word: string): void => {
      let termId = this.words.get(word);
      if (termId === undefined) {
        termId = builder.termId(stem(word));
        this.words.set(word, termId);
      }
      builder.add(termId, weight);
    };
    const addField = (value: string, fieldWeight: number): void => {
      if (fieldWeight === 0 || value === '') return;
      weight = fieldWeight;
      scanWords(value, this.tokenizer, addWord);
    };
    this.names = entries.map((entry, index) => {
      if (typeof entry?.name !== 'string' || entry.name.trim() === '') {
        invalid(`entries[${index}].name must be a non-empty string (the tool's full agent-facing name)`);
      }
      const text = toolDocumentText(entry, weights.parameterDescriptions > 0);
      addField(text.name, weights.name);
      addField(text.server, weights.server);
      addField(text.description, weights.description);
      for (const parameter of text.parameters) addField(parameter, weights.parameters);
      addField(text.parameterDescriptions, weights.parameterDescriptions);
      addField(text.keywords, weights.keywords);
      builder.endDocument();
      const key = entry.name.trim().toLowerCase();
      const same = this.exactNames.get(key);
      if (same === undefined) this.exactNames.set(key, [index]);
      else same.push(index);
      return entry.name;
    });
    this.bm25 = builder.build({ k1: options.k1, b: options.b });
    this.accumulator = new ScoreAccumulator(this.names.length);
  }

  get size(): number {
    return this.names.length;
  }

  search(query: string, searchOptions: SearchOptions = {}): SearchResult {
    const limit = this.limitOf(searchOptions.limit);
    const text = typeof query === 'string' ? query : '';
    const words = tokenize(text, this.tokenizer);
    if (words.length === 0 || this.size === 0 || limit <= 0) {
      return searchOptions.explain ? { matches: [], explanation: emptyExplanation(text) } : { matches: [] };
    }
    const plan = this.plan(words);
    const exact = this.exactNames.get(text.trim().toLowerCase()) ?? [];
    const required = this.requiredCoverage(plan.answerable.length);
    const blocked = plan.unknownWords.length > 0 || (plan.gateToken !== undefined && plan.gateTermId < 0);
    const top = this.rank(plan, required, blocked ? [] : plan.terms, exact, limit);
    const result: SearchResult = { matches: top.docs.map((doc) => this.names[doc]!) };
    if (plan.corrections.length > 0) result.corrections = plan.corrections;
    if (plan.unknownWords.length > 0) {
      result.unknownWords = plan.unknownWords;
      if (result.matches.length === 0) {
        const guess = this.rank(plan, required, plan.terms, [], limit);
        result.didYouMean = guess.docs.map((doc) => this.names[doc]!);
      }
    }
    if (searchOptions.explain) result.explanation = this.explain(text, plan, required, top, exact);
    return result;
  }

  private limitOf(limit: number | undefined): number {
    if (limit === undefined || limit === null) return this.options.defaultLimit;
    if (typeof limit !== 'number' || Number.isNaN(limit)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `search: option "limit" must be a number, got ${String(limit)}.`,
      );
    }
    return Math.floor(limit);
  }

  /** Reads the query: terms to score, the gate, and (by gate mode) corrections and unknown words. */
  private plan(words: readonly string[]): QueryPlan {
    const stems = words.map(stem);
    const plan: QueryPlan = {
      stems,
      terms: [],
      answerable: [],
      gateTermId: -1,
      gateToken: undefined,
      corrections: [],
      ignoredWords: [],
      unknownWords: [],
    };
    const seen = new Set<string>();
    for (const term of stems) {
      const termId = this.bm25.termId(term);
      const first = !seen.has(term);
      seen.add(term);
      if (termId < 0) continue;
      if (first) plan.answerable.push(term);
      plan.terms.push({ stem: term, termId, boost: 1, countsForCoverage: first });
    }
    if (this.options.gate === 'rarest-term') {
      // Lowest df wins; ties go to the first in query order (a df-0 term beats every other).
      let best = 0;
      for (let i = 1; i < stems.length; i++) {
        const df = this.bm25.documentFrequency(this.bm25.termId(stems[i]!));
        if (df < this.bm25.documentFrequency(this.bm25.termId(stems[best]!))) best = i;
      }
      plan.gateToken = stems[best]!;
      plan.gateTermId = this.bm25.termId(plan.gateToken);
    }
    return plan;
  }

  private requiredCoverage(answerable: number): number {
    const floor = this.options.relevanceFloor;
    if (floor === null || answerable < floor.fromTerms) return 1;
    return Math.ceil(answerable * floor.fraction);
  }

  private rank(
    plan: QueryPlan,
    required: number,
    terms: readonly QueryTerm[],
    exact: readonly number[],
    limit: number,
  ): TopK {
    const acc = this.accumulator;
    acc.reset();
    for (const term of terms) {
      this.bm25.accumulate(term.termId, term.boost, acc, {
        countsForCoverage: term.countsForCoverage,
        isGate: term.termId === plan.gateTermId,
      });
    }
    const gated = plan.gateToken !== undefined;
    const top = new TopK(limit);
    for (let i = 0; i < acc.touchedCount; i++) {
      const doc = acc.touched[i]!;
      if (acc.coverage[doc]! < required || (gated && !acc.holdsGate(doc))) continue;
      if (exact.length > 0 && exact.includes(doc)) continue;
      top.offer(doc, acc.scores[doc]!);
    }
    for (const doc of exact) top.offer(doc, Number.POSITIVE_INFINITY);
    return top;
  }

  private explain(
    query: string,
    plan: QueryPlan,
    required: number,
    top: TopK,
    exact: readonly number[],
  ): SearchExplanation {
    const matches = top.docs.map((doc): MatchExplanation => {
      const terms: Record<string, number> = {};
      let score = 0;
      let coverage = 0;
      for (const term of plan.terms) {
        const share = this.bm25.contribution(term.termId, doc, term.boost);
        if (share === 0) continue;
        terms[term.stem] = (terms[term.stem] ?? 0) + share;
        score += share;
        if (term.countsForCoverage) coverage += 1;
      }
      return { name: this.names[doc]!, score, exactName: exact.includes(doc), coverage, terms };
    });
    const explanation: SearchExplanation = {
      query,
      terms: plan.stems,
      answerableTerms: plan.answerable,
      requiredCoverage: required,
      corrections: plan.corrections,
      ignoredWords: plan.ignoredWords,
      unknownWords: plan.unknownWords,
      matches,
    };
    if (plan.gateToken !== undefined) explanation.gateToken = plan.gateToken;
    return explanation;
  }
}

function emptyExplanation(query: string): SearchExplanation {
  return {
    query,
    terms: [],
    answerableTerms: [],
    requiredCoverage: 1,
    corrections: [],
    ignoredWords: [],
    unknownWords: [],
    matches: [],
  };
}

function validate(options: ToolIndexOptions): void {
  positive('k1', options.k1);
  if (!(options.b >= 0 && options.b <= 1)) invalid('option "b" must be between 0 and 1');
  for (const [field, weight] of Object.entries(options.fieldWeights)) {
    if (!(typeof weight === 'number' && weight >= 0 && Number.isFinite(weight))) {
      invalid(`option "fieldWeights.${field}" must be a number ≥ 0`);
    }
  }
  if (!['rarest-term', 'unknown-name', 'off'].includes(options.gate)) {
    invalid('option "gate" must be "rarest-term", "unknown-name" or "off"');
  }
  const floor = options.relevanceFloor;
  if (floor !== null) {
    if (!(Number.isInteger(floor.fromTerms) && floor.fromTerms >= 1)) {
      invalid('option "relevanceFloor.fromTerms" must be an integer ≥ 1');
    }
    if (!(floor.fraction > 0 && floor.fraction <= 1))
      invalid('option "relevanceFloor.fraction" must be in (0, 1]');
  }
  if (!(Number.isInteger(options.typoMinLength) && options.typoMinLength >= 2)) {
    invalid('option "typoMinLength" must be an integer ≥ 2');
  }
  if (!Array.isArray(options.synonyms) || !options.synonyms.every((group) => Array.isArray(group))) {
    invalid('option "synonyms" must be an array of word groups (arrays of strings)');
  }
  if (!(options.synonymWeight >= 0 && options.synonymWeight <= 1))
    invalid('option "synonymWeight" must be in [0, 1]');
  if (!(Number.isInteger(options.defaultLimit) && options.defaultLimit >= 1)) {
    invalid('option "defaultLimit" must be an integer ≥ 1');
  }
}

function positive(name: string, value: number): void {
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
    invalid(`option "${name}" must be > 0`);
}

function invalid(problem: string): never {
  throw new ToolbridgeError('INVALID_ARGUMENT', `createToolIndex: ${problem}.`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
