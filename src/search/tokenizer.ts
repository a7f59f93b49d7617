/**
 * Splits text into words: maximal runs of ASCII letters and digits (reference §1.2). Everything
 * else separates words, so `e-mail` is `e` + `mail` and a fully non-ASCII word yields nothing.
 * Optionally a run is split further at camelCase and letter/digit boundaries.
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

// Character kinds, as small integers so the scan loop stays monomorphic.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function kindOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
}

/** Calls `visit(word)` with each lower-cased word of `text`, in order. */
export function scanWords(
  text: string,
  options: Readonly<TokenizerOptions>,
  visit: (word: string) => void,
): void {
  const lower = text.toLowerCase();
  if (!options.splitCamelCase && !options.splitLetterDigit) {
    scanRuns(lower, visit);
    return;
  }
  // Boundaries need the original case; lower-casing may change the length of non-ASCII text,
  // and then positions no longer line up with the lower-cased copy.
  const aligned = lower.length === text.length;
  const emit = (start: number, end: number): void =>
    visit(aligned ? lower.slice(start, end) : text.slice(start, end).toLowerCase());
  const n = text.length;
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i <= n; i++) {
    const kind = i < n ? kindOf(text.charCodeAt(i)) : OTHER;
    if (kind === OTHER) {
      if (start >= 0) emit(start, i);
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (isBoundary(previous, kind, text, i, options)) {
      emit(start, i);
      start = i;
    }
    previous = kind;
  }
}

// The fast path for lower-cased text without extra splitting.
function scanRuns(lower: string, visit: (word: string) => void): void {
  const n = lower.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    const code = lower.charCodeAt(i);
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) visit(lower.slice(start, n));
}

function isBoundary(
  previous: number,
  kind: number,
  text: string,
  i: number,
  options: Readonly<TokenizerOptions>,
): boolean {
  if (options.splitLetterDigit && (previous === DIGIT) !== (kind === DIGIT)) return true;
  if (!options.splitCamelCase || kind !== UPPER) return false;
  // `createIssue`: lower → Upper. `HTTPServer`: the last capital of an acronym starts a new word.
  return previous === LOWER || (previous === UPPER && kindOf(text.charCodeAt(i + 1)) === LOWER);
}

/** Lower-cased words of `text`, in order, repeats kept. */
export function tokenize(text: string, options: Readonly<TokenizerOptions> = PLAIN_TOKENIZER): string[] {
  const words: string[] = [];
  scanWords(text, options, (word) => words.push(word));
  return words;
}
