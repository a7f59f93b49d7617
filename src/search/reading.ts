import type { Correction, RelatedWordSource, WordFate } from './types.js';

/**
 * How a query is read, as the core sees it: a reader turns a query's words into the terms to
 * score and the words that stop it (`createToolIndex(entries, { reader })`). The default is the
 * English reader (`english-reader.ts`); the language data it consults (dictionaries, WordNet,
 * app lists) is passed in, so this core runs anywhere and Node's loaders live in `node/`.
 */

/** One term to score: a query word's stem, or a synonym's at a lower weight. */
export interface QueryTerm {
  stem: string;
  termId: number;
  boost: number;
  /** False for a repeated query word and for synonyms: they add score, not coverage. */
  countsForCoverage: boolean;
  /**
   * How much it counts when a tool's name holds it (the name-match boost); when unset, 1 for a
   * term at full weight and 0 for any other.
   */
  nameWeight?: number;
  /** The query stem this term stands for (itself, or the word a synonym was added for). */
  source: string;
  /** For a related word: the word as its source spells it, and the source. */
  via?: { word: string; source: RelatedWordSource };
  /** Scores only tools the query's other terms found: it re-orders them and finds none. */
  rescoresOnly?: boolean;
}

/** How the engine read a query. */
export interface QueryPlan {
  /** The query's stems in order (after corrections), repeats kept. */
  stems: string[];
  terms: QueryTerm[];
  /** Distinct stems some tool holds, in query order. */
  answerable: string[];
  /** Answerable stems left out of scoring (the most common ones of a long query). */
  unscored: string[];
  /** The rarest-term gate's stem and its id (-1 when no tool holds it); unset without that gate. */
  gateToken: string | undefined;
  gateTermId: number;
  corrections: Correction[];
  ignoredWords: string[];
  /** Words that look like the name of something no tool knows: they empty the result. */
  unknownWords: string[];
  /** Why each of `unknownWords` was read as a service, in plain words. */
  whyUnknown: Record<string, string>;
  /** Every query word's fate, in order. */
  words: WordFate[];
}

export interface QueryReaderSettings {
  gate: 'rarest-term' | 'unknown-name' | 'off';
  /** The user's own service names: naming one that no tool holds empties the result. */
  serviceNames: ReadonlySet<string>;
  /** Read the language data's known apps as services (`ToolIndexOptions.knownApps`). */
  knownApps: boolean;
  unknownNameMaxQueryWords: number;
  unknownNameMaxWords: number;
  typoCorrection: boolean;
  typoMinLength: number;
  /** Words at least this common in English (Zipf) are left out of longer queries; 0 = keep all. */
  commonWordZipf: number;
  /** A query of at most this many words keeps its common words. */
  allWordsUpTo: number;
  /** Score at most this many distinct answerable stems, the rarest; 0 = all. */
  maxQueryTerms: number;
  /** A stem said twice (`customer customers`) scores twice; else each distinct stem once. */
  countRepeatedTerms: boolean;
  /** Stem → stems of its synonyms. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** Bridge a word no tool holds through the language data's related words. */
  relatedWords: boolean;
  /** Weight of a related word's term, by relation, against 1 for the query's own words. */
  relatedWordWeights: Readonly<Record<RelatedWord['relation'], number>>;
  /** Name-match weight of a catalog action a scored word goes with in tool names; 0 = none. */
  nameBridgeWeight: number;
  synonymWeight: number;
}

/** What a query is read against: the index's terms and words. */
export interface QueryLexicon {
  /** The term id of a stem, or -1 when no tool holds it. */
  termId(stem: string): number;
  /** A lower-case word's stem, the stem's term id (-1 when no tool holds it), and whether some tool holds the word as written. */
  lookUp(word: string): WordLookUp;
  /** Number of tools holding the term (0 for -1). */
  documentFrequency(termId: number): number;
  /** Whether some tool holds this lower-case word exactly as written. */
  holdsWord(word: string): boolean;
  /** How many tools' descriptions start with the term (`Create …`, `List …`). */
  descriptionLeads(termId: number): number;
  /** Held words that could be one edit from `word` (same first letter, length within one); more is fine. */
  wordsNear(word: string): readonly string[];
  /** Whether the word is one of a server id's words. */
  isServerWord(word: string): boolean;
  /** Number of tools. */
  readonly size: number;
  /** The stem of a term id. */
  term(termId: number): string;
  /** Which name terms go with a term that tools hold elsewhere than in their names. */
  namesWith(termId: number): NameAssociations;
  /** How many tools have the term in their names. */
  nameFrequency(termId: number): number;
  /** Whether some tool's description writes the lower-case word as a name (capitalized inside a sentence). */
  writesAsName(word: string): boolean;
  /** Whether some tool's name or description holds two lower-case words next to each other. */
  holdsPhrase(first: string, second: string): boolean;
  /** Whether one tool holds at least `atLeast` of these terms: how much of a query the catalog can answer. */
  someToolHolds(termIds: readonly number[], atLeast: number): boolean;
}

/** The tools holding a term other than in their names, and how many of them have each name term. */
export interface NameAssociations {
  tools: number;
  /** The name terms of those tools, in the order first met. */
  terms: readonly number[];
  /** How many of those tools have each of `terms` in their names. */
  counts: readonly number[];
}

