import { ToolbridgeError } from '../base/errors.js';
import { escapeRegExp } from '../base/escape-regexp.js';
import { Bm25Index, type Bm25Parameters, SegmentBuilder } from './bm25-index.js';
import type { NameAssociations, QueryLexicon, WordLookUp } from './reading.js';
import { type StemCache, sharedStemCache } from './stem-cache.js';
import { stem } from './stemmer.js';
import { hashRange, type KnownWords, type TokenizerOptions } from './tokenizer.js';
import { DESCRIPTION, FIELD_OF, PARAMETER_DESCRIPTIONS, toolWordsMemo, WHOLE_RUN } from './tool-words.js';
import type { IndexEntry } from './types.js';
import { growInt32 } from './word-table.js';

/**
 * What a query says of tool names: each term's weight in the name match, and the stems of the
 * words counting fully, which also match a name's word by prefix (see {@link ToolCorpus.nameMatch}).
 * One instance is reset for each query; how much each name term counts is worked out once per
 * query, as the same terms recur in the names of the tools ranked.
 */
export class NameQuery {
  private readonly stems: string[] = [];
  // Each stem's {@link prefixKey}, to pass over most name terms without reading their stems.
  private readonly stemKeys: number[] = [];
  // Per term id: its weight in names, valid while its stamp is the current epoch.
  private weights = new Float64Array(0);
  private stamps = new Uint32Array(0);
  private epoch = 0;

  /** Forgets the last query; term ids will be below `termCount`. */
  reset(termCount: number): void {
    if (termCount > this.stamps.length) {
      const size = Math.max(termCount, this.stamps.length * 2);
      this.weights = new Float64Array(size);
      this.stamps = new Uint32Array(size);
      this.epoch = 0;
    }
    this.stems.length = 0;
    this.stemKeys.length = 0;
    this.epoch += 1;
    if (this.epoch === 0xffffffff) {
      this.stamps.fill(0);
      this.epoch = 1;
    }
  }

  /** A query term counting `weight` in names (the highest of a term's weights wins). */
  add(termId: number, stem: string, weight: number): void {
    if (termId >= 0 && weight > this.queriedWeight(termId)) {
      this.weights[termId] = weight;
      this.stamps[termId] = this.epoch;
    }
    if (weight >= 1 && stem.length >= NAME_PREFIX_LENGTH) {
      this.stems.push(stem);
      this.stemKeys.push(prefixKey(stem));
    }
  }

  /**
   * How much a name's term counts: its query weight, else 1 when its stem begins one of the query's
   * stems or one of them begins it, both of {@link NAME_PREFIX_LENGTH} letters or more.
   */
  weightOf(termId: number, corpus: ToolCorpus): number {
    if (this.stamps[termId] === this.epoch) return this.weights[termId]!;
    let weight = 0;
    const key = this.stems.length > 0 ? corpus.prefixKey(termId) : SHORT_STEM;
    if (key !== SHORT_STEM) {
      for (let i = 0; i < this.stems.length && weight === 0; i++) {
        // Stems of which one begins the other begin alike: most are told apart by their keys alone.
        if (this.stemKeys[i] !== key) continue;
        const queryStem = this.stems[i]!;
        const nameStem = corpus.term(termId);
        if (queryStem.startsWith(nameStem) || nameStem.startsWith(queryStem)) weight = 1;
      }
    }
    this.weights[termId] = weight;
    this.stamps[termId] = this.epoch;
    return weight;
  }

  private queriedWeight(termId: number): number {
    return this.stamps[termId] === this.epoch ? this.weights[termId]! : 0;
  }
}

/**
 * The fewest letters of a stem matched by prefix in a name: names join words (`timemachine`,
 * `webhooks`) and derive them (`FinanceTool` for `financial`: Snowball gives `financ` and
 * `financi`). Measured: 3 letters cost the tuned-9 paraphrases a hit@1; 5 gained half as much.
 */
export const NAME_PREFIX_LENGTH = 4;

// The prefix key of a stem shorter than NAME_PREFIX_LENGTH (a longer one's is at least 2²⁸).
const SHORT_STEM = 1;

/**
 * A stem's first {@link NAME_PREFIX_LENGTH} letters as one number (7 bits of each: stems that
 * begin alike have the same key, though stems with the same key may not), or {@link SHORT_STEM}.
 */
