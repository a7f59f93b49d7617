import { foldedChar, foldWord } from './tokenizer.js';

/**
 * The distinct words of a catalog, found by position in a text: `find(text, start, end, hash)`
 * looks up the lower-cased `text[start, end)` without making a string of it, so indexing a
 * catalog allocates one string per distinct word, not one per occurrence. Words are folded as
 * the tokenizer folds them (`Café` is `cafe`). Open addressing over
 * typed arrays; the hash comes from the tokenizer's scan.
 */
export class WordTable {
  /** The words, lower-cased, in order of first sight; a word's id is its index here. */
  readonly words: string[] = [];
  private hashes: Int32Array<ArrayBuffer>;
  private slots: Int32Array;
  // Every word's characters, back to back (word i is chars[offsets[i] .. offsets[i + 1])): a
  // lookup compares against flat memory instead of calling into each word's string.
  private chars: Uint16Array;
  private offsets: Int32Array<ArrayBuffer>;

  constructor(expectedWords = 1024) {
    let size = 2;
    while (size < expectedWords * 2) size *= 2;
    this.hashes = new Int32Array(expectedWords);
    this.slots = new Int32Array(size).fill(-1);
    this.chars = new Uint16Array(expectedWords * 8);
    this.offsets = new Int32Array(expectedWords + 1);
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
      if (this.hashes[id] === hash && this.isWord(id, text, start, end)) return id;
    }
  }

  /** Adds the lower-cased `text[start, end)`, which must not be present yet; returns its id. */
  add(text: string, start: number, end: number, hash: number): number {
    const id = this.words.length;
    const word = foldWord(text, start, end);
    this.words.push(word);
    if (id === this.hashes.length) {
      this.hashes = growInt32(this.hashes, id * 2);
      this.offsets = growInt32(this.offsets, id * 2 + 1);
    }
    this.hashes[id] = hash;
    let at = this.offsets[id]!;
    if (at + word.length > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, at + word.length));
      chars.set(this.chars);
      this.chars = chars;
    }
    for (let i = 0; i < word.length; i++) this.chars[at++] = word.charCodeAt(i);
    this.offsets[id + 1] = at;
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

  /** Whether word `id` is `text[start, end)` folded (see `foldWord`). */
  private isWord(id: number, text: string, start: number, end: number): boolean {
    let at = this.offsets[id]!;
    const stop = this.offsets[id + 1]!;
    const chars = this.chars;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code < 128) {
        if (at === stop || chars[at] !== (code >= 65 && code <= 90 ? code + 32 : code)) return false;
        at++;
      } else {
        const folded = foldedChar(code);
        for (let k = 0; k < folded.length; k++, at++)
          if (at === stop || chars[at] !== folded.charCodeAt(k)) return false;
      }
    }
    return at === stop;
  }
}

/** A copy of `array` with room for at least `size` slots (new slots 0). */
export function growInt32(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(size, array.length * 2, 1));
  grown.set(array);
  return grown;
}
