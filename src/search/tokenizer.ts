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

/**
 * Receives each word as a range of the scanned text plus a hash of its lower-cased characters
 * (FNV-1a), so a caller can look the word up without first making a string of it.
 */
export type WordVisitor = (text: string, start: number, end: number, hash: number) => void;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Calls `visit` for each word of `text`, in order. With splitting on, a run that splits is also
 * given whole after its parts (`PagerDuty` → `pager`, `duty`, `pagerduty`), so a query that
 * writes the name as one word still finds it.
 */
export function scanWords(text: string, options: Readonly<TokenizerOptions>, visit: WordVisitor): void {
  const n = text.length;
  const split = options.splitCamelCase || options.splitLetterDigit;
  let start = -1;
  let runStart = -1;
  let wasSplit = false;
  let hash = 0;
  let previous = OTHER;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    const kind = kindOf(code);
    if (kind === OTHER) {
      if (start >= 0) {
        visit(text, start, i, hash);
        if (wasSplit) visit(text, runStart, i, hashRange(text, runStart, i));
        start = -1;
      }
    } else {
      if (start < 0) {
        start = i;
        runStart = i;
        wasSplit = false;
        hash = FNV_OFFSET;
      } else if (
        split &&
        (kind !== previous || kind === UPPER) &&
        isBoundary(previous, kind, text, i, options)
      ) {
        visit(text, start, i, hash);
        start = i;
        wasSplit = true;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ (kind === UPPER ? code + 32 : code), FNV_PRIME);
    }
    previous = kind;
  }
  if (start >= 0) {
    visit(text, start, n, hash);
    if (wasSplit) visit(text, runStart, n, hashRange(text, runStart, n));
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
  scanWords(text, options, (source, start, end) => words.push(source.slice(start, end).toLowerCase()));
  return words;
}