function prefixKey(stem: string): number {
  if (stem.length < NAME_PREFIX_LENGTH) return SHORT_STEM;
  let key = 1;
  for (let i = 0; i < NAME_PREFIX_LENGTH; i++) key = (key << 7) | (stem.charCodeAt(i) & 0x7f);
  return key;
}

/**
 * The share of the tools holding a server's own id word that must be that server's for the word
 * to name it. Measured: 2 in 3 to 9 in 10 change the same queries; at a half, `music` (8 of the
 * 13 tools saying it are `livemcp-music-analysis`'s), `trends` and `whois` name their servers in
 * keyword tasks about music, markets and domains and cost dev half A three queries.
 */
const SERVER_WORD_SHARE = 0.8;

/**
 * How much of a word a split name given whole (`createissue` beside `create`, `issue`) adds to its
 * tool's length: it is no word of the name's own, so `createIssue` is about as long as
 * `create_issue`. Measured: 0.5 leaves every set level or better (mixed external +.003, keyword
 * half A +.002, B +.003); 0 (exactly as long) costs agent tuned-9 `twilio list messages`, whose
 * tool drops out of the best 20 among Twilio's near-identical `List…Message` tools.
 */
const WHOLE_RUN_LENGTH = 0.5;

/** The parts of a tool that are indexed, in field-number order. */
export const FIELDS = [
  'name',
  'server',
  'description',
  'parameters',
  'parameterDescriptions',
  'keywords',
] as const;
export type FieldName = (typeof FIELDS)[number];

export interface CorpusSettings {
  tokenizer: Readonly<TokenizerOptions>;
  /** BM25 parameters; `fieldWeights` in {@link FIELDS} order. */
  bm25: Readonly<Bm25Parameters>;
}

/**
 * How a corpus numbers its terms (stems), index-wide, and which words it holds. A build numbers
 * through typed arrays over the stem cache's ids; an extension keeps its new words and stems in
 * small maps and asks the corpus it extends about the rest.
 */
interface TermTable {
  readonly termCount: number;
  /** The term of a stem (stem-cache id), or -1 when no tool holds it. */
  termOfStemId(stemId: number): number;
  /**
   * Whether some tool holds this word (stem-cache id) as written, outside its parameters'
   * descriptions: those cite other services as examples (`e.g. "vercel/ai"`, `tenant.okta.com`),
   * so a word only they hold is scored, but read like a word held only by its stem.
   */
  holdsWordId(wordId: number): boolean;
  /** Whether some tool holds this word as written anywhere, parameter descriptions included. */
  meetsWordId(wordId: number): boolean;
  stemOf(termId: number): string;
  /** Calls `visit` with the id of every word the corpus holds (words of an extension repeat none of its base's). */
  forEachWord(visit: (wordId: number) => void): void;
}

/** Terms of a corpus built from scratch; a segment's local term ids are these ids. */
class BuiltTerms implements TermTable {
  private wordTerms: Int32Array;
  private heldWords: Uint8Array;
  private stemTerms: Int32Array;
  private readonly stems: string[] = [];

  constructor(private readonly cache: StemCache) {
    this.wordTerms = new Int32Array(cache.wordCount + 1024).fill(-1);
    this.heldWords = new Uint8Array(this.wordTerms.length);
    this.stemTerms = new Int32Array(cache.stemCount + 1024).fill(-1);
  }

  get termCount(): number {
    return this.stems.length;
  }

  /** The term of a word, numbered on first sight; `held`: met outside parameter descriptions. */
  termOfWord(wordId: number, held: boolean): number {
    if (wordId >= this.wordTerms.length) {
      this.wordTerms = growFilled(this.wordTerms, wordId + 1);
      const grown = new Uint8Array(this.wordTerms.length);
      grown.set(this.heldWords);
      this.heldWords = grown;
    }
    if (held) this.heldWords[wordId] = 1;
    let term = this.wordTerms[wordId]!;
    if (term < 0) {
      const stemId = this.cache.stemIdOf(wordId);
      if (stemId >= this.stemTerms.length) this.stemTerms = growFilled(this.stemTerms, stemId + 1);
      term = this.stemTerms[stemId]!;
      if (term < 0) {
        term = this.stems.length;
        this.stems.push(this.cache.stem(stemId));
        this.stemTerms[stemId] = term;
      }
      this.wordTerms[wordId] = term;
    }
    return term;
  }

