import { ToolbridgeError } from '../base/errors.js';
import { type AccumulateFlags, type Bm25Index, ScoreAccumulator } from './bm25-index.js';
import type { ToolIndexOptions, ToolIndexOptionsInput } from './options.js';
import { HERMES_OPTIONS } from './presets.js';
import type { QueryPlan, QueryReader, QueryReaderSettings, QueryTerm } from './reading.js';
import { stem } from './stemmer.js';
import { type TokenizerOptions, tokenize, tokenizeRuns } from './tokenizer.js';
import { type CorpusSettings, FIELDS, NameQuery, serverIdWords, ToolCorpus } from './tool-corpus.js';
import { type Ranked, sortRanked, TopK } from './top-k.js';
import type {
  ExtendableToolIndex,
  IndexEntry,
  MatchExplanation,
  SearchExplanation,
  SearchOptions,
  SearchResult,
} from './types.js';

/**
 * The default engine: the reference's BM25 with the changes the quality bench measured as wins
 * (docs/readme/engine.md); everything not named here is as the reference has it.
 */
export const DEFAULT_TOOL_INDEX_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  ...HERMES_OPTIONS,
  // A parameter's description says in plain words what the tool works on, as a paraphrase does.
  fieldWeights: Object.freeze({ ...HERMES_OPTIONS.fieldWeights, parameterDescriptions: 0.5 }),
  splitCamelCase: true,
  gate: 'unknown-name',
  serviceNames: Object.freeze([]),
  knownApps: true,
  relevanceFloor: null,
  commonWordZipf: 6,
  relatedWords: true,
  nameBridgeWeight: 0.15,
  countRepeatedTerms: false,
  maxPerServer: 3,
  nameMatchBoost: 1,
  wordCoverageBoost: 0.5,
  typoCorrection: true,
});

/** Merges `input` over the defaults and validates the result (INVALID_ARGUMENT on a bad value). */
export function resolveToolIndexOptions(input: ToolIndexOptionsInput = {}): Readonly<ToolIndexOptions> {
  const options: ToolIndexOptions = {
    ...DEFAULT_TOOL_INDEX_OPTIONS,
    ...stripUndefined(input),
    fieldWeights: Object.freeze({
      ...DEFAULT_TOOL_INDEX_OPTIONS.fieldWeights,
      ...stripUndefined(input.fieldWeights ?? {}),
    }),
  };
  validate(options);
  return Object.freeze(options);
}

/**
 * Builds a searchable index over `entries`, kept in the given (catalog) order for ties. The
 * index can be extended with more tools (`extend`) at a cost that follows their number.
 */
export function createToolIndex(
  entries: readonly IndexEntry[],
  options?: ToolIndexOptionsInput,
): ExtendableToolIndex {
  if (!Array.isArray(entries))
    invalid('entries must be an array of { name, description?, inputSchema?, server? }');
  const context = indexContext(resolveToolIndexOptions(options));
  const corpus = ToolCorpus.build(entries, context.corpus);
  return new Bm25ToolIndex(
    corpus,
    context,
    context.options.lengthNormalization === 'field' ? [...entries] : undefined,
  );
}

/** How many of the best answers to the rest of a query are asked whether they cite its unknown name. */
const CITING_ANSWERS = 3;
/** …or whether at least this share of their server's tools do. */
const MIN_CITING_SHARE = 0.2;
// How many of the best BM25 candidates the name-match boost and the server cap re-rank.
const RERANK_POOL = 20;
// A server's tools past `maxPerServer` wait behind other servers' tools scoring at least this
// share of theirs, not behind every weaker one: room for another server's near-equal answer, never
// a far worse one first. Chosen on the dev sets (dev.jsonl half A, the external dev half): 0.5 to
// 0.7 gained there and on the agent sets, 0.8 and up (towards no cap) lost dev keyword queries.
const CAPPED_WAITS_BEHIND = 0.7;
// A query of at most this many words has every word chosen (the English reader weighs them all,
// `COMMON_WORDS_WEIGHED_UP_TO`): only there does holding more of them say which tool is meant.
const WORD_COVERAGE_MAX_WORDS = 7;

