/**
 * BM25 over compact postings (reference §1.3). Terms and documents are integers; each term's
 * postings are one slice of two typed arrays (document ids ascending, weighted term frequencies),
 * so a search walks flat memory and allocates nothing.
 *
 * An index is one or more segments: a build makes one, and `Bm25Index.extend` adds one over more
 * documents without touching the first. Corpus statistics (N, average length, document
 * frequencies) always cover every segment, so an extended index scores exactly as one built over
 * all the documents at once.
 */

export interface Bm25Parameters {
  k1: number;
  b: number;
  /** How much one occurrence counts in each field (index = field number). */
  fieldWeights: readonly number[];
  /**
   * `document`: one bag of words per document, length-normalised as a whole (plain BM25).
   * `field`: each field length-normalised on its own, then weighted and summed (BM25F).
   */
  lengthNormalization: 'document' | 'field';
}

// A (term, field) key is term << FIELD_BITS | field: at most 8 fields.
const FIELD_BITS = 3;
const FIELD_MASK = (1 << FIELD_BITS) - 1;

/**
 * The postings of consecutive documents `[firstDoc, firstDoc + documentCount)`. Terms are
 * numbered locally; `termIndex` maps an index-wide term id to the local one (null: the same).
 */
export class PostingSegment {
  constructor(
    readonly firstDoc: number,
    /** Per local document, its weighted length (0 under BM25F, where lengths are folded into tf). */
    readonly documentLengths: Float64Array,
    /** Local term t's postings are docs/frequencies[starts[t] .. starts[t + 1]). */
    readonly starts: Uint32Array,
    readonly docs: Uint32Array,
    readonly frequencies: Float64Array,
    private readonly termIndex: ReadonlyMap<number, number> | null,
  ) {}

  get documentCount(): number {
    return this.documentLengths.length;
  }

  holds(doc: number): boolean {
    return doc >= this.firstDoc && doc < this.firstDoc + this.documentLengths.length;
  }

  /** The segment's own number for an index-wide term id, or -1 when none of its documents holds it. */
  local(termId: number): number {
    if (termId < 0) return -1;
    if (this.termIndex === null) return termId < this.starts.length - 1 ? termId : -1;
    return this.termIndex.get(termId) ?? -1;
  }
}

/**
 * Collects the documents of one segment, one field's word counts at a time, then builds its
 * postings. Terms are local ids from 0, in any order the caller likes.
 *
 * Plain BM25 folds the fields into one frequency per term as they come, so the postings follow
 * from one counting sort. BM25F must wait for every field's average length, so it keeps counts
 * per (term, field) and folds them at the end.
 */
export class SegmentBuilder {
  private readonly perField: boolean;
  private readonly weights: Float64Array;
  // Per document, its distinct keys — a term, or (term, field) under BM25F — and their
  // frequencies, flattened; docStarts[d] is where document d begins.
  private keys: Uint32Array;
  private frequencies: Float64Array;
  private keyCount = 0;
  private docStarts: Uint32Array;
  private documentCount = 0;
  private documentLengths: Float64Array;
  // The open document: where its keys start, and its weighted length so far.
  private openStart = 0;
  private openLength = 0;
  /** BM25F only: words per field per document (document d, field f at d × fieldCount + f). */
  private fieldLengths: Float64Array;
  // Where each key's frequency is in the open document (valid while it is ≥ the document's start).
  private slots = new Int32Array(1024).fill(-1);
  // Documents holding each term, counted under plain BM25 as keys appear.
  private postingCounts = new Uint32Array(1024);
  private termCount = 0;