  termOfStemId(stemId: number): number {
    return stemId >= 0 && stemId < this.stemTerms.length ? this.stemTerms[stemId]! : -1;
  }

  holdsWordId(wordId: number): boolean {
    return wordId >= 0 && wordId < this.heldWords.length && this.heldWords[wordId] === 1;
  }

  meetsWordId(wordId: number): boolean {
    return wordId >= 0 && wordId < this.wordTerms.length && this.wordTerms[wordId]! >= 0;
  }

  forEachWord(visit: (wordId: number) => void): void {
    for (let wordId = 0; wordId < this.heldWords.length; wordId++)
      if (this.heldWords[wordId] === 1) visit(wordId);
  }

  stemOf(termId: number): string {
    return this.stems[termId] ?? '';
  }
}

/** Terms of an extension: its new words and stems, then the extended corpus's. */
class ExtendedTerms implements TermTable {
  private readonly words = new Map<number, number>();
  /** Its words met outside parameter descriptions (see `TermTable.holdsWordId`). */
  private readonly heldWords = new Set<number>();
  private readonly stems = new Map<number, number>();
  private readonly newStems: string[] = [];
  /** Index-wide term id → the extension segment's local id, and back. */
  readonly localOf = new Map<number, number>();
  private readonly globals: number[] = [];

  constructor(
    private readonly cache: StemCache,
    private readonly base: TermTable,
  ) {}

  get termCount(): number {
    return this.base.termCount + this.newStems.length;
  }

  /** The segment-local term of a word; `held`: met outside parameter descriptions. */
  termOfWord(wordId: number, held: boolean): number {
    if (held) this.heldWords.add(wordId);
    let term = this.words.get(wordId);
    if (term === undefined) {
      const stemId = this.cache.stemIdOf(wordId);
      term = this.termOfStemId(stemId);
      if (term < 0) {
        term = this.termCount;
        this.newStems.push(this.cache.stem(stemId));
        this.stems.set(stemId, term);
      }
      this.words.set(wordId, term);
    }
    let local = this.localOf.get(term);
    if (local === undefined) {
      local = this.globals.length;
      this.globals.push(term);
      this.localOf.set(term, local);
    }
    return local;
  }

  globalOf(local: number): number {
    return this.globals[local]!;
  }

  termOfStemId(stemId: number): number {
    return this.stems.get(stemId) ?? this.base.termOfStemId(stemId);
  }

  holdsWordId(wordId: number): boolean {
    return this.heldWords.has(wordId) || this.base.holdsWordId(wordId);
  }

  meetsWordId(wordId: number): boolean {
    return this.words.has(wordId) || this.base.meetsWordId(wordId);
  }

  forEachWord(visit: (wordId: number) => void): void {
    this.base.forEachWord(visit);
    for (const wordId of this.heldWords) if (!this.base.holdsWordId(wordId)) visit(wordId);
  }

  stemOf(termId: number): string {
    const own = termId - this.base.termCount;
    return own >= 0 ? (this.newStems[own] ?? '') : this.base.stemOf(termId);
  }
}

interface CorpusPartData {
  firstDoc: number;
  names: readonly string[];
  /** Each tool's server id ('' when it has none). */
  servers: readonly string[];
  /** Each tool's description as given ('' when it has none), for the names it writes. */
  descriptions: readonly string[];
  /** Term → how many of these tools' descriptions start with it. */
  leads: ReadonlyMap<number, number>;
  /** Tool d's name terms are nameTerms[nameStarts[d − firstDoc] .. nameStarts[d − firstDoc + 1]). */
  nameStarts: Uint32Array;
  nameTerms: Uint32Array;
}