/** What an index shares with the indexes extended from it: settings and search scratch space. */
interface IndexContext {
  readonly options: Readonly<ToolIndexOptions>;
  readonly tokenizer: Readonly<TokenizerOptions>;
  readonly corpus: CorpusSettings;
  readonly reader: QueryReaderSettings;
  // Searches are synchronous, so one accumulator serves them all; it grows to the largest index.
  readonly accumulator: ScoreAccumulator;
  readonly nameQuery: NameQuery;
  // The best candidates of a search, and of the MaxScore check before them.
  readonly best: TopK;
  readonly termOrder: TermOrder;
  readonly queryWords: QueryWords;
  // Reused for every term scored: the accumulator reads it before it returns.
  readonly termFlags: AccumulateFlags;
}

function indexContext(options: Readonly<ToolIndexOptions>): IndexContext {
  const tokenizer = Object.freeze({
    splitCamelCase: options.splitCamelCase,
    splitLetterDigit: options.splitLetterDigit,
  });
  return {
    options,
    tokenizer,
    corpus: {
      tokenizer,
      bm25: Object.freeze({
        k1: options.k1,
        b: options.b,
        fieldWeights: Object.freeze(FIELDS.map((name) => options.fieldWeights[name])),
        lengthNormalization: options.lengthNormalization,
      }),
    },
    reader: {
      gate: options.gate,
      serviceNames: new Set(options.serviceNames.map((name) => name.toLowerCase())),
      knownApps: options.knownApps,
      unknownNameMaxQueryWords: options.unknownNameMaxQueryWords,
      unknownNameMaxWords: options.unknownNameMaxWords,
      typoCorrection: options.typoCorrection,
      typoMinLength: options.typoMinLength,
      commonWordZipf: options.commonWordZipf,
      allWordsUpTo: options.allWordsUpTo,
      maxQueryTerms: options.maxQueryTerms,
      countRepeatedTerms: options.countRepeatedTerms,
      synonyms: synonymStems(options.synonyms, tokenizer),
      synonymWeight: options.synonymWeight,
      relatedWords: options.relatedWords,
      relatedWordWeights: Object.freeze({
        synonym: options.relatedWordWeights.synonym,
        broader: options.relatedWordWeights.broader,
      }),
      nameBridgeWeight: options.nameBridgeWeight,
    },
    accumulator: new ScoreAccumulator(0),
    nameQuery: new NameQuery(),
    best: new TopK(RERANK_POOL),
    termOrder: new TermOrder(),
    queryWords: new QueryWords(),
    termFlags: { countsForCoverage: false, isGate: false, wordBits: undefined },
  };
}

class Bm25ToolIndex implements ExtendableToolIndex {
  private readonly reader: QueryReader;
  // Server id → how many tools it has (see `serverSize`).
  private serverSizes: Map<string, number> | undefined;

  constructor(
    private readonly corpus: ToolCorpus,
    private readonly context: IndexContext,
    /** Under BM25F only: every entry so far, since an extension there is a rebuild. */
    private readonly entries?: readonly IndexEntry[],
  ) {
    this.reader = context.options.reader(corpus, context.reader);
  }

  get size(): number {
    return this.corpus.size;
  }

