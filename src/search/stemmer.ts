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

// Suffix tables by last letter, longest first, so the first suffix that fits is the longest
// (Snowball `among`).
type Rule = readonly [suffix: string, replacement: string];
type RuleTable = ReadonlyMap<string, readonly Rule[]>;
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
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const VALID_LI = 'cdeghkmnrt';

function byLastLetter(rules: Rule[]): RuleTable {
  const table = new Map<string, Rule[]>();
  for (const rule of rules.sort((a, b) => b[0].length - a[0].length)) {
    const last = rule[0].slice(-1);
    table.set(last, [...(table.get(last) ?? []), rule]);
  }
  return table;
}

function longestRule(word: string, table: RuleTable): Rule | undefined {
  const rules = table.get(word[word.length - 1] ?? '');
  if (rules === undefined) return undefined;
  for (const rule of rules) if (word.endsWith(rule[0])) return rule;
  return undefined;
}

// `y` is a vowel; a `Y` (a consonant y, marked by the prelude) is not.
function isVowel(char: string | undefined): boolean {
  return char === 'a' || char === 'e' || char === 'i' || char === 'o' || char === 'u' || char === 'y';
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(word[i])) return true;
  return false;
}

/** Ends in a short syllable: consonant-vowel-consonant (last not w, x or Y), or vowel-consonant as the whole word. */
function endsShort(word: string): boolean {
  const n = word.length;
  const last = word[n - 1];
  if (n >= 3) {
    return (
      !isVowel(last) &&
      last !== 'w' &&
      last !== 'x' &&
      last !== 'Y' &&
      isVowel(word[n - 2]) &&
      !isVowel(word[n - 3])
    );
  }
  return n === 2 && !isVowel(last) && isVowel(word[0]);
}

/** R1 and R2 starts: after the first non-vowel that follows a vowel, once and twice. */
function regions(word: string): [number, number] {
  const n = word.length;
  const after = (from: number): number => {
    let i = from;
    while (i < n && !isVowel(word[i])) i++;
    while (i < n && isVowel(word[i])) i++;
    return i < n ? i + 1 : n;
  };
  let p1: number;
  if (word.startsWith('gener') || word.startsWith('arsen')) p1 = 5;
  else if (word.startsWith('commun')) p1 = 6;
  else p1 = after(0);
  return [p1, p1 < n ? after(p1) : n];
}

/** The stem of a lower-case ASCII word, computed afresh (see {@link stem} for the memoised one). */
export function stemWord(input: string): string {
  const exception = EXCEPTIONS.get(input);
  if (exception !== undefined) return exception;
  if (input.length < 3) return input;

  // Prelude: a y at the start or after a vowel is a consonant, marked Y until the end.
  let word = input;
  if (word.includes('y')) {
    let marked = '';
    for (let i = 0; i < word.length; i++) {
      const char = word[i]!;
      marked += char === 'y' && (i === 0 || isVowel(marked[i - 1])) ? 'Y' : char;
    }
    word = marked;
  }
  const [p1, p2] = regions(word);

  word = step1a(word);
  if (!AFTER_STEP_1A.has(word)) {
    word = step1b(word, p1);
    word = step1c(word);
    word = stepR1(word, STEP_2, p1, p2);
    word = stepR1(word, STEP_3, p1, p2);
    word = step4(word, p2);
    word = step5(word, p1, p2);
  }
  return word.replaceAll('Y', 'y');
}

function step1a(word: string): string {
  const n = word.length;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ied') || word.endsWith('ies'))
    return n - 3 >= 2 ? `${word.slice(0, -3)}i` : word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  // Drop a plural s when a vowel comes before the letter preceding it (`gaps` → `gap`, not `gas`).
  if (word.endsWith('s') && hasVowel(word, n - 2)) return word.slice(0, -1);
  return word;
}

function step1b(word: string, p1: number): string {
  const last = word[word.length - 1];
  if (last !== 'y' && last !== 'g' && last !== 'd') return word;
  const suffix = STEP_1B.find((candidate) => word.endsWith(candidate));
  if (suffix === undefined) return word;
  const start = word.length - suffix.length;
  if (suffix === 'eed' || suffix === 'eedly') return start >= p1 ? `${word.slice(0, start)}ee` : word;
  if (!hasVowel(word, start)) return word;
  const rest = word.slice(0, start);
  if (rest.endsWith('at') || rest.endsWith('bl') || rest.endsWith('iz')) return `${rest}e`;
  if (DOUBLES.has(rest.slice(-2))) return rest.slice(0, -1);
  if (rest.length === p1 && endsShort(rest)) return `${rest}e`;
  return rest;
}

function step1c(word: string): string {
  const n = word.length;
  const last = word[n - 1];
  if ((last === 'y' || last === 'Y') && n >= 3 && !isVowel(word[n - 2])) return `${word.slice(0, -1)}i`;
  return word;
}

/** Steps 2 and 3: the longest listed suffix, replaced when it lies in R1. */
function stepR1(word: string, table: RuleTable, p1: number, p2: number): string {
  const rule = longestRule(word, table);
  if (rule === undefined) return word;
  const [suffix, replacement] = rule;
  const start = word.length - suffix.length;
  if (start < p1) return word;
  const before = word[start - 1];
  if (suffix === 'ogi' && before !== 'l') return word;
  if (suffix === 'li' && (before === undefined || !VALID_LI.includes(before))) return word;
  if (suffix === 'ative' && start < p2) return word;
  return word.slice(0, start) + replacement;
}

function step4(word: string, p2: number): string {
  const rule = longestRule(word, STEP_4);
  if (rule === undefined) return word;
  const start = word.length - rule[0].length;
  if (start < p2) return word;
  if (rule[0] === 'ion' && word[start - 1] !== 's' && word[start - 1] !== 't') return word;
  return word.slice(0, start);
}

function step5(word: string, p1: number, p2: number): string {
  const start = word.length - 1;
  const last = word[start];
  if (last === 'e' && (start >= p2 || (start >= p1 && !endsShort(word.slice(0, start)))))
    return word.slice(0, start);
  if (last === 'l' && start >= p2 && word[start - 1] === 'l') return word.slice(0, start);
  return word;
}
