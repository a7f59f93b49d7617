import { stemWord } from './stemmer.js';
import { scanWords, type TokenizerOptions, WordSpans } from './tokenizer.js';
import { growInt32, WordTable } from './word-table.js';

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
  // Scratch for counting a text's words: where each word id's triple is, valid while its stamp is current.
  private slotOf: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_WORDS);
  private stampOf: Int32Array<ArrayBuffer> = new Int32Array(INITIAL_WORDS);
  private stamp = 0;

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

  /** Finds the words of `text` from position `from`; returns how many (repeats counted). */
  scan(text: string, from: number, options: Readonly<TokenizerOptions>): number {
    scanWords(text, from, options, this.spans);
    return this.spans.count;
  }

  /**
   * Writes the words last scanned in `text` as a bag of `[wordId, field, count]` triples into
   * `out` from `at`: each distinct word once, in order of first appearance. A word that came only
   * as a split run given whole (`pagerduty` after `pager`, `duty`) gets `field | wholeFlag`.
   * Room for three slots per scanned word must be there. Returns where the triples end.
   */
  writeBag(text: string, field: number, wholeFlag: number, out: Int32Array, at: number): number {
    const spans = this.spans;
    const stamp = ++this.stamp;
    let end = at;
    for (let i = 0; i < spans.count; i++) {
      const word = this.wordId(text, spans.starts[i]!, spans.ends[i]!, spans.hashes[i]!);
      const whole = spans.whole[i] === 1 ? wholeFlag : 0;
      if (this.stampOf[word] === stamp) {
        const slot = this.slotOf[word]!;
        out[slot + 1] = out[slot + 1]! & (field | whole);
        out[slot + 2]! += 1;
      } else {
        this.stampOf[word] = stamp;
        this.slotOf[word] = end;
        out[end] = word;
        out[end + 1] = field | whole;
        out[end + 2] = 1;
        end += 3;
      }
    }
    return end;
  }

  /** The lower-cased word `text[start, end)` as the cache holds it (`hash` from the tokenizer), or undefined. */
  knownWord(text: string, start: number, end: number, hash: number): string | undefined {
    const found = this.table.find(text, start, end, hash);
    return found >= 0 ? this.table.words[found] : undefined;
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

// Past this many distinct words a fresh cache starts, so odd input cannot grow memory for ever.
const MAX_WORDS = 500_000;
let shared = new StemCache();

/** The shared cache; an index takes it once when it starts building and keeps it. */
export function sharedStemCache(): StemCache {
  if (shared.wordCount > MAX_WORDS) shared = new StemCache();
  return shared;
}