  extend(extra: readonly IndexEntry[]): ExtendableToolIndex {
    if (!Array.isArray(extra)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'extend: extra must be an array of { name, description?, inputSchema?, server? }.',
      );
    }
    if (this.entries !== undefined) {
      // BM25F folds each field's average length into every stored frequency: new tools change them all.
      const all = [...this.entries, ...extra];
      return new Bm25ToolIndex(ToolCorpus.build(all, this.context.corpus), this.context, all);
    }
    return new Bm25ToolIndex(this.corpus.extend(extra), this.context);
  }

  search(query: string, searchOptions: SearchOptions = {}): SearchResult {
    const limit = this.limitOf(searchOptions.limit);
    const text = typeof query === 'string' ? query : '';
    const words = tokenizeRuns(text, this.context.tokenizer, this.corpus.knownWord);
    if (words.words.length === 0 || this.size === 0 || limit <= 0) {
      return searchOptions.explain ? { matches: [], explanation: emptyExplanation(text) } : { matches: [] };
    }
    let plan = this.reader.read(words);
    if (plan.unknownWords.length > 0) plan = this.citedByAnswers(plan, words.runs) ?? plan;
    const exact = this.corpus.exactMatches(text.trim().toLowerCase());
    const required = this.requiredCoverage(plan.answerable.length);
    const blocked = plan.unknownWords.length > 0 || (plan.gateToken !== undefined && plan.gateTermId < 0);
    const ranked = this.rank(plan, required, blocked ? [] : plan.terms, exact, limit, words.runs);
    const result: SearchResult = { matches: ranked.docs.map((doc) => this.corpus.name(doc)) };
    if (plan.corrections.length > 0) result.corrections = plan.corrections;
    if (plan.unknownWords.length > 0) {
      result.unknownWords = plan.unknownWords;
      if (result.matches.length === 0) {
        // What the query would find without the unknown words: a guess, never a match.
        const guess = this.rank(plan, required, plan.terms, [], limit, words.runs);
        if (guess.docs.length > 0) result.didYouMean = guess.docs.map((doc) => this.corpus.name(doc));
      }
    }
    if (searchOptions.explain) result.explanation = this.explain(text, plan, required, ranked, exact);
    return result;
  }

  /**
   * The plan with its unknown words scored, when each is a word only parameter descriptions hold
   * and one of the tools that best answer the rest holds it, or a fifth of its server's tools do
   * (`leetcode contest details`: the LeetCode server's tools say `LeetCode username`): the name is
   * those tools' data, not an absent service. Elsewhere parameters cite other services as examples
   * (`your Okta identity provider`), so a word they hold stops a query that other tools answer.
   */
  private citedByAnswers(plan: QueryPlan, queryRuns: readonly string[]): QueryPlan | undefined {
    const cited: QueryTerm[] = [];
    let answers: readonly number[] | undefined;
    for (const word of plan.unknownWords) {
      if (!this.corpus.citesOnlyInParameters(word)) return undefined;
      const { stem: wordStem, termId } = this.corpus.lookUp(word);
      // Answers to the query's own words: a tool found only through a related word answers nothing.
      answers ??= this.rank(
        plan,
        this.requiredCoverage(plan.answerable.length),
        plan.terms.filter((term) => term.via === undefined),
        [],
        CITING_ANSWERS,
        queryRuns,
      ).docs;
      // Or many of its server's tools do: the LeetCode server's `get-daily-challenge` takes no
      // parameters; Cloudflare's thousands of tools cite Okta in a few.
      const citing = new Map<string, number>();
      this.corpus.bm25.forEachDocument(termId, (doc) => {
        const server = this.corpus.server(doc);
        citing.set(server, (citing.get(server) ?? 0) + 1);
      });
      const cites = (doc: number) =>
        this.corpus.bm25.termFrequency(termId, doc) > 0 ||
        (citing.get(this.corpus.server(doc)) ?? 0) >=
          MIN_CITING_SHARE * this.serverSize(this.corpus.server(doc));
      if (!answers.some(cites)) return undefined;
      cited.push({
        stem: wordStem,
        termId,
        boost: 1,
        countsForCoverage: true,
        nameWeight: 1,
        source: wordStem,
      });
    }
    const unknown = new Set(plan.unknownWords);
    return {
      ...plan,
      unknownWords: [],
      whyUnknown: {},
      terms: [...plan.terms, ...cited],
      answerable: [...plan.answerable, ...cited.map((term) => term.stem)],
      words: plan.words.map((fate) =>
        unknown.has(fate.word)
          ? {
              ...fate,
              fate: 'kept',
              reason: 'cited-by-answers',
              why: 'where a service is named, but the tools answering the rest of the query cite it in their parameters: their data',
            }
          : fate,
      ),
    };
  }

  /** How many tools a server has (counted for every server on first ask). */
  private serverSize(server: string): number {
    if (this.serverSizes === undefined) {
      this.serverSizes = new Map();
      for (let doc = 0; doc < this.size; doc++) {
        const of = this.corpus.server(doc);
        this.serverSizes.set(of, (this.serverSizes.get(of) ?? 0) + 1);
      }
    }
    return this.serverSizes.get(server) ?? 0;
  }

  private limitOf(limit: number | undefined): number {
    if (limit === undefined || limit === null) return this.context.options.defaultLimit;
    if (typeof limit !== 'number' || Number.isNaN(limit)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `search: option "limit" must be a number, got ${String(limit)}.`,
      );
    }
    return Math.floor(limit);
  }

  private requiredCoverage(answerable: number): number {
    const floor = this.context.options.relevanceFloor;
    if (floor === null || answerable < floor.fromTerms) return 1;
    return Math.ceil(answerable * floor.fraction);
  }

  /** Scores every tool holding a term, keeps the admitted ones, and returns the best `limit`. */
  private rank(
    plan: QueryPlan,
    required: number,
    terms: readonly QueryTerm[],
    exact: readonly number[],
    limit: number,
    queryRuns: readonly string[],
  ): Ranked {
    const { nameMatchBoost: boost, wordCoverageBoost, maxPerServer } = this.context.options;
    const coverageBoost = queryRuns.length <= WORD_COVERAGE_MAX_WORDS ? wordCoverageBoost : 0;
    // The name-match and coverage boosts and the server cap choose among the best `pool` by BM25.
    const pool = boost > 0 || coverageBoost > 0 || maxPerServer > 0 ? Math.max(limit, RERANK_POOL) : limit;
    const words = this.context.queryWords;
    if (coverageBoost > 0) words.read(terms, this.corpus.bm25);
    else words.clear();
    this.accumulate(plan, terms, pool, required);
    const acc = this.context.accumulator;
    const gated = plan.gateToken !== undefined;
    const candidates = this.context.best;
    candidates.reset(pool);
    const { touched, scores, coverage } = acc;
    let threshold = candidates.threshold;
    for (let i = 0; i < acc.touchedCount; i++) {
      const doc = touched[i]!;
      const score = scores[doc]!;
      // Most tools fall below the current pool-th best: skip them before anything else.
      if (score < threshold) continue;
      if (coverage[doc]! < required || (gated && !acc.holdsGate(doc))) continue;
      if (exact.length > 0 && exact.includes(doc)) continue;
      candidates.offer(doc, score);
      threshold = candidates.threshold;
    }
    let ranked = candidates.ranked();
    if (boost > 0 || words.count >= 2) {
      const queried = nameWeights(this.context.nameQuery, this.corpus.termCount, terms);
      for (let i = 0; i < ranked.docs.length; i++) {
        const doc = ranked.docs[i]!;
        let factor = boost > 0 ? 1 + boost * this.corpus.nameMatch(doc, queried) : 1;
        if (words.count >= 2)
          factor *= 1 + coverageBoost * words.share(doc, acc.wordBits[doc]!, this.corpus.bm25);
        ranked.scores[i] = ranked.scores[i]! * factor;
      }
      ranked = sortRanked(ranked);
    }
    if (maxPerServer > 0) this.capPerServer(ranked, maxPerServer, correctedRuns(queryRuns, plan), limit);
    // An exact full-name match comes first, whatever it scored.
    if (exact.length === 0) {
      if (ranked.docs.length > limit) {
        ranked.docs.length = limit;
        ranked.scores.length = limit;
      }
      return ranked;
    }
    return {
      docs: [...exact, ...ranked.docs].slice(0, limit),
      scores: [...exact.map(() => Number.POSITIVE_INFINITY), ...ranked.scores].slice(0, limit),
    };
  }

  /**
   * Whether the query names a server: says its id's words in order (`github`, `cloudflare api`),
   * or a word of its id that names it alone (`slack` for `slack-web-api`, see
   * `ToolCorpus.serverNamedBy`).
   */
  private namesServer(server: string, queryRuns: readonly string[]): boolean {
    return (
      saysServerId(server, queryRuns) || queryRuns.some((run) => this.corpus.serverNamedBy(run) === server)
    );
  }

  /**
   * Keeps at most `cap` tools of one server among the first, in rank order; the rest of that
   * server follows the other servers' tools that score near it (see {@link CAPPED_WAITS_BEHIND}).
   * A server the query names is not capped. Reorders `ranked` in place, and stops reading once
   * `wanted` tools are not capped: a tool not read scores no more than those, so it cannot come
   * before them (the tools not read are dropped).
   */
  private capPerServer(ranked: Ranked, cap: number, queryRuns: readonly string[], wanted: number): void {
    const { docs, scores } = ranked;
    // A few dozen documents: parallel arrays beat a map here.
    const servers: string[] = [];
    const counts: number[] = [];
    const laterDocs: number[] = [];
    const laterScores: number[] = [];
    let kept = 0;
    for (let i = 0; i < docs.length && kept < wanted; i++) {
      const doc = docs[i]!;
      const server = this.corpus.server(doc);
      let at = servers.indexOf(server);
      if (at < 0) at = servers.push(server) - 1;
      const count = (counts[at] ?? 0) + 1;
      counts[at] = count;
      // Checked only once a server is over its cap: most queries never need to.
      let capped = count > cap;
      if (count === cap + 1 && (server === '' || this.namesServer(server, queryRuns))) {
        capped = false;
        counts[at] = Number.NEGATIVE_INFINITY;
      }
      if (capped) {
        laterDocs.push(doc);
        laterScores.push(scores[i]!);
      } else {
        // Never past `i`: the tools still to be read are untouched.
        docs[kept] = doc;
        scores[kept] = scores[i]!;
        kept += 1;
      }
    }
    if (laterDocs.length === 0) {
      docs.length = kept;
      scores.length = kept;
      return;
    }
    // Each capped tool waits behind the kept ones that score at least CAPPED_WAITS_BEHIND of it.
    const keptDocs = docs.slice(0, kept);
    const keptScores = scores.slice(0, kept);
    let placed = 0;
    let next = 0;
    for (let capped = 0; capped < laterDocs.length; capped++) {
      const bar = CAPPED_WAITS_BEHIND * laterScores[capped]!;
      for (; next < kept && keptScores[next]! >= bar; next++, placed++) {
        docs[placed] = keptDocs[next]!;
        scores[placed] = keptScores[next]!;
      }
      docs[placed] = laterDocs[capped]!;
      scores[placed] = laterScores[capped]!;
      placed++;
    }
    for (; next < kept; next++, placed++) {
      docs[placed] = keptDocs[next]!;
      scores[placed] = keptScores[next]!;
    }
    docs.length = placed;
    scores.length = placed;
  }

  /**
   * Scores the terms into the accumulator. Under the reference's rarest-term gate or a relevance
   * floor, every term in query order over all its postings, as the reference sums them.
   * Otherwise with MaxScore pruning, which keeps the best `pool` exact: terms go from the highest
   * possible contribution down, and once all remaining terms together could not lift an unseen
   * tool past the current `pool`-th best score, they only re-score the tools already found, by
   * lookup. On long queries this skips walking the postings of words like `the` and `a`. A term of
   * weight 0 (a name bridge) is not scored: it counts only in the name match.
   */
  private accumulate(plan: QueryPlan, terms: readonly QueryTerm[], pool: number, required: number): void {
    const acc = this.context.accumulator;
    const bm25 = this.corpus.bm25;
    acc.reset(this.size);
    // The pool-th best score bounds unseen tools only if every scored tool can be admitted.
    if (plan.gateToken !== undefined || required > 1) {
      for (let i = 0; i < terms.length; i++) {
        const term = terms[i]!;
        if (term.boost > 0 && term.rescoresOnly !== true)
          bm25.accumulate(term.termId, term.boost, acc, this.flagsOf(plan, terms, i));
      }
      this.rescore(plan, terms);
      return;
    }
    const order = this.context.termOrder.sort(terms, bm25);
    let remaining = 0;
    let remainingPostings = 0;
    for (let at = 0; at < order.count; at++) {
      const i = order.indexes[at]!;
      // A term that only re-scores can lift no tool the others have not found.
      if (terms[i]!.rescoresOnly === true) continue;
      remaining += order.bounds[i]!;
      remainingPostings += bm25.documentFrequency(terms[i]!.termId);
    }
    let lookupOnly = false;
    for (let at = 0; at < order.count; at++) {
      const i = order.indexes[at]!;
      const term = terms[i]!;
      // Worth checking only when the postings left to walk outweigh looking up the tools found.
      if (
        !lookupOnly &&
        acc.touchedCount >= pool &&
        remaining < acc.maxScore &&
        remainingPostings > 4 * acc.touchedCount
      ) {
        lookupOnly = remaining < this.kthBestScore(pool);
      }
      if (term.rescoresOnly === true) continue;
      remaining -= order.bounds[i]!;
      remainingPostings -= bm25.documentFrequency(term.termId);
      const flags = this.flagsOf(plan, terms, i);
      if (lookupOnly) bm25.accumulateTouched(term.termId, term.boost, acc, flags);
      else bm25.accumulate(term.termId, term.boost, acc, flags);
    }
    this.rescore(plan, terms);
  }

  /** Adds the terms that only re-score (`QueryTerm.rescoresOnly`) to the tools already found. */
  private rescore(plan: QueryPlan, terms: readonly QueryTerm[]): void {
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      if (term.rescoresOnly === true && term.boost > 0) {
        this.corpus.bm25.accumulateTouched(
          term.termId,
          term.boost,
          this.context.accumulator,
          this.flagsOf(plan, terms, i),
        );
      }
    }
  }

  /** How the accumulator is to score the query's term `i`: in one object reused for every term. */
  private flagsOf(plan: QueryPlan, terms: readonly QueryTerm[], i: number): AccumulateFlags {
    const flags = this.context.termFlags;
    flags.countsForCoverage = terms[i]!.countsForCoverage;
    flags.isGate = terms[i]!.termId === plan.gateTermId;
    flags.wordBits = this.context.queryWords.bitsOf(i);
    return flags;
  }

  private kthBestScore(k: number): number {
    const acc = this.context.accumulator;
    const best = this.context.best;
    best.reset(k);
    for (let i = 0; i < acc.touchedCount; i++) best.offer(acc.touched[i]!, acc.scores[acc.touched[i]!]!);
    return best.threshold;
  }

  private explain(
    query: string,
    plan: QueryPlan,
    required: number,
    ranked: Ranked,
    exact: readonly number[],
  ): SearchExplanation {
    const bm25 = this.corpus.bm25;
    const queried = nameWeights(this.context.nameQuery, this.corpus.termCount, plan.terms);
    const matches = ranked.docs.map((doc, rank): MatchExplanation => {
      const terms: Record<string, number> = {};
      let coverage = 0;
      for (const term of plan.terms) {
        const share = bm25.contribution(term.termId, doc, term.boost);
        if (share === 0) continue;
        terms[term.stem] = (terms[term.stem] ?? 0) + share;
        if (term.countsForCoverage) coverage += 1;
      }
      const exactName = exact.includes(doc);
      const score = Object.values(terms).reduce((sum, value) => sum + value, 0);
      return {
        name: this.corpus.name(doc),
        score: exactName ? score : ranked.scores[rank]!,
        bm25: score,
        nameMatch: this.corpus.nameMatch(doc, queried),
        exactName,
        coverage,
        terms,
      };
    });
    const explanation: SearchExplanation = {
      query,
      terms: plan.stems,
      answerableTerms: plan.answerable,
      unscoredTerms: plan.unscored,
      requiredCoverage: required,
      corrections: plan.corrections,
      ignoredWords: plan.ignoredWords,
      unknownWords: plan.unknownWords,
      whyUnknown: plan.whyUnknown,
      words: plan.words,
      matches,
    };
    if (plan.gateToken !== undefined) explanation.gateToken = plan.gateToken;
    return explanation;
  }
}

