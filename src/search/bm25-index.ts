/**
 * BM25 over compact postings (reference §1.3). Terms get integer ids; each term's postings are one
 * slice of two typed arrays (document ids ascending, weighted term frequencies), so a search walks
 * flat memory and allocates nothing.
 */

export interface Bm25Parameters {
  k1: number;
  b: number;
}

/**
 * Collects documents one term occurrence at a time, then builds the index. A document's terms
 * are summed as they come (`add`), so nothing per occurrence is kept.
 */
export class Bm25IndexBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  // Per document, its distinct (term, frequency) pairs, flattened; docStarts[d] is where d begins.
  private pairTerms = new Uint32Array(1024);
  private pairFrequencies = new Float32Array(1024);
  private pairCount = 0;
  private readonly docStarts: number[] = [0];
  private readonly lengths: number[] = [];
  // The open document: frequency per term id, the ids it holds, and its length so far.
  private scratch = new Float64Array(1024);
  private readonly open: number[] = [];
  private openLength = 0;

  get documentCount(): number {
    return this.lengths.length;
  }

  /** The id of `term`, assigned on first sight. */
  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      if (id >= this.scratch.length) {
        const grown = new Float64Array(this.scratch.length * 2);
        grown.set(this.scratch);
        this.scratch = grown;
      }
    }
    return id;
  }

  /** One occurrence of a term in the open document, counting `weight` (its field's weight). */
  add(termId: number, weight: number): void {
    if (this.scratch[termId] === 0) this.open.push(termId);
    this.scratch[termId]! += weight;
    this.openLength += weight;
  }

  /** Closes the open document; returns its id (ids count from 0 in call order). */
  endDocument(): number {
    this.reservePairs(this.open.length);
    for (const id of this.open) {
      this.pairTerms[this.pairCount] = id;
      this.pairFrequencies[this.pairCount] = this.scratch[id]!;
      this.pairCount += 1;
      this.scratch[id] = 0;
    }
    this.open.length = 0;
    this.docStarts.push(this.pairCount);
    this.lengths.push(this.openLength);
    this.openLength = 0;
    return this.lengths.length - 1;
  }

  build(parameters: Bm25Parameters): Bm25Index {
    const termCount = this.terms.length;
    const documentCount = this.lengths.length;
    // Counting sort of the pairs by term: postings stay in document order.
    const postingStarts = new Uint32Array(termCount + 1);
    for (let p = 0; p < this.pairCount; p++) postingStarts[(this.pairTerms[p] ?? 0) + 1]! += 1;
    for (let t = 0; t < termCount; t++) postingStarts[t + 1]! += postingStarts[t]!;
    const cursor = postingStarts.slice(0, termCount);
    const postingDocs = new Uint32Array(this.pairCount);
    const postingFrequencies = new Float32Array(this.pairCount);
    for (let doc = 0; doc < documentCount; doc++) {
      const end = this.docStarts[doc + 1]!;
      for (let p = this.docStarts[doc]!; p < end; p++) {
        const term = this.pairTerms[p]!;
        const slot = cursor[term]!;
        postingDocs[slot] = doc;
        postingFrequencies[slot] = this.pairFrequencies[p]!;
        cursor[term] = slot + 1;
      }
    }
    return new Bm25Index(
      this.termIds,
      this.terms,
      postingStarts,
      postingDocs,
      postingFrequencies,
      Float64Array.from(this.lengths),
      parameters,
    );
  }

  private reservePairs(extra: number): void {
    if (this.pairCount + extra <= this.pairTerms.length) return;
    const size = Math.max(this.pairTerms.length * 2, this.pairCount + extra);
    const terms = new Uint32Array(size);
    terms.set(this.pairTerms);
    this.pairTerms = terms;
    const frequencies = new Float32Array(size);
    frequencies.set(this.pairFrequencies);
    this.pairFrequencies = frequencies;
  }
}

/**
 * Scratch space for one search: per-document score, number of distinct query terms matched and
 * whether the document holds the gate term. Stamps make a reset O(1) instead of clearing N slots.
 */
