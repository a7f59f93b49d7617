import { stemWord } from './stemmer.js';
import { scanWords, type TokenizerOptions, WordSpans } from './tokenizer.js';
import { WordTable } from './word-table.js';

/**
 * A process-wide table of the words indexed so far and their stems, found by position in a text:
 * reading a text allocates nothing for words seen before, and every distinct word is stemmed
 * once per process. Words and stems get small integer ids, so an index maps them to its own term
 * ids with typed arrays.
 */
// Room for a typical catalog's words from the start: growing replaces arrays that optimised code
// relies on, and a first build would pay for recompiling it.
const INITIAL_WORDS = 16_384;

export class StemCache {
  private readonly table = new WordTable(INITIAL_WORDS);
  private wordStems: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_WORDS);
  private readonly stemIds = new Map<string, number>();
  private readonly stems: string[] = [];
  private readonly spans = new WordSpans();
  // Scratch for counting a text's words: the bag slot of each word id, valid while its stamp is current.
  private slotOf: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_WORDS);
  private stampOf: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_WORDS);
  private stamp = 0;
  /** The last bag read by {@link readBag}: `[wordId, count, …]` in its first `bagLength` slots. */
  bag: Int32Array<ArrayBuffer> = new Int32Array(4096);
  bagLength = 0;
  /** Per bag word (at half its bag index): 1 when it came only as a split run given whole (`pagerduty`). */
  bagWhole: Uint8Array<ArrayBuffer> = new Uint8Array(2048);

  get wordCount(): number {
    return this.table.size;
  }

  get stemCount(): number {
    return this.stems.length;
  }

  /** The id of the lower-cased word `text[start, end)` (`hash` from the tokenizer), added on first sight. */
  wordId(text: string, start: number, end: number, hash: number): number {
    const found = this.table.find(text, start, end, hash);
    return found >= 0 ? found : this.addWord(text, start, end, hash);
  }

  /** The id of a lower-case word seen before (`hash` as `hashRange` gives it), or -1. */
  findWord(word: string, hash: number): number {
    return this.table.find(word, 0, word.length, hash);
  }

  /**
   * Reads the words of `text` from position `from` into {@link bag}: each distinct word once with
   * its count, in order of first appearance. The bag is overwritten by the next read.
   */
  readBag(text: string, from: number, options: Readonly<TokenizerOptions>): void {
    const spans = this.spans;
    scanWords(text, from, options, spans);
    if (2 * spans.count > this.bag.length) {
      this.bag = new Int32Array(2 * spans.count);
      this.bagWhole = new Uint8Array(spans.count);
    }
    const { bag, bagWhole } = this;
    const stamp = ++this.stamp;
    let length = 0;
    for (let i = 0; i < spans.count; i++) {
      const word = this.wordId(text, spans.starts[i]!, spans.ends[i]!, spans.hashes[i]!);
      const whole = spans.whole[i]!;
      if (this.stampOf[word] === stamp) {
        const slot = this.slotOf[word]!;
        bag[slot + 1]! += 1;
        bagWhole[slot >> 1] = bagWhole[slot >> 1]! & whole;
      } else {
        this.stampOf[word] = stamp;
        this.slotOf[word] = length;
        bag[length] = word;
        bag[length + 1] = 1;
        bagWhole[length >> 1] = whole;
        length += 2;
      }
    }
    this.bagLength = length;
  }

  word(wordId: number): string {
    return this.table.words[wordId]!;
  }

  stemIdOf(wordId: number): number {
    return this.wordStems[wordId]!;
  }

  stem(stemId: number): string {
    return this.stems[stemId]!;
  }

  /** The id of a stem some indexed word has, or -1. */
  findStem(stem: string): number {
    return this.stemIds.get(stem) ?? -1;
  }

  private addWord(text: string, start: number, end: number, hash: number): number {
    const id = this.table.add(text, start, end, hash);
    const stemmed = stemWord(this.table.words[id]!);
    let stemId = this.stemIds.get(stemmed);
    if (stemId === undefined) {
      stemId = this.stems.length;
      this.stemIds.set(stemmed, stemId);
      this.stems.push(stemmed);
    }
    if (id >= this.wordStems.length) {
      this.wordStems = growInt32(this.wordStems, id + 1);
      this.slotOf = growInt32(this.slotOf, id + 1);
      this.stampOf = growInt32(this.stampOf, id + 1);
    }
    this.wordStems[id] = stemId;
    return id;
  }
}

/** A copy of `array` with room for at least `size` slots (new slots 0). */
export function growInt32(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(size, array.length * 2));
  grown.set(array);
  return grown;
}

// Past this many distinct words a fresh cache starts, so odd input cannot grow memory for ever.
const MAX_WORDS = 500_000;
let shared = new StemCache();

/** The shared cache; an index takes it once when it starts building and keeps it. */
export function sharedStemCache(): StemCache {
  if (shared.wordCount > MAX_WORDS) shared = new StemCache();
  return shared;
}