/**
 * The scored terms of a query (weight above 0) by the most each can add to a tool's score, highest
 * first; a stable order keeps query order between equals. Arrays reused from search to search.
 */
class TermOrder {
  /** Positions in the terms, in order; `count` of them. */
  indexes = new Int32Array(64);
  /** Per position in the terms, the most that term adds (its best contribution × its weight). */
  bounds = new Float64Array(64);
  count = 0;

  sort(terms: readonly QueryTerm[], bm25: Bm25Index): this {
    if (terms.length > this.bounds.length) {
      this.indexes = new Int32Array(terms.length);
      this.bounds = new Float64Array(terms.length);
    }
    const { indexes, bounds } = this;
    let count = 0;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      if (!(term.boost > 0)) continue;
      const bound = bm25.maxContribution(term.termId) * term.boost;
      bounds[i] = bound;
      // Insertion sort: a query has a few dozen terms at most.
      let at = count;
      while (at > 0 && bounds[indexes[at - 1]!]! < bound) {
        indexes[at] = indexes[at - 1]!;
        at -= 1;
      }
      indexes[at] = i;
      count += 1;
    }
    this.count = count;
    return this;
  }
}

// How many of a query's words are marked by a bit in the accumulator; any further ones (only a
// run of many camelCase parts makes them) are looked up instead.
const WORD_BITS = 32;

