/**
 * Snowball English (Porter2) stemming, as the reference uses: `issues` → `issu`, `running` → `run`.
 *
 * A direct port of the Snowball `english` algorithm for the tokenizer's words (lower-case ASCII
 * letters and digits). The `snowball-stemmers` package computes the same stems (the tests check
 * this on tens of thousands of words) but at ~20 µs a word, which alone would cost a 4,000-tool
 * catalog 200 ms; this one is several times faster, and memoised on top.
 */

const MAX_CACHED = 100_000;
const cache = new Map<string, string>();

/** The stem of a lower-case ASCII word (memoised). */
export function stem(word: string): string {
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    stemmed = stemWord(word);
    // A bound keeps a long-running host from growing without limit on adversarial input.
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(word, stemmed);
  }
  return stemmed;
}

const EXCEPTIONS = new Map<string, string>([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

// Words left as they are once Step 1a has run.
const AFTER_STEP_1A = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

// The word being stemmed, as character codes: buffer[0 .. length). A consonant y is stored as `Y`.
let buffer = new Uint8Array(64);
let length = 0;

const Y_VOWEL = 121; // y
const Y_CONSONANT = 89; // Y
const code = (char: string): number => char.charCodeAt(0);

// `y` is a vowel; a `Y` (a consonant y, marked by the prelude) is not.
const VOWELS = new Uint8Array(128);
for (const char of 'aeiouy') VOWELS[code(char)] = 1;
const isVowel = (at: number): boolean => at >= 0 && at < length && VOWELS[buffer[at]!] === 1;

/** The word ends with `suffix`. */
function endsWith(suffix: string): boolean {
  const start = length - suffix.length;
  if (start < 0) return false;
  for (let i = 0; i < suffix.length; i++) if (buffer[start + i] !== suffix.charCodeAt(i)) return false;
  return true;
}

/** Replaces the last `count` letters by `replacement`. */
function replaceEnd(count: number, replacement: string): void {
  length -= count;
  for (let i = 0; i < replacement.length; i++) buffer[length++] = replacement.charCodeAt(i);
}

type Rule = readonly [suffix: string, replacement: string];
/** Rules by the code of their suffix's last letter, longest suffix first (Snowball `among`). */
type RuleTable = readonly (readonly Rule[] | undefined)[];

const STEP_2 = byLastLetter([
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['entli', 'ent'],
  ['izer', 'ize'],
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['alli', 'al'],
  ['fulness', 'ful'],
  ['ousli', 'ous'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['fulli', 'ful'],
  ['lessli', 'less'],
  ['li', ''],
]);
const STEP_3 = byLastLetter([
  ['tional', 'tion'],
  ['ational', 'ate'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
  ['ative', ''],
]);
const STEP_4 = byLastLetter(
  [
    'al',
    'ance',
    'ence',
    'er',
    'ic',
    'able',
    'ible',
    'ant',
    'ement',
    'ment',
    'ent',
    'ism',
    'ate',
    'iti',
    'ous',
    'ive',
    'ize',
    'ion',
  ].map((suffix): Rule => [suffix, '']),
);
const STEP_1B = ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed'];
const DOUBLES = new Uint8Array(128);
for (const char of 'bdfgmnprt') DOUBLES[code(char)] = 1;
const VALID_LI = new Uint8Array(128);
for (const char of 'cdeghkmnrt') VALID_LI[code(char)] = 1;

function byLastLetter(rules: Rule[]): RuleTable {
  const table: Rule[][] = [];
  for (const rule of rules.sort((a, b) => b[0].length - a[0].length)) {
    const last = rule[0].charCodeAt(rule[0].length - 1);
    const rules = table[last] ?? [];
    rules.push(rule);
    table[last] = rules;
  }
  return table;
}

function longestRule(table: RuleTable): Rule | undefined {
  const rules = length > 0 ? table[buffer[length - 1]!] : undefined;
  if (rules === undefined) return undefined;
  for (const rule of rules) if (endsWith(rule[0])) return rule;
  return undefined;
}

function hasVowel(end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(i)) return true;
  return false;
}

/** The first `end` letters end in a short syllable: consonant-vowel-consonant (last not w, x or Y), or vowel-consonant as the whole word. */
function endsShort(end: number): boolean {
  const last = buffer[end - 1]!;
  if (end >= 3) {
    return (
      !isVowel(end - 1) &&
      last !== code('w') &&
      last !== code('x') &&
      last !== Y_CONSONANT &&
      isVowel(end - 2) &&
      !isVowel(end - 3)
    );
  }
  return end === 2 && !isVowel(1) && isVowel(0);
}

/** Where the region after the first non-vowel following a vowel, from `from`, starts. */
function regionAfter(from: number): number {
  let i = from;
  while (i < length && !isVowel(i)) i++;
  while (i < length && isVowel(i)) i++;
  return i < length ? i + 1 : length;
}

function startsWith(prefix: string): boolean {
  if (length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** The stem of a lower-case ASCII word, computed afresh (see {@link stem} for the memoised one). */
export function stemWord(input: string): string {
  const exception = EXCEPTIONS.get(input);
  if (exception !== undefined) return exception;
  if (input.length < 3) return input;

  if (input.length > buffer.length) buffer = new Uint8Array(input.length * 2);
  length = input.length;
  // Prelude: a y at the start or after a vowel is a consonant, marked Y until the end.
  for (let i = 0; i < length; i++) {
    const char = input.charCodeAt(i);
    buffer[i] = char === Y_VOWEL && (i === 0 || isVowel(i - 1)) ? Y_CONSONANT : char;
  }
  // R1 and R2: after the first non-vowel that follows a vowel, once and twice.
  let p1: number;
  if (startsWith('gener') || startsWith('arsen')) p1 = 5;
  else if (startsWith('commun')) p1 = 6;
  else p1 = regionAfter(0);
  const p2 = p1 < length ? regionAfter(p1) : length;

  step1a();
  if (!isInvariantAfterStep1a()) {
    step1b(p1);
    step1c();
    stepR1(STEP_2, p1, p2);
    stepR1(STEP_3, p1, p2);
    step4(p2);
    step5(p1, p2);
  }
  return result(input);
}

/** The stem as a string: a prefix of the input when it is one (most stems), so nothing is copied. */
function result(input: string): string {
  let prefix = true;
  for (let i = 0; i < length && prefix; i++) {
    const char = buffer[i] === Y_CONSONANT ? Y_VOWEL : buffer[i]!;
    prefix = char === input.charCodeAt(i);
  }
  if (prefix) return length === input.length ? input : input.slice(0, length);
  let word = '';
  for (let i = 0; i < length; i++)
    word += String.fromCharCode(buffer[i] === Y_CONSONANT ? Y_VOWEL : buffer[i]!);
  return word;
}

function isInvariantAfterStep1a(): boolean {
  if (length !== 6 && length !== 7) return false;
  for (const word of AFTER_STEP_1A) if (word.length === length && startsWith(word)) return true;
  return false;
}

function step1a(): void {
  if (endsWith('sses')) {
    length -= 2;
  } else if (endsWith('ied') || endsWith('ies')) {
    if (length - 3 >= 2) replaceEnd(3, 'i');
    else length -= 1;
  } else if (endsWith('us') || endsWith('ss')) {
    // unchanged
  } else if (endsWith('s') && hasVowel(length - 2)) {
    // Drop a plural s when a vowel comes before the letter preceding it (`gaps` → `gap`, not `gas`).
    length -= 1;
  }
}

function step1b(p1: number): void {
  const last = buffer[length - 1];
  if (last !== Y_VOWEL && last !== code('g') && last !== code('d')) return;
  const suffix = STEP_1B.find((candidate) => endsWith(candidate));
  if (suffix === undefined) return;
  const start = length - suffix.length;
  if (suffix === 'eed' || suffix === 'eedly') {
    if (start >= p1) length = start + 2;
    return;
  }
  if (!hasVowel(start)) return;
  length = start;
  if (endsWith('at') || endsWith('bl') || endsWith('iz')) replaceEnd(0, 'e');
  else if (start >= 2 && buffer[start - 1] === buffer[start - 2] && DOUBLES[buffer[start - 1]!] === 1)
    length -= 1;
  else if (start === p1 && endsShort(start)) replaceEnd(0, 'e');
}

function step1c(): void {
  const last = buffer[length - 1];
  if ((last === Y_VOWEL || last === Y_CONSONANT) && length >= 3 && !isVowel(length - 2))
    buffer[length - 1] = code('i');
}

/** Steps 2 and 3: the longest listed suffix, replaced when it lies in R1. */
function stepR1(table: RuleTable, p1: number, p2: number): void {
  const rule = longestRule(table);
  if (rule === undefined) return;
  const [suffix, replacement] = rule;
  const start = length - suffix.length;
  if (start < p1) return;
  const before = start > 0 ? buffer[start - 1]! : 0;
  if (suffix === 'ogi' && before !== code('l')) return;
  if (suffix === 'li' && VALID_LI[before] !== 1) return;
  if (suffix === 'ative' && start < p2) return;
  replaceEnd(suffix.length, replacement);
}

function step4(p2: number): void {
  const rule = longestRule(STEP_4);
  if (rule === undefined) return;
  const start = length - rule[0].length;
  if (start < p2) return;
  if (rule[0] === 'ion' && buffer[start - 1] !== code('s') && buffer[start - 1] !== code('t')) return;
  length = start;
}

function step5(p1: number, p2: number): void {
  const start = length - 1;
  const last = buffer[start];
  if (last === code('e') && (start >= p2 || (start >= p1 && !endsShort(start)))) length = start;
  else if (last === code('l') && start >= p2 && buffer[start - 1] === code('l')) length = start;
}