  constructor(
    private readonly fieldCount: number,
    private readonly parameters: Readonly<Bm25Parameters>,
    expectedDocuments = 0,
    /** How many distinct (document, word) pairs are coming, when known: keys are at most that many. */
    expectedKeys = 0,
  ) {
    if (fieldCount > FIELD_MASK + 1) throw new RangeError(`SegmentBuilder: at most ${FIELD_MASK + 1} fields`);
    this.perField = parameters.lengthNormalization === 'field';
    this.weights = Float64Array.from(
      { length: fieldCount },
      (_, field) => parameters.fieldWeights[field] ?? 0,
    );
    const documents = Math.max(expectedDocuments, 16);
    // Else about 20 distinct words a tool: room for most catalogs without growing.
    const keys = expectedKeys > 0 ? expectedKeys + 1 : documents * 24;
    this.keys = new Uint32Array(keys);
    this.frequencies = new Float64Array(keys);
    this.docStarts = new Uint32Array(documents + 1);
    this.documentLengths = new Float64Array(documents);
    this.fieldLengths = new Float64Array(this.perField ? documents * fieldCount : 0);
  }

  /**
   * `count` occurrences of a local term in a field of the open document; they add `lengthShare` of
   * their count to its length (document normalisation only).
   */
  add(term: number, field: number, count: number, lengthShare = 1): void {
    const weight = this.weights[field]!;
    if (weight === 0) return;
    if (term >= this.termCount) this.reserveTerms(term + 1);
    if (this.perField) {
      this.addKey((term << FIELD_BITS) | field, count);
    } else {
      const frequency = weight * count;
      this.openLength += frequency * lengthShare;
      if (this.addKey(term, frequency)) this.postingCounts[term]! += 1;
    }
  }

  /** Adds to the open document's count for `key`; true when the key is new to it. */
  private addKey(key: number, frequency: number): boolean {
    const at = this.slots[key]!;
    if (at >= this.openStart && this.keys[at] === key) {
      this.frequencies[at]! += frequency;
      return false;
    }
    if (this.keyCount === this.keys.length) this.reserveKeys();
    this.slots[key] = this.keyCount;
    this.keys[this.keyCount] = key;
    this.frequencies[this.keyCount] = frequency;
    this.keyCount += 1;
    return true;
  }

  /** Closes the open document. */
  endDocument(): void {
    const doc = this.documentCount;
    if (this.perField) {
      const base = doc * this.fieldCount;
      for (let k = this.openStart; k < this.keyCount; k++) {
        this.fieldLengths[base + (this.keys[k]! & FIELD_MASK)]! += this.frequencies[k]!;
      }
    }
    this.documentLengths[doc] = this.openLength;
    this.openLength = 0;
    this.documentCount = doc + 1;
    if (this.documentCount === this.documentLengths.length) this.reserveDocuments();
    this.docStarts[this.documentCount] = this.keyCount;
    this.openStart = this.keyCount;
  }