/**
 * The query's words for the coverage boost, each with the terms that stand for it (its own, or
 * the related words scored in its place) and its weight: the IDF of its rarest term. A scored
 * term gives the tools holding it its word's bit as the accumulator scores it, so how many words
 * a tool holds is read from its bits, not looked up term by term; a term not scored (weight 0)
 * is looked up in the postings.
 */
class QueryWords {
  private readonly sources: string[] = [];
  private readonly weights: number[] = [];
  private total = 0;
  // Per position in the terms, the bit its word gets from the tools holding it (0: none).
  private termBits = new Uint32Array(64);
  // Terms whose words are found by lookup: their ids and the words they stand for.
  private readonly lookedUpTerms: number[] = [];
  private readonly lookedUpWords: number[] = [];

  get count(): number {
    return this.sources.length;
  }

  /** No words: the query gets no coverage boost. */
  clear(): void {
    this.sources.length = 0;
  }

  read(terms: readonly QueryTerm[], bm25: Bm25Index): void {
    this.clear();
    this.weights.length = 0;
    this.lookedUpTerms.length = 0;
    this.lookedUpWords.length = 0;
    if (terms.length > this.termBits.length) this.termBits = new Uint32Array(terms.length);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      this.termBits[i] = 0;
      // Repeats and the synonyms option's words add score, not another word of the query; the
      // commonest English words, scored at part weight, are not what the query chose.
      if (!term.countsForCoverage || (term.boost < 1 && term.via === undefined)) continue;
      let word = this.sources.indexOf(term.source);
      if (word < 0) {
        word = this.sources.push(term.source) - 1;
        this.weights.push(0);
      }
      this.weights[word] = Math.max(this.weights[word]!, bm25.idf(term.termId));
      if (term.boost > 0 && word < WORD_BITS) {
        this.termBits[i] = 1 << word;
      } else {
        this.lookedUpTerms.push(term.termId);
        this.lookedUpWords.push(word);
      }
    }
    this.total = 0;
    for (const weight of this.weights) this.total += weight;
  }

  /** The bits the query's term `i` gives the tools holding it; none when no word is counted. */
  bitsOf(i: number): number | undefined {
    return this.count >= 2 ? this.termBits[i]! : undefined;
  }

  /** Share of the words' weight a tool holds (a word counts when it holds any of its terms). */
  share(doc: number, docBits: number, bm25: Bm25Index): number {
    let held = 0;
    for (let word = 0; word < this.count; word++) {
      const marked = word < WORD_BITS && (docBits & (1 << word)) !== 0;
      if (marked || this.holdsLookedUp(word, doc, bm25)) held += this.weights[word]!;
    }
    return this.total > 0 ? held / this.total : 0;
  }

  private holdsLookedUp(word: number, doc: number, bm25: Bm25Index): boolean {
    for (let i = 0; i < this.lookedUpWords.length; i++) {
      if (this.lookedUpWords[i] === word && bm25.termFrequency(this.lookedUpTerms[i]!, doc) > 0) return true;
    }
    return false;
  }
}