export class ScoreAccumulator {
  readonly scores: Float64Array;
  readonly coverage: Uint16Array;
  readonly touched: Uint32Array;
  touchedCount = 0;
  private readonly stamps: Uint32Array;
  private readonly gateStamps: Uint32Array;
  private epoch = 0;

  constructor(documentCount: number) {
    this.scores = new Float64Array(documentCount);
    this.coverage = new Uint16Array(documentCount);
    this.touched = new Uint32Array(documentCount);
    this.stamps = new Uint32Array(documentCount);
    this.gateStamps = new Uint32Array(documentCount);
  }

  reset(): void {
    this.touchedCount = 0;
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
}

export class Bm25Index {
  readonly documentCount: number;
  readonly averageLength: number;
  readonly parameters: Readonly<Bm25Parameters>;
  private readonly idfs: Float64Array;
  private readonly lengthNorms: Float64Array;

  constructor(
    private readonly termIds: ReadonlyMap<string, number>,
    private readonly terms: readonly string[],
    private readonly postingStarts: Uint32Array,
    private readonly postingDocs: Uint32Array,
    private readonly postingFrequencies: Float32Array,
    readonly lengths: Float64Array,
    parameters: Bm25Parameters,
  ) {
    this.parameters = Object.freeze({ ...parameters });
    const n = lengths.length;
    this.documentCount = n;
    let total = 0;
    for (const length of lengths) total += length;
    this.averageLength = total / Math.max(n, 1);
    const { k1, b } = parameters;
    const avgdl = Math.max(this.averageLength, 1);
    this.lengthNorms = lengths.map((dl) => k1 * (1 - b + (b * dl) / avgdl));
    this.idfs = new Float64Array(terms.length);
    for (let t = 0; t < terms.length; t++) {
      const df = postingStarts[t + 1]! - postingStarts[t]!;
      this.idfs[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
  }

  get termCount(): number {
    return this.terms.length;
  }

  /** The id of an indexed term, or -1 when no document holds it. */
  termId(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  term(termId: number): string {
    return this.terms[termId] ?? '';
  }

  /** Number of documents holding the term (0 for -1). */
  documentFrequency(termId: number): number {
    return termId < 0 ? 0 : this.postingStarts[termId + 1]! - this.postingStarts[termId]!;
  }

  /** `ln(1 + (N − df + 0.5) / (df + 0.5))`; for an unknown term, the value df = 0 would give. */
  idf(termId: number): number {
    if (termId >= 0) return this.idfs[termId]!;
    const n = this.documentCount;
    return Math.log(1 + (n + 0.5) / 0.5);
  }

  /** Weighted frequency of a term in one document (binary search in its postings). */
  termFrequency(termId: number, doc: number): number {
    if (termId < 0) return 0;
    let low = this.postingStarts[termId]!;
    let high = this.postingStarts[termId + 1]!;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const at = this.postingDocs[mid]!;
      if (at === doc) return this.postingFrequencies[mid]!;
      if (at < doc) low = mid + 1;
      else high = mid;
    }
    return 0;
  }

  /** One query term's BM25 contribution, times `boost`, to one document's score (0 if absent). */
  contribution(termId: number, doc: number, boost = 1): number {
    const tf = this.termFrequency(termId, doc);
    return tf === 0 ? 0 : this.score(this.idfs[termId]! * boost, tf, doc);
  }

  /** Adds the term's contribution, times `boost`, to every document holding it. */
  accumulate(termId: number, boost: number, into: ScoreAccumulator, flags: AccumulateFlags): void {
    const idf = this.idfs[termId]! * boost;
    const end = this.postingStarts[termId + 1]!;
    const { scores, coverage } = into;
    for (let p = this.postingStarts[termId]!; p < end; p++) {
      const doc = this.postingDocs[p]!;
      const tf = this.postingFrequencies[p]!;
      if (!into.isTouched(doc)) into.touch(doc);
      scores[doc]! += this.score(idf, tf, doc);
      if (flags.countsForCoverage) coverage[doc]! += 1;
      if (flags.isGate) into.markGate(doc);
    }
  }

  private score(idf: number, tf: number, doc: number): number {
    return (idf * tf * (this.parameters.k1 + 1)) / (tf + this.lengthNorms[doc]!);
  }
}