/** The tools of one build or extension: names, servers, and each tool's distinct name terms. */
class CorpusPart implements CorpusPartData {
  private exactNames: Map<string, number[]> | undefined;
  // Words these descriptions write as names, capitalized inside a sentence (on first use); a
  // part is shared by every index extended from it, so each part reads its own once.
  private writtenNames: Set<string> | undefined;
  // The longest of those names: a longer query names none of them (most queries are longer).
  private longestName = 0;
  // The first characters of those names: a query starting otherwise names none of them either.
  private readonly firstCharacters = new Set<number>();
  readonly firstDoc: number;
  readonly names: readonly string[];
  readonly servers: readonly string[];
  readonly descriptions: readonly string[];
  readonly leads: ReadonlyMap<number, number>;
  readonly nameStarts: Uint32Array;
  readonly nameTerms: Uint32Array;

  constructor(data: CorpusPartData) {
    this.firstDoc = data.firstDoc;
    this.names = data.names;
    this.servers = data.servers;
    this.descriptions = data.descriptions;
    this.leads = data.leads;
    this.nameStarts = data.nameStarts;
    this.nameTerms = data.nameTerms;
  }

  holds(doc: number): boolean {
    return doc >= this.firstDoc && doc < this.firstDoc + this.names.length;
  }

  namesWritten(): ReadonlySet<string> {
    if (this.writtenNames === undefined) {
      this.writtenNames = new Set();
      for (const description of this.descriptions) {
        for (const match of description.matchAll(NAME_INSIDE_SENTENCE))
          this.writtenNames.add(match[1]!.toLowerCase());
      }
    }
    return this.writtenNames;
  }

  /** Tools whose trimmed, lower-cased name is `key` (built on first use). */
  exact(key: string): readonly number[] {
    if (this.exactNames === undefined) {
      this.exactNames = new Map();
      this.names.forEach((name, i) => {
        const own = name.trim().toLowerCase();
        this.longestName = Math.max(this.longestName, own.length);
        this.firstCharacters.add(own.charCodeAt(0));
        const same = this.exactNames!.get(own);
        if (same === undefined) this.exactNames!.set(own, [this.firstDoc + i]);
        else same.push(this.firstDoc + i);
      });
    }
    if (key.length > this.longestName || !this.firstCharacters.has(key.charCodeAt(0))) return NO_DOCS;
    return this.exactNames.get(key) ?? NO_DOCS;
  }
}

const NO_DOCS: readonly number[] = Object.freeze([]);

/** Reads entries into a segment builder; shared by a build and an extension. */
function readEntries(
  entries: readonly IndexEntry[],
  settings: CorpusSettings,
  cache: StemCache,
  termOfWord: (wordId: number, held: boolean) => number,
  globalOf: (local: number) => number,
  where: string,
): Omit<CorpusPartData, 'firstDoc'> & { builder: SegmentBuilder } {
  const weights = settings.bm25.fieldWeights;
  const memo = toolWordsMemo(cache, settings.tokenizer, weights[PARAMETER_DESCRIPTIONS] !== 0);
  memo.startReading();
  const names = new Array<string>(entries.length);
  const servers = new Array<string>(entries.length);
  const descriptions = new Array<string>(entries.length);
  const leads = new Map<number, number>();
  const nameStarts = new Uint32Array(entries.length + 1);
  let nameTerms = new Uint32Array(entries.length * 4 + 16);
  let nameCount = 0;
  // Every tool's words first, so the segment is sized for them (growing copies its arrays).
  const tools = new Int32Array(entries.length);
  let triples = 0;
  for (let doc = 0; doc < entries.length; doc++) {
    const entry = entries[doc]!;
    const name = entry?.name;
    if (typeof name !== 'string' || name.trim() === '') {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `${where}[${doc}].name must be a non-empty string (the tool's full agent-facing name).`,
      );
    }
    names[doc] = name;
    servers[doc] = typeof entry.server === 'string' ? entry.server : '';
    descriptions[doc] = typeof entry.description === 'string' ? entry.description : '';
    const tool = memo.wordsOf(entry);
    tools[doc] = tool;
    triples += (memo.end(tool) - memo.start(tool)) / 3;
  }
  const builder = new SegmentBuilder(FIELDS.length, settings.bm25, entries.length, triples);
  const { words } = memo;
  for (let doc = 0; doc < entries.length; doc++) {
    const tool = tools[doc]!;
    const nameStart = nameCount;
    const nameEnd = memo.nameEnd(tool);
    let leadCounted = false;
    for (let i = memo.start(tool), end = memo.end(tool); i < end; i += 3) {
      const field = words[i + 1]! & FIELD_OF;
      // A field of weight 0 has no say at all: its words are not even the index's words.
      if (weights[field] === 0) continue;
      const local = termOfWord(words[i]!, field !== PARAMETER_DESCRIPTIONS);
      const whole = (words[i + 1]! & WHOLE_RUN) !== 0;
      builder.add(local, field, words[i + 2]!, whole ? WHOLE_RUN_LENGTH : 1);
      if (field === DESCRIPTION && !leadCounted) {
        // A description's first word: mostly the tool's action (`Create`, `List`, `Send`).
        leadCounted = true;
        const term = globalOf(local);
        leads.set(term, (leads.get(term) ?? 0) + 1);
      }
      // A split name given whole (`newstool` after `news`, `tool`) repeats the name's words: it
      // would only dilute how much of the name a query says.
      if (i >= nameEnd || whole) continue;
      // The tool's distinct name terms, for the name-match boost.
      const term = globalOf(local);
      let seen = false;
      for (let j = nameStart; j < nameCount && !seen; j++) seen = nameTerms[j] === term;
      if (seen) continue;
      if (nameCount === nameTerms.length) {
        const grown = new Uint32Array(nameTerms.length * 2);
        grown.set(nameTerms);
        nameTerms = grown;
      }
      nameTerms[nameCount++] = term;
    }
    nameStarts[doc + 1] = nameCount;
    builder.endDocument();
  }
  return {
    names,
    servers,
    descriptions,
    leads,
    nameStarts,
    nameTerms: nameTerms.slice(0, nameCount),
    builder,
  };
}

