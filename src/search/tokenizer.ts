/**
 * Splits text into words: maximal runs of letters and digits (reference §1.2), Unicode's as well
 * as ASCII's, folded to lower case without accents (`Café` is `cafe`, `Straße` is `strasse`, NFKD
 * then every combining mark dropped). Everything else separates words, so `e-mail` is `e` + `mail`
 * and an emoji yields nothing. Apostrophes follow English spelling: a clitic is no word of its own
 * (`user's` is `user`), a word negated by `n't` is an auxiliary and no word at all (`don't`,
 * `can't`), and a single letter elided at an apostrophe is none either (`I'm`, `o'clock`,
 * `rock'n'roll`). Optionally a run is split further at camelCase and letter/digit boundaries; a
 * plural `s` stays with its acronym (`URLs` is `urls`, not `ur` + `ls`), and a part of one
 * character is no word of its own (`mRNA` is `rna` + `mrna`, not `m`).
 */

export interface TokenizerOptions {
  /** Split `createIssue` into `create` + `issue`, and `HTTPServer` into `http` + `server`. */
  splitCamelCase: boolean;
  /** Split `v2api` into `v` + `2` + `api`. */
  splitLetterDigit: boolean;
}

export const PLAIN_TOKENIZER: Readonly<TokenizerOptions> = Object.freeze({
  splitCamelCase: false,
  splitLetterDigit: false,
});

// Character kinds, as small integers looked up in a table so the scan loop stays tight.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const KINDS = new Uint8Array(128);
for (let code = 97; code <= 122; code++) KINDS[code] = LOWER;
for (let code = 65; code <= 90; code++) KINDS[code] = UPPER;
for (let code = 48; code <= 57; code++) KINDS[code] = DIGIT;

// Beyond ASCII, each UTF-16 unit's kind is worked out on first sight and kept (0: not yet, else
// kind + 1). Surrogates are no letters: astral characters (emoji mostly) separate words.
const WIDE_KINDS = new Uint8Array(65_536);
const MARK = 4;

function wideKind(code: number): number {
  let known = WIDE_KINDS[code]!;
  if (known === 0) {
    const char = String.fromCharCode(code);
    const kind =
      code >= 0xd800 && code <= 0xdfff
        ? OTHER
        : /\p{M}/u.test(char)
          ? MARK
          : /[\p{Lu}\p{Lt}]/u.test(char)
            ? UPPER
            : /\p{L}/u.test(char)
              ? LOWER
              : /\p{N}/u.test(char)
                ? DIGIT
                : OTHER;
    known = kind + 1;
    WIDE_KINDS[code] = known;
  }
  return known - 1;
}

// Past the end of a text `charCodeAt` is NaN: no letter.
const kindOf = (code: number): number => (code < 128 ? KINDS[code]! : code < 65_536 ? wideKind(code) : OTHER);

// What each non-ASCII letter, digit or mark folds to, on first sight: `é` → `e`, `ß` → `ss`,
// `ﬁ` → `fi`, `П` → `п`, a combining mark → nothing.
const FOLDED = new Map<number, string>();

/** The folded form of a non-ASCII unit of a word. */
export function foldedChar(code: number): string {
  let folded = FOLDED.get(code);
  if (folded === undefined) {
    folded = String.fromCharCode(code)
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]/gu, '')
      .toUpperCase()
      .toLowerCase();
    FOLDED.set(code, folded);
  }
  return folded;
}

/** The word `text[start, end)` folded: lower case, accents and marks dropped. */
export function foldWord(text: string, start: number, end: number): string {
  let i = start;
  while (i < end && text.charCodeAt(i) < 128) i++;
  if (i === end) return text.slice(start, end).toLowerCase();
  let word = text.slice(start, i).toLowerCase();
  for (; i < end; i++) {
    const code = text.charCodeAt(i);
    word += code < 128 ? String.fromCharCode(code >= 65 && code <= 90 ? code + 32 : code) : foldedChar(code);
  }
  return word;
}