  /**
   * The segment's postings, its documents numbered from `firstDoc`. `termIndex` maps index-wide
   * term ids to the local ids given to `add` (null when they are the same).
   */
  build(firstDoc: number, termIndex: ReadonlyMap<number, number> | null): PostingSegment {
    const documentCount = this.documentCount;
    const termCount = this.termCount;
    let terms: Uint32Array = this.keys;
    let frequencies: Float64Array = this.frequencies;
    let docStarts: Uint32Array = this.docStarts;
    let postingCounts: Uint32Array = this.postingCounts;
    const lengths = this.documentLengths.slice(0, documentCount);
    if (this.perField) {
      ({ terms, frequencies, docStarts, postingCounts } = this.foldFields());
      lengths.fill(0);
    }

    // Counting sort of the (document, term) pairs by term: each term's postings stay in document order.
    const postingStarts = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) postingStarts[t + 1] = postingStarts[t]! + postingCounts[t]!;
    const pairCount = docStarts[documentCount]!;
    const cursor = postingStarts.slice(0, termCount);
    const postingDocs = new Uint32Array(pairCount);
    const postingFrequencies = new Float64Array(pairCount);
    for (let doc = 0; doc < documentCount; doc++) {
      const end = docStarts[doc + 1]!;
      for (let p = docStarts[doc]!; p < end; p++) {
        const term = terms[p]!;
        const slot = cursor[term]!;
        postingDocs[slot] = firstDoc + doc;
        postingFrequencies[slot] = frequencies[p]!;
        cursor[term] = slot + 1;
      }
    }
    return new PostingSegment(firstDoc, lengths, postingStarts, postingDocs, postingFrequencies, termIndex);
  }

  /** BM25F: each document's (term, field) counts, normalised by field length and weighted, summed per term. */
  private foldFields(): {
    terms: Uint32Array;
    frequencies: Float64Array;
    docStarts: Uint32Array;
    postingCounts: Uint32Array;
  } {
    const { fieldCount: fields, documentCount, weights } = this;
    const { b } = this.parameters;
    const norms = new Float64Array(documentCount * fields);
    for (let field = 0; field < fields; field++) {
      let total = 0;
      for (let doc = 0; doc < documentCount; doc++) total += this.fieldLengths[doc * fields + field]!;
      const average = Math.max(total / Math.max(documentCount, 1), 1);
      for (let doc = 0; doc < documentCount; doc++) {
        norms[doc * fields + field] = 1 - b + (b * this.fieldLengths[doc * fields + field]!) / average;
      }
    }
    const sum = new Float64Array(this.termCount);
    const terms = new Uint32Array(this.keyCount);
    const frequencies = new Float64Array(this.keyCount);
    const docStarts = new Uint32Array(documentCount + 1);
    const postingCounts = new Uint32Array(this.termCount);
    let count = 0;
    for (let doc = 0; doc < documentCount; doc++) {
      const first = count;
      for (let k = this.docStarts[doc]!; k < this.docStarts[doc + 1]!; k++) {
        const key = this.keys[k]!;
        const term = key >>> FIELD_BITS;
        const field = key & FIELD_MASK;
        if (sum[term] === 0) terms[count++] = term;
        sum[term]! += (weights[field]! * this.frequencies[k]!) / norms[doc * fields + field]!;
      }
      for (let p = first; p < count; p++) {
        const term = terms[p]!;
        frequencies[p] = sum[term]!;
        sum[term] = 0;
        postingCounts[term]! += 1;
      }
      docStarts[doc + 1] = count;
    }
    return { terms, frequencies, docStarts, postingCounts };
  }

  private reserveTerms(count: number): void {
    this.termCount = count;
    const keys = this.perField ? count << FIELD_BITS : count;
    if (keys > this.slots.length) {
      const grown = new Int32Array(Math.max(keys, this.slots.length * 2)).fill(-1);
      grown.set(this.slots);
      this.slots = grown;
    }
    if (count > this.postingCounts.length) {
      const grown = new Uint32Array(Math.max(count, this.postingCounts.length * 2));
      grown.set(this.postingCounts);
      this.postingCounts = grown;
    }
  }

  private reserveKeys(): void {
    const keys = new Uint32Array(this.keys.length * 2);
    keys.set(this.keys);
    this.keys = keys;
    const frequencies = new Float64Array(this.frequencies.length * 2);
    frequencies.set(this.frequencies);
    this.frequencies = frequencies;
  }

  private reserveDocuments(): void {
    const size = this.documentLengths.length * 2;
    const docStarts = new Uint32Array(size + 1);
    docStarts.set(this.docStarts);
    this.docStarts = docStarts;
    const lengths = new Float64Array(size);
    lengths.set(this.documentLengths);
    this.documentLengths = lengths;
    if (this.perField) {
      const fieldLengths = new Float64Array(size * this.fieldCount);
      fieldLengths.set(this.fieldLengths);
      this.fieldLengths = fieldLengths;
    }
  }
}

/**
 * Scratch space for one search: per-document score, number of distinct query terms matched, the
 * bits of the terms held that asked for them, and whether the document holds the gate term.
 * Stamps make a reset O(1) instead of clearing N slots. One can serve an index and every index
 * extended from it (searches are synchronous).
 */