// A capitalized word after a letter or digit, a comma or a closing bracket and a space: not a
// sentence's first word (`… on Twitter`, `… Microsoft's`, not `Linear scale.` after a full stop).
const NAME_INSIDE_SENTENCE = /(?<=[\p{L}\p{N},;)'"] )(\p{Lu}[\p{L}\p{N}]*)/gu;

const MAX_REMEMBERED_PHRASES = 10_000;

// Each server id's words, split once.
const serverIdCache = new Map<string, string[]>();

/** A server id's words: `cloudflare-api` → `cloudflare`, `api`. */
export function serverIdWords(server: string): readonly string[] {
  let words = serverIdCache.get(server);
  if (words === undefined) {
    words = server.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    if (serverIdCache.size > 10_000) serverIdCache.clear();
    serverIdCache.set(server, words);
  }
  return words;
}

/**
 * Everything an index knows about its tools: their BM25 postings and statistics, their names and
 * name terms, and the words and stems they hold. `extend` adds tools as a new part, leaving this
 * one as it is, so its cost follows the number of tools added.
 */
export class ToolCorpus implements QueryLexicon {
  // The corpus's words by first letter and length, for typo correction (built on first use).
  private wordGroups: Map<string, string[]> | undefined;
  // Each word of its server ids → the one server whose id holds it, or '' when several do (on first use).
  private serverWords: Map<string, string> | undefined;
  // Server-id word → the server it names (see `serverNamedBy`), or '' for none (on first ask).
  private namedServers: Map<string, string> | undefined;
  // How many tools have each term in their names (on first use).
  private nameCounts: Map<number, number> | undefined;
  // Two words joined by a space → whether some tool holds them next to each other (on first ask).
  private readonly phrases = new Map<string, boolean>();
  // Each term's `prefixKey` by term id, worked out on first ask (0: not yet).
  private prefixKeys = new Int32Array(0);
  // Scratch space of `namesWith`: a count per term id, all 0 between calls.
  private nameTermCounts = new Int32Array(0);
  // Scratch space of `someToolHolds`: a count per tool, all 0 between calls.
  private heldCounts = new Uint16Array(0);
  // The words that could be one edit from a word, by its first letter and length (on first use).
  private nearWords = new Map<string, readonly string[]>();

  private constructor(
    private readonly cache: StemCache,
    private readonly settings: CorpusSettings,
    private readonly terms: TermTable,
    private readonly parts: readonly CorpusPart[],
    readonly bm25: Bm25Index,
  ) {}

  static build(entries: readonly IndexEntry[], settings: CorpusSettings): ToolCorpus {
    const cache = sharedStemCache();
    const terms = new BuiltTerms(cache);
    const { builder, ...read } = readEntries(
      entries,
      settings,
      cache,
      (word, held) => terms.termOfWord(word, held),
      (local) => local,
      'createToolIndex: entries',
    );
    const segment = builder.build(0, null);
    const part = new CorpusPart({ firstDoc: 0, ...read });
    return new ToolCorpus(cache, settings, terms, [part], new Bm25Index([segment], settings.bm25));
  }

  /** A query word as the stem cache holds it (see `KnownWords`): every index's words are there. */
  readonly knownWord: KnownWords = (text, start, end, hash) => this.cache.knownWord(text, start, end, hash);

  /** This corpus followed by `entries`, ranked as one (N, average length and df include them). */
  extend(entries: readonly IndexEntry[]): ToolCorpus {
    const terms = new ExtendedTerms(this.cache, this.terms);
    const { builder, ...read } = readEntries(
      entries,
      this.settings,
      this.cache,
      (word, held) => terms.termOfWord(word, held),
      (local) => terms.globalOf(local),
      'extend: extra',
    );
    const segment = builder.build(this.size, terms.localOf);
    const part = new CorpusPart({ firstDoc: this.size, ...read });
    return new ToolCorpus(this.cache, this.settings, terms, [...this.parts, part], this.bm25.extend(segment));
  }

  get size(): number {
    return this.bm25.documentCount;
  }

  /** How many distinct terms (stems) the tools hold: every term id is below it. */
  get termCount(): number {
    return this.terms.termCount;
  }

  name(doc: number): string {
    const part = this.partOf(doc);
    return part.names[doc - part.firstDoc]!;
  }

  /** The tool's server id ('' when it has none). */
  server(doc: number): string {
    const part = this.partOf(doc);
    return part.servers[doc - part.firstDoc]!;
  }

  /** How many tools' descriptions start with this term: the catalog's action words lead many. */
  descriptionLeads(termId: number): number {
    let count = 0;
    for (const part of this.parts) count += part.leads.get(termId) ?? 0;
    return count;
  }

  /** Tools whose whole name, trimmed and lower-cased, is `key`, in catalog order. */
  exactMatches(key: string): readonly number[] {
    if (this.parts.length === 1) return this.parts[0]!.exact(key);
    return this.parts.flatMap((part) => part.exact(key));
  }

  /**
   * Share of the tool's distinct name terms that the query says: each query term at its weight in
   * names, and each other one that begins with a fully counted query stem or begins one, of
   * at least {@link NAME_PREFIX_LENGTH} letters both, as 1 (`timemachine` says `time`,
   * `FinanceTool`'s `financ` is said by `financial`'s `financi`).
   */
  nameMatch(doc: number, queried: NameQuery): number {
    const part = this.partOf(doc);
    const start = part.nameStarts[doc - part.firstDoc]!;
    const end = part.nameStarts[doc - part.firstDoc + 1]!;
    if (end === start) return 0;
    let found = 0;
    for (let i = start; i < end; i++) found += queried.weightOf(part.nameTerms[i]!, this);
    return found / (end - start);
  }

  /**
   * The tools holding the term other than in their names, and how many of those have each name
   * term: which names a description word goes with (`edit` in the text of tools named `update_…`).
   */
  namesWith(termId: number): NameAssociations {
    // Counted by term id in a reused array, zeroed again after: a map per word cost a query that
    // reads new words (a fresh index's first pass) about a twentieth of its time.
    if (this.nameTermCounts.length < this.terms.termCount)
      this.nameTermCounts = new Int32Array(this.terms.termCount);
    const counted = this.nameTermCounts;
    const terms: number[] = [];
    let tools = 0;
    this.bm25.forEachDocument(termId, (doc) => {
      const part = this.partOf(doc);
      const start = part.nameStarts[doc - part.firstDoc]!;
      const end = part.nameStarts[doc - part.firstDoc + 1]!;
      for (let i = start; i < end; i++) if (part.nameTerms[i] === termId) return;
      tools += 1;
      for (let i = start; i < end; i++) {
        const term = part.nameTerms[i]!;
        const before = counted[term]!;
        if (before === 0) terms.push(term);
        counted[term] = before + 1;
      }
    });
    const counts = terms.map((term) => counted[term]!);
    for (const term of terms) counted[term] = 0;
    return { tools, terms, counts };
  }

  /** Whether one tool holds at least `atLeast` of these terms. */
  someToolHolds(termIds: readonly number[], atLeast: number): boolean {
    const df = (termId: number) => this.bm25.documentFrequency(termId);
    const terms = [...new Set(termIds)].sort((a, b) => df(a) - df(b));
    if (atLeast <= 0) return true;
    if (atLeast > terms.length) return false;
    // Such a tool holds one of the rarest `terms.length − atLeast + 1`: only their postings are
    // walked (a long task's common terms reach most tools), the rest looked up per candidate.
    const walked = terms.length - atLeast + 1;
    if (this.heldCounts.length < this.size) this.heldCounts = new Uint16Array(this.size);
    const held = this.heldCounts;
    const candidates: number[] = [];
    for (let k = 0; k < walked; k++) {
      this.bm25.forEachDocument(terms[k]!, (doc) => {
        if (held[doc] === 0) candidates.push(doc);
        held[doc] = held[doc]! + 1;
      });
    }
    let found = false;
    for (const doc of candidates) {
      let count = held[doc]!;
      for (let k = walked; k < terms.length && !found && count + terms.length - k >= atLeast; k++) {
        if (this.bm25.termFrequency(terms[k]!, doc) > 0) count++;
      }
      if (count >= atLeast) found = true;
      held[doc] = 0;
    }
    return found;
  }

  /**
   * Whether some tool's description writes the lower-case word as a name, capitalized inside a
   * sentence (`Search tweets on Twitter`), not only as a common word (`a linear scale`).
   */
  writesAsName(word: string): boolean {
    return this.parts.some((part) => part.namesWritten().has(word));
  }

  /**
   * Whether some tool's name or description holds the two words next to each other (`Microsoft
   * Teams`, `microsoft_teams`, `MicrosoftTeams`), not only each somewhere in a long text.
   */
  holdsPhrase(first: string, second: string): boolean {
    const key = `${first} ${second}`;
    let held = this.phrases.get(key);
    if (held === undefined) {
      const firstTerm = this.lookUp(first).termId;
      const secondTerm = this.lookUp(second).termId;
      held = false;
      if (firstTerm >= 0 && secondTerm >= 0) {
        const adjacent = new RegExp(
          `(?<![a-z0-9])${escapeRegExp(first)}[\\s_./-]?${escapeRegExp(second)}`,
          'i',
        );
        const withFirst = new Set<number>();
        this.bm25.forEachDocument(firstTerm, (doc) => withFirst.add(doc));
        this.bm25.forEachDocument(secondTerm, (doc) => {
          if (held || !withFirst.has(doc)) return;
          const part = this.partOf(doc);
          const own = doc - part.firstDoc;
          held = adjacent.test(part.names[own]!) || adjacent.test(part.descriptions[own]!);
        });
      }
      if (this.phrases.size >= MAX_REMEMBERED_PHRASES) this.phrases.clear();
      this.phrases.set(key, held);
    }
    return held;
  }

  /** How many tools have the term in their names. */
  nameFrequency(termId: number): number {
    if (this.nameCounts === undefined) {
      const counts = new Map<number, number>();
      for (const part of this.parts)
        for (const term of part.nameTerms) counts.set(term, (counts.get(term) ?? 0) + 1);
      this.nameCounts = counts;
    }
    return this.nameCounts.get(termId) ?? 0;
  }

  /** The term id of a stem, or -1 when no tool holds it. */
  termId(stem: string): number {
    return this.terms.termOfStemId(this.cache.findStem(stem));
  }

  lookUp(word: string): WordLookUp {
    // A word indexed before (by any index) has its stem in the word table: no stemming, no map.
    const wordId = this.wordIdOf(word);
    if (wordId >= 0) {
      const stemId = this.cache.stemIdOf(wordId);
      return {
        stem: this.cache.stem(stemId),
        termId: this.terms.termOfStemId(stemId),
        held: this.terms.holdsWordId(wordId),
      };
    }
    const stemmed = stem(word);
    return { stem: stemmed, termId: this.termId(stemmed), held: false };
  }

  documentFrequency(termId: number): number {
    return this.bm25.documentFrequency(termId);
  }

  /** The stem of a term id. */
  term(termId: number): string {
    return this.terms.stemOf(termId);
  }

  /** The {@link prefixKey} of a term's stem: kept, so a name match rarely reads the stem itself. */
  prefixKey(termId: number): number {
    if (termId >= this.prefixKeys.length) this.prefixKeys = growInt32(this.prefixKeys, this.terms.termCount);
    let key = this.prefixKeys[termId]!;
    if (key === 0) {
      key = prefixKey(this.terms.stemOf(termId));
      this.prefixKeys[termId] = key;
    }
    return key;
  }

  /**
   * The corpus's words that could be one edit from `word`: same first letter, length within one
   * (grouped on first use, so a typo is checked against a few hundred words, not all of them).
   */
  wordsNear(word: string): readonly string[] {
    const key = `${word[0]}${word.length}`;
    let near = this.nearWords.get(key);
    if (near === undefined) {
      if (this.wordGroups === undefined) {
        const groups = new Map<string, string[]>();
        this.terms.forEachWord((wordId) => {
          const held = this.cache.word(wordId);
          const heldKey = `${held[0]}${held.length}`;
          const group = groups.get(heldKey);
          if (group === undefined) groups.set(heldKey, [held]);
          else group.push(held);
        });
        this.wordGroups = groups;
      }
      const groups = this.wordGroups;
      near = [word.length - 1, word.length, word.length + 1].flatMap(
        (length) => groups.get(`${word[0]}${length}`) ?? [],
      );
      this.nearWords.set(key, near);
    }
    return near;
  }

  /** Whether only parameter descriptions hold the word as written (`LeetCode username`). */
  citesOnlyInParameters(word: string): boolean {
    const wordId = this.wordIdOf(word);
    return this.terms.meetsWordId(wordId) && !this.terms.holdsWordId(wordId);
  }

  /** Whether some tool holds this lower-case word exactly as written (not just its stem). */
  holdsWord(word: string): boolean {
    return this.terms.holdsWordId(this.wordIdOf(word));
  }

  /** The process-wide id of a lower-case word, or −1 when no text has it. */
  private wordIdOf(word: string): number {
    return this.cache.findWord(word, hashRange(word, 0, word.length));
  }

  /** Whether the word is one of a server id's words (`github`, `cloudflare` and `api` of `cloudflare-api`). */
  isServerWord(word: string): boolean {
    return this.serverIdWordOwners().has(word);
  }

  /**
   * The server a word names on its own: the word is in that server's id and no other's, and at
   * least {@link SERVER_WORD_SHARE} of the tools holding it are that server's (`slack` of
   * `slack-web-api`, `twilio`, `docker`); '' when none. `cloudflare` (four servers' ids), `finance`
   * or `design` (most tools saying them are other servers') name none.
   */
  serverNamedBy(word: string): string {
    const owner = this.serverIdWordOwners().get(word);
    if (owner === undefined || owner === '') return '';
    this.namedServers ??= new Map();
    let named = this.namedServers.get(word);
    if (named === undefined) {
      let own = 0;
      const termId = this.lookUp(word).termId;
      this.bm25.forEachDocument(termId, (doc) => {
        if (this.server(doc) === owner) own += 1;
      });
      const holding = this.bm25.documentFrequency(termId);
      named = holding > 0 && own >= SERVER_WORD_SHARE * holding ? owner : '';
      this.namedServers.set(word, named);
    }
    return named;
  }

  private serverIdWordOwners(): Map<string, string> {
    if (this.serverWords === undefined) {
      this.serverWords = new Map();
      for (const part of this.parts) {
        for (const server of new Set(part.servers)) {
          for (const id of new Set(serverIdWords(server))) {
            const owner = this.serverWords.get(id);
            this.serverWords.set(id, owner === undefined || owner === server ? server : '');
          }
        }
      }
    }
    return this.serverWords;
  }

  private partOf(doc: number): CorpusPart {
    const parts = this.parts;
    for (let i = parts.length - 1; i > 0; i--) if (doc >= parts[i]!.firstDoc) return parts[i]!;
    return parts[0]!;
  }
}

/** A copy of `array` with room for index `needed`, new slots -1. */
function growFilled(array: Int32Array, size: number): Int32Array {
  const grown = growInt32(array, size);
  grown.fill(-1, array.length);
  return grown;
}
