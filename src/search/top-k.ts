/**
 * Keeps the best `k` documents by score, ties broken by lower document id (catalog order), so the
 * result equals a stable sort of all candidates by descending score, without sorting them all.
 */
export class TopK {
  readonly docs: number[] = [];
  readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  offer(doc: number, score: number): void {
    const { docs, scores } = this;
    if (docs.length === this.k && !ranksBefore(score, doc, scores[this.k - 1]!, docs[this.k - 1]!)) return;
    let at = docs.length === this.k ? this.k - 1 : docs.length;
    while (at > 0 && ranksBefore(score, doc, scores[at - 1]!, docs[at - 1]!)) {
      docs[at] = docs[at - 1]!;
      scores[at] = scores[at - 1]!;
      at -= 1;
    }
    docs[at] = doc;
    scores[at] = score;
  }
}

function ranksBefore(score: number, doc: number, otherScore: number, otherDoc: number): boolean {
  return score > otherScore || (score === otherScore && doc < otherDoc);
}