/** FNV-1a of a non-ASCII unit's folded form, continuing `hash`. */
function hashFolded(hash: number, code: number): number {
  const folded = foldedChar(code);
  for (let k = 0; k < folded.length; k++) hash = Math.imul(hash ^ folded.charCodeAt(k), FNV_PRIME);
  return hash;
}

const APOSTROPHE = 39;
const RIGHT_QUOTE = 0x2019;

/**
 * The length of the English clitic at `at`, after an apostrophe (`'s`, `'m`, `'re`, `'ve`,
 * `'ll`, `'d`, `n't`'s `'t`), when the letters there are one and end the run; else 0.
 */
function cliticLength(text: string, at: number): number {
  let length = 0;
  while (length < 3 && kindOf(text.charCodeAt(at + length)) !== OTHER) length++;
  if (length === 0 || length === 3) return 0;
  const clitic = foldWord(text, at, at + length);
  return CLITICS.has(clitic) ? length : 0;
}
const CLITICS = new Set(['s', 'm', 're', 've', 'll', 'd', 't']);

/** The clitics after an apostrophe, chained ones included (`y'all'd've` drops `'d've`). */
function cliticsLength(text: string, at: number): number {
  let total = 0;
  for (;;) {
    const length = cliticLength(text, at + total);
    if (length === 0) return total;
    total += length;
    const next = text.charCodeAt(at + total);
    if ((next !== APOSTROPHE && next !== RIGHT_QUOTE) || cliticLength(text, at + total + 1) === 0)
      return total;
    total += 1;
  }
}

/** Whether the clitic at `at` (after an apostrophe) is `n't`'s `t`: the word before it is negated. */
const isNegation = (text: string, at: number): boolean =>
  (text.charCodeAt(at) | 32) === 116 && kindOf(text.charCodeAt(at + 1)) === OTHER;

const isApostrophe = (code: number): boolean => code === APOSTROPHE || code === RIGHT_QUOTE;

/** Whether `text[at]` starts a plural `s` or `es` ending an acronym (`URLs`, `IDs`, `APIsFor`, `OSes`). */
const isPluralEnding = (text: string, at: number): boolean =>
  (text.charCodeAt(at) === 115 && kindOf(text.charCodeAt(at + 1)) !== LOWER) ||
  (text.charCodeAt(at) === 101 &&
    text.charCodeAt(at + 1) === 115 &&
    kindOf(text.charCodeAt(at + 2)) !== LOWER);

/**
 * Where the word `text[start, end)` ends without an acronym's plural `es` (`OSes` is `os`, as
 * `URLs` stems to `url`: Snowball reads `oses` as `ose`); `end` for any other word.
 */
function withoutPluralEs(text: string, start: number, end: number): number {
  if (end - start < 4 || text.charCodeAt(end - 2) !== 101 || text.charCodeAt(end - 1) !== 115) return end;
  for (let i = start; i < end - 2; i++) if (kindOf(text.charCodeAt(i)) !== UPPER) return end;
  return end - 2;
}

/** FNV-1a, the word hash every lookup table here uses. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/**
 * Where the words of one scan are: word i is `text[starts[i], ends[i])`, and `hashes[i]` a hash of
 * its lower-cased characters (FNV-1a), so a caller can look a word up without making a string of
 * it. One instance is reused from scan to scan.
 */
export class WordSpans {
  count = 0;
  starts = new Int32Array(2048);
  ends = new Int32Array(2048);
  hashes = new Int32Array(2048);
  /** Which run (maximal stretch of letters and digits) each word comes from: parts share their run's. */
  runs = new Int32Array(2048);
  runCount = 0;
  /** 1 where the word is a split run given whole after its parts (`pagerduty` after `pager`, `duty`). */
  whole = new Uint8Array(2048);

  push(start: number, end: number, hash: number, whole = 0): void {
    if (this.count === this.starts.length) this.grow();
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.hashes[this.count] = hash;
    this.runs[this.count] = this.runCount;
    this.whole[this.count] = whole;
    this.count += 1;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const grown = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.hashes = grown(this.hashes);
    this.runs = grown(this.runs);
    const whole = new Uint8Array(size);
    whole.set(this.whole);
    this.whole = whole;
  }
}