export class ScoreAccumulator {
  scores: Float64Array;
  coverage: Uint16Array;
  /** Per document, the bits of the terms it holds that asked for them (see `AccumulateFlags.wordBits`). */
  wordBits: Uint32Array;
  touched: Uint32Array;
  touchedCount = 0;
  /** The highest score so far. */
  maxScore = 0;
  /** @internal A document is touched when its stamp is the current epoch (read by {@link Bm25Index.accumulate}). */
  stamps: Uint32Array;
  /** @internal */
  gateStamps: Uint32Array;
  /** @internal */
  epoch = 0;

  constructor(documentCount: number) {
    this.scores = new Float64Array(documentCount);
    this.coverage = new Uint16Array(documentCount);
    this.wordBits = new Uint32Array(documentCount);
    this.touched = new Uint32Array(documentCount);
    this.stamps = new Uint32Array(documentCount);
    this.gateStamps = new Uint32Array(documentCount);
  }

  /** Starts a search over `documentCount` documents, growing the arrays when needed. */
  reset(documentCount = this.scores.length): void {
    if (documentCount > this.scores.length) {
      const size = Math.max(documentCount, this.scores.length * 2);
      this.scores = new Float64Array(size);
      this.coverage = new Uint16Array(size);
      this.wordBits = new Uint32Array(size);
      this.touched = new Uint32Array(size);
      this.stamps = new Uint32Array(size);
      this.gateStamps = new Uint32Array(size);
      this.epoch = 0;
    }
    this.touchedCount = 0;
    this.maxScore = 0;
    this.epoch += 1;
    if (this.epoch === 0xffffffff) {
      this.stamps.fill(0);
      this.gateStamps.fill(0);
      this.epoch = 1;
    }
  }

  /** Whether `doc` was reached by any term since the last reset. */
  isTouched(doc: number): boolean {
    return this.stamps[doc] === this.epoch;
  }

  holdsGate(doc: number): boolean {
    return this.gateStamps[doc] === this.epoch;
  }

  /** @internal Called by {@link Bm25Index.accumulate}. */
  touch(doc: number): void {
    this.stamps[doc] = this.epoch;
    this.scores[doc] = 0;
    this.coverage[doc] = 0;
    this.wordBits[doc] = 0;
    this.touched[this.touchedCount] = doc;
    this.touchedCount += 1;
  }

  /** @internal */
  markGate(doc: number): void {
    this.gateStamps[doc] = this.epoch;
  }
}

export interface AccumulateFlags {
  /** Count this term towards each document's coverage (false for a repeat of a query term). */
  countsForCoverage: boolean;
  /** Remember which documents hold this term (the gate term). */
  isGate: boolean;
  /**
   * Bits to set in {@link ScoreAccumulator.wordBits} of each document holding the term. Unset when
   * no term of the search sets any: the bits are then left as they are, unread.
   */
  wordBits?: number;
}

export class Bm25Index {
  readonly documentCount: number;
  readonly parameters: Readonly<Bm25Parameters>;
  /** Sum of the documents' weighted lengths, added in document order. */
  private readonly totalLength: number;
  // A document's length normalisation is lengthBase + lengthScale × its length (k1 under BM25F).
  private readonly lengthBase: number;
  private readonly lengthScale: number;
  // Each term's best contribution, worked out on first ask (-1: not yet), by term id.
  private maxContributions = new Float64Array(0);

  constructor(
    private readonly segments: readonly PostingSegment[],
    parameters: Readonly<Bm25Parameters>,
    totalLength?: number,
  ) {
    this.parameters = parameters;
    this.documentCount = segments.reduce((sum, segment) => sum + segment.documentCount, 0);
    let total = 0;
    if (totalLength === undefined) {
      for (const segment of segments) for (const length of segment.documentLengths) total += length;
    } else {
      total = totalLength;
    }
    this.totalLength = total;
    const { k1, b } = parameters;
    if (parameters.lengthNormalization === 'field') {
      this.lengthBase = k1;
      this.lengthScale = 0;
    } else {
      const average = Math.max(total / Math.max(this.documentCount, 1), 1);
      this.lengthBase = k1 * (1 - b);
      this.lengthScale = (k1 * b) / average;
    }
  }

