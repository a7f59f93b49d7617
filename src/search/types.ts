/** One tool as the engine sees it. `name` is the full agent-facing name, `server` its server id (the label). */
export interface IndexEntry {
  name: string;
  description?: string | null;
  inputSchema?: unknown;
  server?: string | null;
  /** Extra words a user attached to the tool so searches find it (indexed like name words). */
  keywords?: readonly string[] | null;
}

export interface SearchOptions {
  /** How many names to return at most. */
  limit?: number;
  /** Also return why each match ranked (gate token, answerable terms, per-term scores). */
  explain?: boolean;
}

/** A query word the engine replaced by a catalog word one edit away (`isue` → `issue`). */
export interface Correction {
  from: string;
  to: string;
}

/**
 * Why a query word met its fate, as a code a program can branch on (`WordFate.why` says it in
 * words). Kept: `scored` as written, `corrected` (a typo fixed first), `related-words` (no tool
 * holds it, its related words are scored instead), `common-english` (one of English's commonest
 * words in a query of five to seven words, scored at half weight), `cited-by-answers` (a name only
 * parameter descriptions hold, where a service is named, but the tools answering the rest of the
 * query cite it: their data, scored). Dropped: `common-english` (one
 * of English's commonest words in a longer query: the engine's stop words, taken from word
 * frequency, not a list), `over-term-budget` (beyond `maxQueryTerms`), `not-in-catalog` (no tool holds it and no
 * related word helps), `filler` (a number, or a word of one or two letters, no tool holds),
 * `name-as-data` (a name no tool holds, read as what the task is about), `address` (inside an
 * e-mail or web address), `repeated` (said before). Unknown: `absent-service`.
 */
export type WordFateReason =
  | 'scored'
  | 'corrected'
  | 'related-words'
  | 'common-english'
  | 'over-term-budget'
  | 'not-in-catalog'
  | 'filler'
  | 'name-as-data'
  | 'address'
  | 'repeated'
  | 'absent-service'
  | 'cited-by-answers';

/**
 * Where a related word came from: WordNet 3.1 (a word of the same sense, or of a broader one), the
 * `synonyms` option, or the catalog's own names (`catalog-names`: an action the tools whose text
 * says the word are named with; it counts only in the name match).
 */
export type RelatedWordSource = 'wordnet-synonym' | 'wordnet-broader' | 'synonyms-option' | 'catalog-names';

/** A related word also scored for a query word, below it. */
export interface WordExpansion {
  /** As the source spells it (`call`). */
  word: string;
  /** The stem it was scored as (`call`). */
  stem: string;
  /** Its weight against 1 for the query's own words (for `catalog-names`, in the name match only). */
  weight: number;
  source: RelatedWordSource;
}

/**
 * What became of one query word (`explain`): `kept` (scored, perhaps after a correction, perhaps
 * with related words at a lower weight), `dropped` (not scored, and why) or `unknown` (read as an
 * absent service's name: it empties the result).
 */
export interface WordFate {
  /** As the query wrote it, lower-cased. */
  word: string;
  /** The stem it was looked up as (of the correction, when corrected). */
  stem: string;
  fate: 'kept' | 'dropped' | 'unknown';
  /** Why, as a code (see {@link WordFateReason}). */
  reason: WordFateReason;
  /** In plain words: `scored`, `one of the commonest English words …`, `inside an e-mail …`. */
  why: string;
  /** The catalog word a typo was corrected to. */
  correctedTo?: string;
  /** Related words also scored for it, each at its weight (< 1) and from its source. */
  expandedTo?: WordExpansion[];
}

/** Why one name ranked where it did. */
export interface MatchExplanation {
  name: string;
  /**
   * The score it ranked by: `bm25` × (1 + nameMatchBoost × `nameMatch`), in a short query also ×
   * (1 + wordCoverageBoost × the IDF-weighed share of the query's words it holds). An exact
   * full-name match ranks first whatever it is.
   */
  score: number;
  /** The BM25 score: the sum of `terms`. */
  bm25: number;
  /** Share of the tool's name words that the query holds (what the name-match boost rewards). */
  nameMatch: number;
  /** True when the query was this tool's full name. */
  exactName: boolean;
  /** How many distinct answerable query terms the tool holds. */
  coverage: number;
  /** Each query term (stem) the tool holds → its share of `score`. */
  terms: Record<string, number>;
}

/** How a query was read and each match scored (`search(query, { explain: true })`). */
export interface SearchExplanation {
  query: string;
  /** The query's terms (stems) in order, after corrections; repeats kept. */
  terms: string[];
  /** The term every match must hold (reference rarest-token gate); absent when the gate is off. */
  gateToken?: string;
  /** Distinct query terms that some tool holds. */
  answerableTerms: string[];
  /** Answerable terms left out of scoring: the most common ones of a long query (`maxQueryTerms`). */
  unscoredTerms: string[];
  /** How many of `answerableTerms` a match must hold (the relevance floor). */
  requiredCoverage: number;
  /** Typos fixed before searching. */
  corrections: Correction[];
  /** Words no tool holds that were read as filler and left out. */
  ignoredWords: string[];
  /** Words no tool holds that look like a name (a service that is not installed): they empty `matches`. */
  unknownWords: string[];
  /** Why each of `unknownWords` was read as a service, in plain words (`an everyday English word, where a service is named: after "in", where its phrase ends`). */
  whyUnknown: Record<string, string>;
  /** Every query word in order, and what became of it. */
  words: WordFate[];
  matches: MatchExplanation[];
}

export interface SearchResult {
  /** Names in rank order, verbatim as given to the index. */
  matches: string[];
  /** Typos fixed before searching; present only when something was corrected. */
  corrections?: Correction[];
  /**
   * Present only when `matches` is empty because the query names something no tool holds
   * (`unknownWords`): the names that would match without those words. A guess, never a match.
   */
  didYouMean?: string[];
  /** The words that emptied `matches`, as the query spelled them (lower-cased). */
  unknownWords?: string[];
  /** Present when `explain: true` was asked. */
  explanation?: SearchExplanation;
}

export interface ToolIndex {
  readonly size: number;
  search(query: string, options?: SearchOptions): SearchResult;
  /**
   * This index plus `extra` tools, ranked as one corpus: tool count, average length and every
   * word's document frequency include them; ties keep this index's order, then `extra`'s; the
   * options are this index's. Costs about as much as indexing `extra` alone; this index is left
   * as it is. Every index from `createToolIndex` has it; optional so that hand-made indexes
   * (test doubles, adapters) need not implement it.
   */
  extend?(extra: readonly IndexEntry[]): ToolIndex;
}

/** What `createToolIndex` returns: an index that can always be extended. */
export interface ExtendableToolIndex extends ToolIndex {
  extend(extra: readonly IndexEntry[]): ExtendableToolIndex;
}
