import type { QueryReaderFactory } from './reading.js';

/** How much one occurrence of a word counts in each part of a tool (1 everywhere = plain BM25). */
export interface FieldWeights {
  /** Words of the tool name (`mcp__github__create_issue` → github, create, issue). */
  name: number;
  /** The server label, when it is not already a name word. */
  server: number;
  description: number;
  /** Top-level parameter names. */
  parameters: number;
  /** Descriptions of the top-level parameters, their first 40 words (0 = not indexed). */
  parameterDescriptions: number;
  /** The entry's own `keywords`. */
  keywords: number;
}

/**
 * Which tools a query may return at all, before ranking.
 * - `rarest-term` (the reference): only tools holding the query's rarest term, so one word that no
 *   tool holds — a typo, a filler word, a service that is not installed — empties the result.
 * - `unknown-name`: a word no tool holds empties the result only when it names something: a known
 *   service, or a word that is neither English nor a typo of a catalog word. English filler is
 *   ignored, typos are corrected.
 * - `off`: plain BM25, any tool holding any query term.
 */
export type GateMode = 'rarest-term' | 'unknown-name' | 'off';

/**
 * The relevance floor (reference §1.5): with `fromTerms` or more answerable terms, a match must
 * hold `ceil(fraction × answerable)` of them; otherwise one.
 */
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
   * BM25 length normalisation, 0 (none) to 1 (full): how much long texts are discounted.
   * @defaultValue 0.75
   */
  b: number;
  /**
   * `document`: a tool is one bag of words, normalised by its whole length (the reference).
   * `field`: each field is normalised by its own length, then weighted (BM25F). On the shared
   * catalogs `field` ranks known items better and free-text queries worse, so it is not the default.
   * @defaultValue 'document'
   */
  lengthNormalization: 'document' | 'field';
  /**
   * Per-field weights: how much one occurrence counts in each part of a tool.
   * @defaultValue `{ name: 1, server: 1, description: 1, parameters: 1, parameterDescriptions: 0.5, keywords: 1 }`
   */
  fieldWeights: Readonly<FieldWeights>;
  /**
   * Split `createIssue` into `create` + `issue` and `HTTPServer` into `http` + `server`, in tools
   * and queries; the whole word is kept too, so `pagerduty` still finds `PagerDuty`.
   * @defaultValue true
   */
  splitCamelCase: boolean;
  /**
   * Split letters from digits: `v2api` → `v` + `2` + `api` (and `v2api`).
   * @defaultValue false
   */
  splitLetterDigit: boolean;
  /**
   * Which tools a query may return before ranking; see {@link GateMode}.
   * @defaultValue 'unknown-name'
   */
  gate: GateMode;
  /**
   * Your own names of apps and services, lower-case. Under the `unknown-name` gate, a query naming
   * one that no tool mentions returns no matches — the service is not installed — even when the
   * name is also an English word (`telegram`, `slack`) and however long the query.
   * @defaultValue `[]` (the maintained lists of `knownApps` apply besides)
   */
  serviceNames: readonly string[];
  /**
   * Read the names of the maintained app lists (`simple-icons` brands, cspell's companies and
   * software tools) as services under the `unknown-name` gate, like `serviceNames`, in queries of
   * at most `unknownNameMaxQueryWords` words; a name that is an English word (`telegram`,
   * `square`) is read as that word. Off, only `serviceNames` are.
   * @defaultValue true
   */
  knownApps: boolean;
  /**
   * Under the `unknown-name` gate, an unknown word that is not a listed service empties the result
   * only in queries of at most this many words: a long sentence is a task description, and its
   * names are what the task is about (cities, people, products).
   * @defaultValue 10
   */
  unknownNameMaxQueryWords: number;
  /**
   * …and only when the query has at most this many such words: more are data (pasted text, codes).
   * @defaultValue 2
   */
  unknownNameMaxWords: number;
  /**
   * Minimum share of the query a match must cover (reference §1.5); `null`: one term is enough.
   * @defaultValue null
   */
  relevanceFloor: Readonly<RelevanceFloor> | null;
  /**
   * In a query of more than `allWordsUpTo` words, a word at least this common in everyday English
   * (Zipf scale of SUBTLEX-US: 6 is one word in a thousand — `my`, `me`, `would`, `help`, `you`) is
   * left out of scoring: such words carry the conversation, not the request, and in terse tool
   * texts the few tools that hold them would win on them (up to seven words they count at half
   * weight instead: a short request often says its action with them). 0 keeps every word.
   * @defaultValue 6
   */
  commonWordZipf: number;
  /**
   * A query of at most this many words keeps its common words: each was chosen (`get a domain`).
   * @defaultValue 4
   */
  allWordsUpTo: number;
  /**
   * A query with more distinct answerable terms than this (after `commonWordZipf`) is scored on
   * that many of its most specific ones (lowest document frequency); 0 scores every term. A fixed
   * count drops a long task's own words in terse catalogs, so it is off by default.
   * @defaultValue 0
   */
  maxQueryTerms: number;
  /**
   * Score a stem as often as the query says it (`customer … customers` twice), as the reference
   * does. Off, each distinct stem counts once: keyword lists often repeat a word in two forms,
   * and doubling it let one common word outweigh the rest of the query.
   * @defaultValue false
   */
  countRepeatedTerms: boolean;
  /**
   * At most this many of the best matches come from one server (by `server`), unless the query
   * names that server: says its id (`github …`, `cloudflare api …`) or a word of it that no other
   * server's id has and that mostly its tools hold (`slack` of `slack-web-api`, corrected typos
   * too): near-variants of one API (per-account
   * and per-zone twins) then leave room for other servers' tools. Further matches from a capped
   * server follow the other servers' tools that score at least 70% of theirs. 0 turns it off.
   * @defaultValue 3
   */
  maxPerServer: number;
  /**
   * Re-ranks the best 20 candidates by how much of the tool's own name the query says:
   * score × (1 + nameMatchBoost × share of the name's words found in the query). Helps a query that
   * names a tool (`github list issues`) pick it over near-duplicates with longer descriptions.
   * 0 turns it off.
   * @defaultValue 1
   */
  nameMatchBoost: number;
  /**
   * Re-ranks the best 20 candidates of a query of at most 7 words by how much of the query the
   * tool holds: score × (1 + wordCoverageBoost × share of the query's words it holds, each word
   * weighed by its IDF; a word scored through related words counts when the tool holds one of
   * them). In a short request every word was chosen, so the tool answering more of them is the
   * one described, not one that holds a single rare word many times (`jump onto another branch
   * locally` → `git_checkout`, not `create_branch`). Longer queries carry incidental words. 0
   * turns it off.
   * @defaultValue 0.5
   */
  wordCoverageBoost: number;
  /**
   * Replace a query word no tool holds, and that is not English, by a catalog word one edit away
   * (never changing the first letter), and say so in `corrections`.
   * @defaultValue true
   */
  typoCorrection: boolean;
  /**
   * Shortest word a typo correction may produce; the mistyped word may be one letter shorter
   * (`isue` → `issue`). Short words have too many neighbours to guess safely, so a shorter one is
   * produced only from two neighbouring letters swapped (`lsit` → `list`).
   * @defaultValue 5
   */
  typoMinLength: number;
  /**
   * Groups of interchangeable words (see `ACTION_SYNONYMS`): a query word also finds tools that
   * use another word of its group, at `synonymWeight` of the score. Off by default: on the shared
   * catalogs the curated action table cost as much precision as it gained recall.
   * @defaultValue `[]`
   */
  synonyms: readonly (readonly string[])[];
  /**
   * Bridge a query word no tool holds to the catalog's words through WordNet 3.1 (`ring` →
   * `call`, `phone`; `erase` → `delete`): a related word's term is scored at
   * `relatedWordWeights` of a query word's own. The database is read on the first query that
   * needs it.
   * @defaultValue true
   */
  relatedWords: boolean;
  /**
   * Weight of a related word against 1 for the query's own: `synonym` (a word of the same sense),
   * `broader` (a word of the sense it is a kind of).
   * @defaultValue `{ synonym: 0.4, broader: 0.2 }`
   */
  relatedWordWeights: Readonly<{ synonym: number; broader: number }>;
  /**
   * Bridges a scored query word to the names the catalog itself pairs it with: when at least 2
   * of the tools whose text (not name) holds the word, and a fifth of them, are named with one of
   * the catalog's actions (`update`, `delete`, `get`), at 3 times that action's share of all
   * names, a tool named with that action counts the word as this much of a name word in the
   * name-match re-ranking (`remove a repository` → `delete_repository`: tools named `delete_…` say "remove"). It
   * adds no BM25 score, so it re-orders the best candidates and finds none. 0 turns it off.
   * @defaultValue 0.15
   */
  nameBridgeWeight: number;
  /**
   * Share of the score a synonym earns compared with the word itself.
   * @defaultValue 0.5
   */
  synonymWeight: number;
  /**
   * How queries are read: which words are scored, corrected, bridged or stop the query. The
   * default is the English reader (`englishReader` over Node's language data in
   * `toolbridge/engine`; over none in the runtime-agnostic core); a reader for another language,
   * or with other data, is one function (`QueryReaderFactory`).
   */
  reader: QueryReaderFactory;
  /**
   * Names returned when `search` is called without a `limit`.
   * @defaultValue 5
   */
  defaultLimit: number;
}

/** Options as callers give them: any subset, `fieldWeights` too. */
export type ToolIndexOptionsInput = Partial<Omit<ToolIndexOptions, 'fieldWeights'>> & {
  fieldWeights?: Partial<FieldWeights>;
};
