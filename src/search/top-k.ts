/** Documents in rank order with their scores. */
export interface Ranked {
  docs: number[];
  scores: number[];
}

/**
 * Keeps the best `k` documents by score, ties broken by lower document id (catalog order), so the
 * result equals a stable sort of all candidates by descending score, without sorting them all.
 * A binary heap with the worst kept document at the root: most candidates are turned away by one
 * comparison with it.
 */
export class TopK {
  private readonly heapDocs: number[] = [];
  private readonly heapScores: number[] = [];

  constructor(private readonly k: number) {}

  get size(): number {
    return this.heapDocs.length;
  }

  /** The score a document must beat to get in once `k` are kept (−∞ before that). */
  get threshold(): number {
    return this.heapDocs.length < this.k ? Number.NEGATIVE_INFINITY : this.heapScores[0]!;
  }

  offer(doc: number, score: number): void {
    const docs = this.heapDocs;
    const scores = this.heapScores;
    if (docs.length < this.k) {
      docs.push(doc);
      scores.push(score);
      this.siftUp(docs.length - 1);
    } else if (this.k > 0 && ranksBefore(score, doc, scores[0]!, docs[0]!)) {
      docs[0] = doc;
      scores[0] = score;
      this.siftDown(0);
    }
  }

  /** The kept documents, best first. */
  ranked(): Ranked {
    return sortRanked({ docs: [...this.heapDocs], scores: [...this.heapScores] });
  }

  // The root is the document every other one ranks before.
  private worse(i: number, j: number): boolean {
    return ranksBefore(this.heapScores[j]!, this.heapDocs[j]!, this.heapScores[i]!, this.heapDocs[i]!);
  }

  private siftUp(start: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(start: number): void {
    const n = this.heapDocs.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < n && this.worse(left, worst)) worst = left;
      if (right < n && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    const docs = this.heapDocs;
    const scores = this.heapScores;
    const doc = docs[i]!;
    const score = scores[i]!;
    docs[i] = docs[j]!;
    scores[i] = scores[j]!;
    docs[j] = doc;
    scores[j] = score;
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
