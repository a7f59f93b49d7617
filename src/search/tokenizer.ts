/**
 * Splits text into words: maximal runs of ASCII letters and digits (reference §1.2). Everything
 * else separates words, so `e-mail` is `e` + `mail` and a fully non-ASCII word yields nothing.
 * Two exceptions, both English spelling: an apostrophe's clitic is no word of its own (`I'm` is
 * `i`, not `i` + `m`; `user's` is `user`), and a plural `s` stays with its acronym when camelCase
 * is split (`URLs` is `urls`, not `ur` + `ls`). Optionally a run is split further at camelCase
 * and letter/digit boundaries.
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

const kindOf = (code: number): number => (code < 128 ? KINDS[code]! : OTHER);

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
  const clitic = text.slice(at, at + length).toLowerCase();
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

/** Whether `text[at]` is a plural `s` ending an acronym's run (`URLs`, `IDs`, `APIsFor`). */
const isPluralS = (text: string, at: number): boolean =>
  text.charCodeAt(at) === 115 && kindOf(text.charCodeAt(at + 1)) !== LOWER;

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
  let hash = 0;
  let runHash = 0;
  let previous = OTHER;
  for (let i = from; i < n; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? KINDS[code]! : OTHER;
    if (kind === OTHER) {
      if (start >= 0) {
        spans.push(start, i, hash);
        if (start !== runStart) spans.push(runStart, i, runHash, 1);
        spans.runCount += 1;
        start = -1;
        if (code === APOSTROPHE || code === RIGHT_QUOTE) i += cliticsLength(text, i + 1);
      }
    } else {
      if (start < 0) {
        start = i;
        runStart = i;
        hash = FNV_OFFSET;
        runHash = FNV_OFFSET;
      } else if (
        (digits && (previous === DIGIT) !== (kind === DIGIT)) ||
        // `createIssue`: lower → Upper. `HTTPServer`: the last capital of an acronym starts a word.
        (camel &&
          kind === UPPER &&
          (previous === LOWER ||
            (previous === UPPER &&
              i + 1 < n &&
              kindOf(text.charCodeAt(i + 1)) === LOWER &&
              !isPluralS(text, i + 1))))
      ) {
        spans.push(start, i, hash);
        start = i;
        hash = FNV_OFFSET;
      }
      const lower = kind === UPPER ? code + 32 : code;
      hash = Math.imul(hash ^ lower, FNV_PRIME);
      runHash = Math.imul(runHash ^ lower, FNV_PRIME);
    }
    previous = kind;
  }
  if (start >= 0) {
    spans.push(start, n, hash);
    if (start !== runStart) spans.push(runStart, n, runHash, 1);
    spans.runCount += 1;
  }
}

/** The hash `scanWords` gives the lower-cased `text[start, end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    hash = Math.imul(hash ^ (code >= 65 && code <= 90 ? code + 32 : code), FNV_PRIME);
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

export function tokenizeRuns(text: string, options: Readonly<TokenizerOptions> = PLAIN_TOKENIZER): TextWords {
  scanWords(text, 0, options, querySpans);
  const count = querySpans.count;
  const words = new Array<string>(count);
  const runOf = new Array<number>(count);
  const runs = new Array<string>(querySpans.runCount);
  const runStarts = new Array<number>(querySpans.runCount);
  const runEnds = new Array<number>(querySpans.runCount);
  for (let i = 0; i < count; i++) {
    words[i] = text.slice(querySpans.starts[i], querySpans.ends[i]).toLowerCase();
    runOf[i] = querySpans.runs[i]!;
    // A run's last word is the run itself: unsplit, or given whole after its parts.
    runs[runOf[i]!] = words[i]!;
    runStarts[runOf[i]!] ??= querySpans.starts[i]!;
    runEnds[runOf[i]!] = querySpans.ends[i]!;
  }
  const pausesAfter = runs.map((_, run) => hasPause(text, runEnds[run]!, runStarts[run + 1] ?? text.length));
  return { words, runOf, runs, pausesAfter, runStarts, runEnds };
}
