import { stemWord } from './stemmer.js';
import { scanWords, type TokenizerOptions } from './tokenizer.js';
import { WordTable } from './word-table.js';

// Past this many remembered word occurrences, the text memo starts afresh.
const MAX_TEXT_WORDS = 20_000_000;

/**
 * A process-wide memo of the words indexed so far and their stems, looked up by position in a
 * text: rebuilding an index (the catalog changed) allocates nothing for words seen before. Stems
 * get small integer ids so an index maps them to its own term ids with a typed array. Whole texts
 * (descriptions, names) are remembered as their word ids too, so a rebuild over mostly the same
 * tools does not scan their text again.
 */
export class StemCache {
  private readonly table = new WordTable();
  // One memo per tokenizer setting: index = splitCamelCase + 2 × splitLetterDigit.
  private readonly texts = [0, 1, 2, 3].map(() => new Map<string, Int32Array>());
  private textWords = 0;
  private wordStems = new Int32Array(1024);
  private readonly stemIds = new Map<string, number>();
  private readonly stems: string[] = [];

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

  /** The ids of the words of `text`, in order (memoised per text). */
  wordsOf(text: string, options: Readonly<TokenizerOptions>): Int32Array {
    const texts = this.texts[(options.splitCamelCase ? 1 : 0) + (options.splitLetterDigit ? 2 : 0)]!;
    let ids = texts.get(text);
    if (ids === undefined) {
      const found: number[] = [];
      scanWords(text, options, (source, start, end, hash) =>
        found.push(this.wordId(source, start, end, hash)),
      );
      ids = Int32Array.from(found);
      if (this.textWords + ids.length > MAX_TEXT_WORDS) {
        for (const memo of this.texts) memo.clear();
        this.textWords = 0;
      }
      texts.set(text, ids);
      this.textWords += ids.length;
    }
    return ids;
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

  private addWord(text: string, start: number, end: number, hash: number): number {
    const id = this.table.add(text, start, end, hash);
    const stemmed = stemWord(this.table.words[id]!);
    let stemId = this.stemIds.get(stemmed);
    if (stemId === undefined) {
      stemId = this.stems.length;
      this.stemIds.set(stemmed, stemId);
      this.stems.push(stemmed);
    }
    if (id === this.wordStems.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.wordStems);
      this.wordStems = grown;
    }
    this.wordStems[id] = stemId;
    return id;
  }
}

// Past this many distinct words a fresh cache starts, so odd input cannot grow memory for ever.
const MAX_WORDS = 500_000;
let shared = new StemCache();

/** The shared cache; an index takes it once when it starts building and keeps it for that build. */
export function sharedStemCache(): StemCache {
  if (shared.wordCount > MAX_WORDS) shared = new StemCache();
  return shared;
}
