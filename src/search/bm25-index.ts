/**
 * BM25 over compact postings (reference §1.3). Terms get integer ids; each term's postings are one
 * slice of two typed arrays (document ids ascending, weighted term frequencies), so a search walks
 * flat memory and allocates nothing.
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
 * Collects documents one term occurrence at a time, then builds the index. Occurrences are
 * counted per (term, field) as they come, so nothing per occurrence is kept.
 */
export class Bm25IndexBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  // Per document, its distinct (term, field) keys and their counts, flattened; docStarts[d] is
  // where document d begins.
  private keys = new Uint32Array(1024);
  private counts = new Float32Array(1024);
  private keyCount = 0;
  private readonly docStarts: number[] = [0];
  /** Words per field per document: document d, field f at d × fieldCount + f. */
  private readonly fieldLengths: number[] = [];
  // The open document: count per key, and the keys it holds.
  private scratch = new Float64Array(1024);
  private readonly open: number[] = [];

  constructor(private readonly fieldCount: number) {
    if (fieldCount > FIELD_MASK + 1)
      throw new RangeError(`Bm25IndexBuilder: at most ${FIELD_MASK + 1} fields`);
  }

  get documentCount(): number {
    return this.docStarts.length - 1;
  }

  /** The id of `term`, assigned on first sight. */
  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      if ((id + 1) << FIELD_BITS > this.scratch.length) {
        const grown = new Float64Array(this.scratch.length * 2);
        grown.set(this.scratch);
        this.scratch = grown;
      }
    }
    return id;
  }

  /** One occurrence of a term in a field of the open document. */
  add(termId: number, field: number): void {
    const key = (termId << FIELD_BITS) | field;
    if (this.scratch[key] === 0) this.open.push(key);
    this.scratch[key]! += 1;
  }

  /** Closes the open document; returns its id (ids count from 0 in call order). */
  endDocument(): number {
    this.reserve(this.open.length);
    const lengths = new Array<number>(this.fieldCount).fill(0);
    for (const key of this.open) {
      const count = this.scratch[key]!;
      this.keys[this.keyCount] = key;
      this.counts[this.keyCount] = count;
      this.keyCount += 1;
      lengths[key & FIELD_MASK]! += count;
      this.scratch[key] = 0;
    }
    this.open.length = 0;
    this.fieldLengths.push(...lengths);
    this.docStarts.push(this.keyCount);
    return this.docStarts.length - 2;
  }

  build(parameters: Bm25Parameters): Bm25Index {
    const { k1, b, fieldWeights } = parameters;
    const fields = this.fieldCount;
    const termCount = this.terms.length;
    const documentCount = this.documentCount;
    const weights = Float64Array.from({ length: fields }, (_, field) => fieldWeights[field] ?? 0);
    const weight = (field: number): number => weights[field]!;
    const perField = parameters.lengthNormalization === 'field';

    // Length normalisation: per document (one bag) or per document and field (BM25F).
    const lengthNorms = new Float64Array(documentCount);
    const fieldNorms = new Float64Array(documentCount * fields).fill(1);
    if (parameters.lengthNormalization === 'document') {
      const lengths = new Float64Array(documentCount);
      let total = 0;
      for (let doc = 0; doc < documentCount; doc++) {
        let length = 0;
        for (let field = 0; field < fields; field++)
          length += weight(field) * this.fieldLengths[doc * fields + field]!;
        lengths[doc] = length;
        total += length;
      }
      const avgdl = Math.max(total / Math.max(documentCount, 1), 1);
      for (let doc = 0; doc < documentCount; doc++)
        lengthNorms[doc] = k1 * (1 - b + (b * lengths[doc]!) / avgdl);
    } else {
      for (let field = 0; field < fields; field++) {
        let total = 0;
        for (let doc = 0; doc < documentCount; doc++) total += this.fieldLengths[doc * fields + field]!;
        const average = Math.max(total / Math.max(documentCount, 1), 1);
        for (let doc = 0; doc < documentCount; doc++) {
          fieldNorms[doc * fields + field] = 1 - b + (b * this.fieldLengths[doc * fields + field]!) / average;
        }
      }
      lengthNorms.fill(k1);
    }

    // Each document's (term, frequency) pairs: its fields' counts, weighted (and normalised).
    const pairTerms = new Uint32Array(this.keyCount);
    const pairFrequencies = new Float64Array(this.keyCount);
    const pairStarts = new Uint32Array(documentCount + 1);
    const frequency = new Float64Array(termCount);
    const held: number[] = [];
    let pairCount = 0;
    for (let doc = 0; doc < documentCount; doc++) {
      for (let k = this.docStarts[doc]!; k < this.docStarts[doc + 1]!; k++) {
        const key = this.keys[k]!;
        const term = key >>> FIELD_BITS;
        const field = key & FIELD_MASK;
        if (frequency[term] === 0) held.push(term);
        const weighted = weights[field]! * this.counts[k]!;
        frequency[term]! += perField ? weighted / fieldNorms[doc * fields + field]! : weighted;
      }
      for (const term of held) {
        if (frequency[term]! > 0) {
          pairTerms[pairCount] = term;
          pairFrequencies[pairCount] = frequency[term]!;
          pairCount += 1;
        }
        frequency[term] = 0;
      }
      held.length = 0;
      pairStarts[doc + 1] = pairCount;
    }

    // Counting sort of the pairs by term: each term's postings stay in document order.
    const postingStarts = new Uint32Array(termCount + 1);
    for (let p = 0; p < pairCount; p++) postingStarts[pairTerms[p]! + 1]! += 1;
    for (let t = 0; t < termCount; t++) postingStarts[t + 1]! += postingStarts[t]!;
    const cursor = postingStarts.slice(0, termCount);
    const postingDocs = new Uint32Array(pairCount);
    const postingFrequencies = new Float64Array(pairCount);
    for (let doc = 0; doc < documentCount; doc++) {
      for (let p = pairStarts[doc]!; p < pairStarts[doc + 1]!; p++) {
        const term = pairTerms[p]!;
        const slot = cursor[term]!;
        postingDocs[slot] = doc;
        postingFrequencies[slot] = pairFrequencies[p]!;
        cursor[term] = slot + 1;
      }
    }
    return new Bm25Index(
      this.termIds,
      this.terms,
      postingStarts,
      postingDocs,
      postingFrequencies,
      lengthNorms,
      parameters,
    );
  }

  private reserve(extra: number): void {
    if (this.keyCount + extra <= this.keys.length) return;
    const size = Math.max(this.keys.length * 2, this.keyCount + extra);
    const keys = new Uint32Array(size);
    keys.set(this.keys);
    this.keys = keys;
    const counts = new Float32Array(size);
    counts.set(this.counts);
    this.counts = counts;
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
  /** The highest score so far. */
  maxScore = 0;
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
  readonly parameters: Readonly<Bm25Parameters>;
  private readonly idfs: Float64Array;
  private readonly maxContributions: Float64Array;

  constructor(
    private readonly termIds: ReadonlyMap<string, number>,
    private readonly terms: readonly string[],
    private readonly postingStarts: Uint32Array,
    private readonly postingDocs: Uint32Array,
    private readonly postingFrequencies: Float64Array,
    /** Per document, the denominator's `k1 · (1 − b + b · dl / avgdl)` (just `k1` under BM25F). */
    private readonly lengthNorms: Float64Array,
    parameters: Bm25Parameters,
  ) {
    this.parameters = Object.freeze({
      ...parameters,
      fieldWeights: Object.freeze([...parameters.fieldWeights]),
    });
    const n = lengthNorms.length;
    this.documentCount = n;
    this.idfs = new Float64Array(terms.length);
    this.maxContributions = new Float64Array(terms.length);
    for (let t = 0; t < terms.length; t++) {
      const df = postingStarts[t + 1]! - postingStarts[t]!;
      this.idfs[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      let best = 0;
      for (let p = postingStarts[t]!; p < postingStarts[t + 1]!; p++) {
        best = Math.max(best, this.score(this.idfs[t]!, postingFrequencies[p]!, postingDocs[p]!));
      }
      this.maxContributions[t] = best;
    }
  }

  /** The most this term adds to any one document's score (before a query boost). */
  maxContribution(termId: number): number {
    return termId < 0 ? 0 : this.maxContributions[termId]!;
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
      if (scores[doc]! > into.maxScore) into.maxScore = scores[doc]!;
      if (flags.countsForCoverage) coverage[doc]! += 1;
      if (flags.isGate) into.markGate(doc);
    }
  }

  /**
   * Adds the term's contribution, times `boost`, only to documents already reached by other
   * terms, looking each up in the postings: cheaper than walking the postings of a term that most
   * documents hold.
   */
  accumulateTouched(termId: number, boost: number, into: ScoreAccumulator, flags: AccumulateFlags): void {
    const idf = this.idfs[termId]! * boost;
    const { scores, coverage } = into;
    for (let i = 0; i < into.touchedCount; i++) {
      const doc = into.touched[i]!;
      const tf = this.termFrequency(termId, doc);
      if (tf === 0) continue;
      scores[doc]! += this.score(idf, tf, doc);
      if (scores[doc]! > into.maxScore) into.maxScore = scores[doc]!;
      if (flags.countsForCoverage) coverage[doc]! += 1;
      if (flags.isGate) into.markGate(doc);
    }
  }

  private score(idf: number, tf: number, doc: number): number {
    return (idf * tf * (this.parameters.k1 + 1)) / (tf + this.lengthNorms[doc]!);
  }
}