  /**
   * This index plus `segment`, whose documents follow this index's: N, the average length and
   * every document frequency then cover both, at a cost that does not depend on this index's size.
   */
  extend(segment: PostingSegment): Bm25Index {
    let total = this.totalLength;
    for (const length of segment.documentLengths) total += length;
    return new Bm25Index([...this.segments, segment], this.parameters, total);
  }

  /** Number of documents holding the term (0 for -1). */
  documentFrequency(termId: number): number {
    let df = 0;
    for (const segment of this.segments) {
      const local = segment.local(termId);
      if (local >= 0) df += segment.starts[local + 1]! - segment.starts[local]!;
    }
    return df;
  }

  /** Calls `visit` with every document holding the term, in document order. */
  forEachDocument(termId: number, visit: (doc: number) => void): void {
    for (const segment of this.segments) {
      const local = segment.local(termId);
      if (local < 0) continue;
      const end = segment.starts[local + 1]!;
      for (let p = segment.starts[local]!; p < end; p++) visit(segment.docs[p]!);
    }
  }

  /** `ln(1 + (N − df + 0.5) / (df + 0.5))`; for an unknown term (-1), the value df = 0 gives. */
  idf(termId: number): number {
    const df = this.documentFrequency(termId);
    return Math.log(1 + (this.documentCount - df + 0.5) / (df + 0.5));
  }

  /** The most this term adds to any one document's score (before a query boost). */
  maxContribution(termId: number): number {
    if (termId < 0) return 0;
    if (termId >= this.maxContributions.length) {
      const grown = new Float64Array(Math.max(termId + 1, this.maxContributions.length * 2)).fill(-1);
      grown.set(this.maxContributions);
      this.maxContributions = grown;
    }
    let best = this.maxContributions[termId]!;
    if (best < 0) {
      best = 0;
      const idf = this.idf(termId);
      for (const segment of this.segments) {
        const local = segment.local(termId);
        if (local < 0) continue;
        const end = segment.starts[local + 1]!;
        for (let p = segment.starts[local]!; p < end; p++) {
          const doc = segment.docs[p]! - segment.firstDoc;
          best = Math.max(best, this.score(idf, segment.frequencies[p]!, segment.documentLengths[doc]!));
        }
      }
      this.maxContributions[termId] = best;
    }
    return best;
  }

  /** Weighted frequency of a term in one document (binary search in its postings). */
  termFrequency(termId: number, doc: number): number {
    for (const segment of this.segments) {
      if (!segment.holds(doc)) continue;
      const local = segment.local(termId);
      if (local < 0) return 0;
      const at = findPosting(segment.docs, segment.starts[local]!, segment.starts[local + 1]!, doc);
      return at < 0 ? 0 : segment.frequencies[at]!;
    }
    return 0;
  }

  /** One query term's BM25 contribution, times `boost`, to one document's score (0 if absent). */
  contribution(termId: number, doc: number, boost = 1): number {
    const tf = this.termFrequency(termId, doc);
    return tf === 0 ? 0 : this.score(this.idf(termId) * boost, tf, this.documentLength(doc));
  }