/**
 * Fills `queried` with each term a tool's name may hold → how much it counts there (the query's
 * own words 1), and the stems of the words counting fully, against which a name's other words are
 * matched by prefix.
 */
function nameWeights(queried: NameQuery, termCount: number, terms: readonly QueryTerm[]): NameQuery {
  queried.reset(termCount);
  for (const term of terms)
    queried.add(term.termId, term.stem, term.nameWeight ?? (term.boost === 1 ? 1 : 0));
  return queried;
}

/** The query's words with each typo replaced by its correction (`slakc` → `slack`). */
function correctedRuns(queryRuns: readonly string[], plan: QueryPlan): readonly string[] {
  if (plan.corrections.length === 0) return queryRuns;
  return queryRuns.map((run) => plan.corrections.find((fix) => fix.from === run)?.to ?? run);
}

/** Whether the query says a server's id: its words in order (`github`, `cloudflare api`). */
function saysServerId(server: string, queryRuns: readonly string[]): boolean {
  const id = serverIdWords(server);
  const [head] = id;
  if (head === undefined) return false;
  for (let at = queryRuns.indexOf(head); at >= 0; at = queryRuns.indexOf(head, at + 1)) {
    if (id.every((word, i) => queryRuns[at + i] === word)) return true;
  }
  return false;
}