/**
 * Fills `spans` with the words of `text` from position `from`, in order. With splitting on, a run
 * that splits is also given whole after its parts (`PagerDuty` → `pager`, `duty`, `pagerduty`),
 * so a query that writes the name as one word still finds it. One loop and no callback: this
 * runs over every character of a catalog, often before the JIT has optimised anything.
 */
export function scanWords(
  text: string,
  from: number,
  options: Readonly<TokenizerOptions>,
  spans: WordSpans,
): void {
  spans.count = 0;
  spans.runCount = 0;
  const n = text.length;
  const camel = options.splitCamelCase;
  const digits = options.splitLetterDigit;
  let start = -1;
  let runStart = -1;
  // Where the open run's words start in `spans` (they go if the run turns out to be no word).
  let runFirst = 0;
  let hash = 0;
  let previous = OTHER;
  for (let i = from; i < n; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? KINDS[code]! : wideKind(code);
    // A combining mark belongs to the letter before it; alone it is no word.
    if (kind === OTHER || (start < 0 && kind === MARK)) {
      if (start >= 0) {
        closeRun(text, start, runStart, i, hash, spans, camel);
        start = -1;
        if (isApostrophe(code)) {
          const clitics = cliticsLength(text, i + 1);
          // `don't`: a negated auxiliary. `I'm`, `o'clock`, `rock'n'roll`: an elided letter.
          if ((clitics > 0 && isNegation(text, i + 1)) || isElided(text, runStart, i)) {
            spans.count = runFirst;
            spans.runCount -= 1;
          }
          i += clitics;
        } else if (isElided(text, runStart, i)) {
          spans.count = runFirst;
          spans.runCount -= 1;
        }
      }
    } else {
      if (start < 0) {
        start = i;
        runStart = i;
        runFirst = spans.count;
        hash = FNV_OFFSET;
      } else if (
        (digits && kind !== MARK && previous !== MARK && (previous === DIGIT) !== (kind === DIGIT)) ||
        // `createIssue`: lower → Upper. `HTTPServer`: the last capital of an acronym starts a word.
        (camel &&
          kind === UPPER &&
          (previous === LOWER ||
            (previous === UPPER &&
              i + 1 < n &&
              kindOf(text.charCodeAt(i + 1)) === LOWER &&
              !isPluralEnding(text, i + 1))))
      ) {
        // A part of one character (`m` of `mRNA`, `i` of `iPhone`) is no word of its own.
        if (i - start > 1) pushPart(text, start, i, hash, spans);
        start = i;
        hash = FNV_OFFSET;
      }
      hash =
        code < 128
          ? Math.imul(hash ^ (kind === UPPER ? code + 32 : code), FNV_PRIME)
          : hashFolded(hash, code);
    }
    previous = kind;
  }
  if (start >= 0) {
    closeRun(text, start, runStart, n, hash, spans, camel);
    if (isElided(text, runStart, n)) {
      spans.count = runFirst;
      spans.runCount -= 1;
    }
  }
}

/**
 * Ends the run `text[runStart, end)` whose last part starts at `start` (hash `hash`); with camelCase
 * split, a part's plural `es` goes (`OSes`).
 */
function closeRun(
  text: string,
  start: number,
  runStart: number,
  end: number,
  hash: number,
  spans: WordSpans,
  camel: boolean,
): void {
  if (start === runStart) {
    if (camel) pushPart(text, start, end, hash, spans);
    else spans.push(start, end, hash);
  } else {
    if (end - start > 1) pushPart(text, start, end, hash, spans);
    spans.push(runStart, end, hashRange(text, runStart, end), 1);
  }
  spans.runCount += 1;
}

/** Pushes the camelCase part `text[start, end)` (hash `hash`), an acronym's plural `es` left out. */
function pushPart(text: string, start: number, end: number, hash: number, spans: WordSpans): void {
  const wordEnd = withoutPluralEs(text, start, end);
  spans.push(start, wordEnd, wordEnd === end ? hash : hashRange(text, start, wordEnd));
}