  /** Adds the term's contribution, times `boost`, to every document holding it. */
  accumulate(termId: number, boost: number, into: ScoreAccumulator, flags: AccumulateFlags): void {
    const idf = this.idf(termId) * boost;
    // The accumulator and `score` written out, so the loop reads nothing but locals and arrays.
    const { scores, coverage, wordBits, touched, stamps, gateStamps, epoch } = into;
    const k1Plus1 = this.parameters.k1 + 1;
    const lengthBase = this.lengthBase;
    const lengthScale = this.lengthScale;
    const covers = flags.countsForCoverage ? 1 : 0;
    const isGate = flags.isGate;
    const marksWords = flags.wordBits !== undefined;
    const bits = flags.wordBits ?? 0;
    let maxScore = into.maxScore;
    let touchedCount = into.touchedCount;
    for (const segment of this.segments) {
      const local = segment.local(termId);
      if (local < 0) continue;
      const { docs, frequencies, documentLengths, firstDoc } = segment;
      const end = segment.starts[local + 1]!;
      for (let p = segment.starts[local]!; p < end; p++) {
        const doc = docs[p]!;
        const tf = frequencies[p]!;
        let score = 0;
        if (stamps[doc] === epoch) {
          score = scores[doc]!;
          coverage[doc]! += covers;
          // Tested in the loop, but the same for every posting: cheaper than the stores it saves.
          if (marksWords) wordBits[doc]! |= bits;
        } else {
          stamps[doc] = epoch;
          touched[touchedCount++] = doc;
          coverage[doc] = covers;
          if (marksWords) wordBits[doc] = bits;
        }
        score += (idf * tf * k1Plus1) / (tf + lengthBase + lengthScale * documentLengths[doc - firstDoc]!);
        scores[doc] = score;
        if (score > maxScore) maxScore = score;
        if (isGate) gateStamps[doc] = epoch;
      }
    }
    into.maxScore = maxScore;
    into.touchedCount = touchedCount;
  }

  /**
   * Adds the term's contribution, times `boost`, only to documents already reached by other
   * terms: cheaper than {@link accumulate} for a term that most documents hold. The postings are
   * walked, skipping the documents not reached, unless they are so many more than those that
   * looking each of those up costs less.
   */
  accumulateTouched(termId: number, boost: number, into: ScoreAccumulator, flags: AccumulateFlags): void {
    const idf = this.idf(termId) * boost;
    const { touched, stamps, epoch } = into;
    for (const segment of this.segments) {
      const local = segment.local(termId);
      if (local < 0) continue;
      const start = segment.starts[local]!;
      const end = segment.starts[local + 1]!;
      if (end - start <= WALK_POSTINGS_PER_LOOKUP * into.touchedCount) {
        for (let at = start; at < end; at++) {
          const doc = segment.docs[at]!;
          if (stamps[doc] === epoch) this.addPosting(segment, at, doc, idf, into, flags);
        }
      } else {
        for (let i = 0; i < into.touchedCount; i++) {
          const doc = touched[i]!;
          if (!segment.holds(doc)) continue;
          const at = findPosting(segment.docs, start, end, doc);
          if (at >= 0) this.addPosting(segment, at, doc, idf, into, flags);
        }
      }
    }
  }

  /** Adds the contribution of posting `at` of `segment` to `doc`, a document already reached. */
  private addPosting(
    segment: PostingSegment,
    at: number,
    doc: number,
    idf: number,
    into: ScoreAccumulator,
    flags: AccumulateFlags,
  ): void {
    const length = segment.documentLengths[doc - segment.firstDoc]!;
    const score = into.scores[doc]! + this.score(idf, segment.frequencies[at]!, length);
    into.scores[doc] = score;
    if (score > into.maxScore) into.maxScore = score;
    if (flags.countsForCoverage) into.coverage[doc]! += 1;
    into.wordBits[doc]! |= flags.wordBits ?? 0;
    if (flags.isGate) into.markGate(doc);
  }

  private documentLength(doc: number): number {
    for (const segment of this.segments) {
      if (segment.holds(doc)) return segment.documentLengths[doc - segment.firstDoc]!;
    }
    return 0;
  }

  private score(idf: number, tf: number, length: number): number {
    return (idf * tf * (this.parameters.k1 + 1)) / (tf + this.lengthBase + this.lengthScale * length);
  }
}

// A binary search in long postings costs about as much as walking this many of them (measured).
const WALK_POSTINGS_PER_LOOKUP = 16;

/** Where `doc` is in `docs[start, end)` (ascending), or -1. */
function findPosting(docs: Uint32Array, start: number, end: number, doc: number): number {
  let low = start;
  let high = end;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = docs[mid]!;
    if (at === doc) return mid;
    if (at < doc) low = mid + 1;
    else high = mid;
  }
  return -1;
}
