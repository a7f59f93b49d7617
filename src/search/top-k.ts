/** Documents in rank order with their scores. */
export interface Ranked {
  docs: number[];
  scores: number[];
}

/**
 * Keeps the best `k` documents by score, ties broken by lower document id (catalog order), so the
 * result equals a stable sort of all candidates by descending score, without sorting them all.
 * A binary heap with the worst kept document at the root: most candidates are turned away by one
 * comparison with it. `reset` reuses its arrays, so one instance serves search after search.
 */
export class TopK {
  private heapDocs: Int32Array;
  private heapScores: Float64Array;
  private count = 0;

  constructor(private k: number) {
    this.heapDocs = new Int32Array(k);
    this.heapScores = new Float64Array(k);
  }

  /** Empties it to keep the best `k` from now on. */
  reset(k: number): void {
    if (k > this.heapDocs.length) {
      this.heapDocs = new Int32Array(k);
      this.heapScores = new Float64Array(k);
    }
    this.k = k;
    this.count = 0;
  }

  get size(): number {
    return this.count;
  }

  /** The score a document must beat to get in once `k` are kept (−∞ before that). */
  get threshold(): number {
    return this.count < this.k ? Number.NEGATIVE_INFINITY : this.heapScores[0]!;
  }

  offer(doc: number, score: number): void {
    if (this.count < this.k) {
      this.siftUp(this.count++, doc, score);
    } else if (this.k > 0 && ranksBefore(score, doc, this.heapScores[0]!, this.heapDocs[0]!)) {
      this.siftDown(doc, score);
    }
  }

  /** The kept documents, best first. */
  ranked(): Ranked {
    // Pushed, not preallocated: arrays without holes are faster to sort and read.
    const docs: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < this.count; i++) {
      docs.push(this.heapDocs[i]!);
      scores.push(this.heapScores[i]!);
    }
    return sortRanked({ docs, scores });
  }

  // Puts (doc, score) in the hole at `start` and moves it up past the documents it is worse than.
  private siftUp(start: number, doc: number, score: number): void {
    const docs = this.heapDocs;
    const scores = this.heapScores;
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!ranksBefore(scores[parent]!, docs[parent]!, score, doc)) break;
      docs[i] = docs[parent]!;
      scores[i] = scores[parent]!;
      i = parent;
    }
    docs[i] = doc;
    scores[i] = score;
  }

  // Replaces the root with (doc, score) and moves it down past the documents worse than it.
  private siftDown(doc: number, score: number): void {
    const docs = this.heapDocs;
    const scores = this.heapScores;
    const n = this.count;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      // The worse child: the one the other ranks before.
      const child =
        right < n && ranksBefore(scores[left]!, docs[left]!, scores[right]!, docs[right]!) ? right : left;
      if (!ranksBefore(score, doc, scores[child]!, docs[child]!)) break;
      docs[i] = docs[child]!;
      scores[i] = scores[child]!;
      i = child;
    }
    docs[i] = doc;
    scores[i] = score;
  }
}

/**
 * Sorts documents best first in place (higher score, then lower document id). An insertion sort:
 * the lists sorted here hold a few dozen documents at most.
 */
export function sortRanked(ranked: Ranked): Ranked {
  const { docs, scores } = ranked;
  for (let i = 1; i < docs.length; i++) {
    const doc = docs[i]!;
    const score = scores[i]!;
    let j = i - 1;
    while (j >= 0 && ranksBefore(score, doc, scores[j]!, docs[j]!)) {
      docs[j + 1] = docs[j]!;
      scores[j + 1] = scores[j]!;
      j -= 1;
    }
    docs[j + 1] = doc;
    scores[j + 1] = score;
  }
  return ranked;
}

function ranksBefore(score: number, doc: number, otherScore: number, otherDoc: number): boolean {
  return score > otherScore || (score === otherScore && doc < otherDoc);
}