/** Each synonym group as stems: stem → the other stems of its groups. */
function synonymStems(
  groups: readonly (readonly string[])[],
  tokenizer: Readonly<TokenizerOptions>,
): Map<string, string[]> {
  const synonyms = new Map<string, string[]>();
  for (const group of groups) {
    const stems = [...new Set(group.flatMap((word) => tokenize(word, tokenizer)).map(stem))];
    for (const one of stems) {
      const others = stems.filter((other) => other !== one);
      synonyms.set(one, [...new Set([...(synonyms.get(one) ?? []), ...others])]);
    }
  }
  return synonyms;
}

function emptyExplanation(query: string): SearchExplanation {
  return {
    query,
    terms: [],
    answerableTerms: [],
    unscoredTerms: [],
    requiredCoverage: 1,
    corrections: [],
    ignoredWords: [],
    unknownWords: [],
    whyUnknown: {},
    words: [],
    matches: [],
  };
}

function validate(options: ToolIndexOptions): void {
  positive('k1', options.k1);
  if (!(options.b >= 0 && options.b <= 1)) invalid('option "b" must be between 0 and 1');
  if (!['document', 'field'].includes(options.lengthNormalization)) {
    invalid('option "lengthNormalization" must be "document" or "field"');
  }
  for (const [field, weight] of Object.entries(options.fieldWeights)) {
    if (!(typeof weight === 'number' && weight >= 0 && Number.isFinite(weight))) {
      invalid(`option "fieldWeights.${field}" must be a number ≥ 0`);
    }
  }
  if (!['rarest-term', 'unknown-name', 'off'].includes(options.gate)) {
    invalid('option "gate" must be "rarest-term", "unknown-name" or "off"');
  }
  if (
    !Array.isArray(options.serviceNames) ||
    !options.serviceNames.every((name) => typeof name === 'string')
  ) {
    invalid('option "serviceNames" must be an array of strings');
  }
  integerAtLeast('unknownNameMaxQueryWords', options.unknownNameMaxQueryWords, 1);
  integerAtLeast('unknownNameMaxWords', options.unknownNameMaxWords, 0);
  const floor = options.relevanceFloor;
  if (floor !== null) {
    integerAtLeast('relevanceFloor.fromTerms', floor?.fromTerms, 1);
    if (!(floor.fraction > 0 && floor.fraction <= 1))
      invalid('option "relevanceFloor.fraction" must be in (0, 1]');
  }
  if (!(options.commonWordZipf >= 0 && Number.isFinite(options.commonWordZipf)))
    invalid('option "commonWordZipf" must be a number ≥ 0 (0 keeps every word)');
  integerAtLeast('allWordsUpTo', options.allWordsUpTo, 0);
  integerAtLeast('maxQueryTerms', options.maxQueryTerms, 0);
  if (typeof options.countRepeatedTerms !== 'boolean')
    invalid('option "countRepeatedTerms" must be true or false');
  integerAtLeast('maxPerServer', options.maxPerServer, 0);
  if (!(options.nameMatchBoost >= 0 && Number.isFinite(options.nameMatchBoost))) {
    invalid('option "nameMatchBoost" must be a number ≥ 0');
  }
  if (!(options.wordCoverageBoost >= 0 && Number.isFinite(options.wordCoverageBoost))) {
    invalid('option "wordCoverageBoost" must be a number ≥ 0 (0 turns it off)');
  }
  integerAtLeast('typoMinLength', options.typoMinLength, 3);
  if (!Array.isArray(options.synonyms) || !options.synonyms.every((group) => Array.isArray(group))) {
    invalid('option "synonyms" must be an array of word groups (arrays of strings)');
  }
  if (!(options.nameBridgeWeight >= 0 && options.nameBridgeWeight <= 1))
    invalid('option "nameBridgeWeight" must be in [0, 1] (0 turns it off)');
  if (!(options.synonymWeight >= 0 && options.synonymWeight <= 1))
    invalid('option "synonymWeight" must be in [0, 1]');
  if (typeof options.reader !== 'function')
    invalid('option "reader" must be a reader factory, e.g. englishReader(NODE_LANGUAGE_DATA)');
  integerAtLeast('defaultLimit', options.defaultLimit, 1);
}

function positive(name: string, value: number): void {
  if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
    invalid(`option "${name}" must be > 0`);
}

function integerAtLeast(name: string, value: number | undefined, minimum: number): void {
  if (!(Number.isInteger(value) && (value ?? 0) >= minimum))
    invalid(`option "${name}" must be an integer ≥ ${minimum}`);
}

function invalid(problem: string): never {
  throw new ToolbridgeError('INVALID_ARGUMENT', `createToolIndex: ${problem}.`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