/** A word as the index reads it (`QueryLexicon.lookUp`). */
export interface WordLookUp {
  readonly stem: string;
  /** The stem's term, -1 when no tool holds it. */
  readonly termId: number;
  /** Whether some tool holds the word as written (not only its stem). */
  readonly held: boolean;
}

/** A query's words and where each stands (see `tokenizeRuns`). */
export interface QueryWords {
  words: readonly string[];
  /** Each word's run (maximal stretch of letters and digits) in `runs`. */
  runOf: readonly number[];
  runs: readonly string[];
  /** For each run, whether punctuation that ends a phrase follows it (`in zoho, list leads`). */
  pausesAfter?: readonly boolean[];
  /** The query as written, for the labels it may open or end with (`Zoho: …`, `… - zoho`). */
  text?: string;
  /** Where each run starts and ends in `text`. */
  runStarts?: readonly number[];
  runEnds?: readonly number[];
}

/** A plan with nothing read yet: no terms, no words. */
export function emptyQueryPlan(): QueryPlan {
  return {
    stems: [],
    terms: [],
    answerable: [],
    unscored: [],
    gateToken: undefined,
    gateTermId: -1,
    corrections: [],
    ignoredWords: [],
    unknownWords: [],
    whyUnknown: {},
    words: [],
  };
}

/** A word a lexical database relates to a query word, and how. */
export interface RelatedWord {
  word: string;
  relation: 'synonym' | 'broader';
}

/**
 * What a reader may know of a language besides the catalog: each is a plain look-up, so the data
 * can come from files (Node, `node/language-data.ts`), a bundle, or nowhere (`NO_LANGUAGE_DATA`).
 */
export interface LanguageData {
  /** Whether a lower-case word is everyday English (a dictionary or subtitle word). */
  isEnglishWord(word: string): boolean;
  /** How common a word is in English: log10 of its occurrences per billion words, 0 if unknown. */
  englishZipf(word: string): number;
  /** Whether a word, or two joined by one space (`san francisco`), names what a task is about (a place, a language, a day), never a service. */
  isSubjectName(word: string): boolean;
  /** Whether a word, or two joined by one space, names a place of any size (`darwin`), a subject name or not. */
  isPlaceName(word: string): boolean;
  /** Whether a word is a top-level domain (`com`, `io`): `name.tld` is then an address. */
  isTopLevelDomain(word: string): boolean;
  /** Whether a word, or two joined by one space (`google docs`), is the name of a known app or company. */
  isKnownApp(word: string): boolean;
  /** Whether two words written together are a known app's name (`survey` + `monkey`). */
  isKnownAppJoined(first: string, second: string): boolean;
  /**
   * Whether a word names a phone app in a community icon pack: many more apps than the brand
   * lists of `isKnownApp`, with generic words among them (`wifi`, `todo`), so weaker evidence.
   */
  isAppIconName(word: string): boolean;
  /**
   * Whether some two-word known app or subject name starts with this word (`google`, `san`): the
   * pairs worth looking up whole.
   */
  startsTwoWordName(word: string): boolean;
  /** Words related to a word (synonyms, broader words). */
  relatedWords(word: string): readonly RelatedWord[];
  /**
   * Whether an English word names a thing (an animal, a plant, an object, a food, a substance) and
   * never a place or a time: where a service is named, `in my lemur` is an app, `in my area` not.
   */
  namesAThing(word: string): boolean;
  /**
   * Whether a name's commonest sense (lower-case, words spaced) is a place (`park`: `Zorblat Park`
   * is one) or one particular thing of the world (`alps`, `rocky mountains`), never an app.
   */
  namesAPlace(name: string): boolean;
  /**
   * Whether a word can be a verb: a catalog's actions are words many tool descriptions start
   * with (`Create …`, `List …`), but so are `This …` and `To …`. Without data, any word may be.
   */
  mayBeVerb(word: string): boolean;
  /**
   * Whether a word is a noun as written (`base`), only as an inflection of one (`inflected`:
   * `teammates`), or no noun (`none`: `hot`). Apps are named with nouns in their base form.
   */
  nounForm(word: string): NounForm;
}

/** How a word is a noun (`LanguageData.nounForm`). */
export type NounForm = 'base' | 'inflected' | 'none';

/** No language data: every look-up says no (any word may be a verb). The reader then knows only the catalog. */
export const NO_LANGUAGE_DATA: LanguageData = Object.freeze({
  isEnglishWord: () => false,
  englishZipf: () => 0,
  isSubjectName: () => false,
  isPlaceName: () => false,
  isTopLevelDomain: () => false,
  isKnownApp: () => false,
  isKnownAppJoined: () => false,
  isAppIconName: () => false,
  startsTwoWordName: () => false,
  relatedWords: () => [],
  namesAThing: () => false,
  namesAPlace: () => false,
  mayBeVerb: () => true,
  nounForm: () => 'base',
});

/** Reads one index's queries. */
export interface QueryReader {
  read(query: QueryWords): QueryPlan;
}

/** Makes the reader for one index (its lexicon) under its settings; `extend` makes another. */
export type QueryReaderFactory = (
  lexicon: QueryLexicon,
  settings: Readonly<QueryReaderSettings>,
) => QueryReader;
