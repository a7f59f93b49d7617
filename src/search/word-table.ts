/**
 * The distinct words of a catalog, found by position in a text: `find(text, start, end, hash)`
 * looks up the lower-cased `text[start, end)` without making a string of it, so indexing a
 * catalog allocates one string per distinct word, not one per occurrence. Open addressing over
 * typed arrays; the hash comes from the tokenizer's scan.
 */
export class WordTable {
  /** The words, lower-cased, in order of first sight; a word's id is its index here. */
  readonly words: string[] = [];
  private hashes: Int32Array;
  private slots: Int32Array;

  constructor(expectedWords = 1024) {
    let size = 2;
    while (size < expectedWords * 2) size *= 2;
    this.hashes = new Int32Array(expectedWords);
    this.slots = new Int32Array(size).fill(-1);
  }

  get size(): number {
    return this.words.length;
  }

  /** The id of the lower-cased `text[start, end)`, or -1 if it was never added. */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id < 0) return -1;
      if (this.hashes[id] === hash && sameWord(this.words[id]!, text, start, end)) return id;
    }
  }

  /** Adds the lower-cased `text[start, end)`, which must not be present yet; returns its id. */
  add(text: string, start: number, end: number, hash: number): number {
    const id = this.words.length;
    this.words.push(text.slice(start, end).toLowerCase());
    if (id === this.hashes.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = hash;
    // Keep the table at most half full so probes stay short.
    if (this.words.length * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      for (let old = 0; old < id; old++) this.place(old);
    }
    this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }
}

function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) {
    const code = text.charCodeAt(start + i);
    if (word.charCodeAt(i) !== (code >= 65 && code <= 90 ? code + 32 : code)) return false;
  }
  return true;
}