/** Whether the run `text[start, end)` is one letter beside an apostrophe: elided (`o'clock`, `'n'`). */
function isElided(text: string, start: number, end: number): boolean {
  return (
    end - start === 1 && (isApostrophe(text.charCodeAt(end)) || isApostrophe(text.charCodeAt(start - 1)))
  );
}

/** The hash `scanWords` gives the lower-cased `text[start, end)`; from `seed`, it goes on another's. */
export function hashRange(text: string, start: number, end: number, seed = FNV_OFFSET): number {
  let hash = seed;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    hash =
      code < 128
        ? Math.imul(hash ^ (code >= 65 && code <= 90 ? code + 32 : code), FNV_PRIME)
        : hashFolded(hash, code);
  }
  return hash;
}

const querySpans = new WordSpans();

/** Lower-cased words of `text`, in order, repeats kept. */
export function tokenize(text: string, options: Readonly<TokenizerOptions> = PLAIN_TOKENIZER): string[] {
  return tokenizeRuns(text, options).words;
}

/** A text's words, and where each stands: the run it comes from, and each run as one word. */
export interface TextWords {
  /** Lower-cased words, in order, repeats kept (as {@link tokenize}). */
  words: string[];
  /** For each word, the index of its run in `runs`. */
  runOf: number[];
  /** Each run (maximal stretch of letters and digits) lower-cased, unsplit: `createIssue` → `createissue`. */
  runs: string[];
  /**
   * For each run, whether punctuation that ends a phrase follows it before the next run: `,;:.!?()`,
   * or a dash with a space beside it (`i use zoho - send …`; `e-mail` is one compound).
   */
  pausesAfter: boolean[];
  /** Where each run starts and ends in the text. */
  runStarts: number[];
  runEnds: number[];
  /** The text itself. */
  text: string;
}

/** `,;:.!?()` as char codes. */
const PAUSES = new Set([44, 59, 58, 46, 33, 63, 40, 41]);
/** `-`, `–`, `—`: a pause only with a space beside them. */
const DASHES = new Set([45, 0x2013, 0x2014]);

function hasPause(text: string, from: number, to: number): boolean {
  let dash = false;
  let space = false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (PAUSES.has(code)) return true;
    dash ||= DASHES.has(code);
    space ||= code === 32 || code === 9 || code === 10;
  }
  return dash && space;
}

/**
 * The word `text[start, end)` folded, as a table of known words already holds it (`hash` as
 * {@link hashRange} gives it), or undefined: a query's words are then the strings every memo
 * already keys, not fresh copies each query.
 */
export type KnownWords = (text: string, start: number, end: number, hash: number) => string | undefined;

export function tokenizeRuns(
  text: string,
  options: Readonly<TokenizerOptions> = PLAIN_TOKENIZER,
  known?: KnownWords,
): TextWords {
  scanWords(text, 0, options, querySpans);
  const { count, starts, ends } = querySpans;
  const words: string[] = [];
  const runOf: number[] = [];
  const runs: string[] = [];
  const runStarts: number[] = [];
  const runEnds: number[] = [];
  for (let i = 0; i < count; i++) {
    const word =
      known?.(text, starts[i]!, ends[i]!, querySpans.hashes[i]!) ?? foldWord(text, starts[i]!, ends[i]!);
    // Runs are numbered in order from 0, and each has a word.
    const run = querySpans.runs[i]!;
    words.push(word);
    runOf.push(run);
    if (run === runs.length) {
      runs.push(word);
      runStarts.push(starts[i]!);
      runEnds.push(ends[i]!);
    } else {
      // A run's last word is the run itself: unsplit, or given whole after its parts.
      runs[run] = word;
      runEnds[run] = ends[i]!;
    }
  }
  const pausesAfter: boolean[] = [];
  for (let run = 0; run < runs.length; run++)
    pausesAfter.push(hasPause(text, runEnds[run]!, runStarts[run + 1] ?? text.length));
  return { words, runOf, runs, pausesAfter, runStarts, runEnds, text };
}
