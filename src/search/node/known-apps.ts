import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { hashRange } from '../tokenizer.js';

/**
 * Names of apps, services and companies from maintained lists, read on first use: the brands of
 * `simple-icons` (titles and their also-known-as names), the company names of
 * `@cspell/dict-companies` and the software tools of `@cspell/dict-software-terms`. One-word
 * names of at least three letters (digits may stand among them: `1Password`, `Neo4j`), not all
 * capitals (`AAPL`, `ABB` are tickers and acronyms, not how people name an app), or a brand's two
 * letters around a digit (`n8n`, `k3s`); names of two words, looked up joined by one space
 * (`google docs`, `semantic scholar`); and apps named by their domain (`booking.com`, `last.fm`).
 */

let names: ReadonlySet<string> | undefined;
let phraseStarts: ReadonlySet<string> | undefined;
let joinedFilter: Uint8Array | undefined;

export function isKnownApp(word: string): boolean {
  names ??= loadNames();
  return names.has(word);
}

/**
 * Whether two words written together are a known app (`survey` + `monkey`). A query asks this of
 * every pair of neighbours, so a bit table of the names' hashes answers most pairs without
 * building the joined string.
 */
export function isKnownAppJoined(first: string, second: string): boolean {
  names ??= loadNames();
  joinedFilter ??= hashFilter(names);
  const hash = hashRange(second, 0, second.length, hashRange(first, 0, first.length));
  if ((joinedFilter[(hash >>> 3) & FILTER_MASK]! & (1 << (hash & 7))) === 0) return false;
  return names.has(first + second);
}

// The tokenizer's word hash; a 2^20-bit table keeps false positives near one in twenty.
const FILTER_BYTES = 1 << 17;
const FILTER_MASK = FILTER_BYTES - 1;

function hashFilter(of: ReadonlySet<string>): Uint8Array {
  const filter = new Uint8Array(FILTER_BYTES);
  for (const name of of) {
    const hash = hashRange(name, 0, name.length);
    const at = (hash >>> 3) & FILTER_MASK;
    filter[at] = filter[at]! | (1 << (hash & 7));
  }
  return filter;
}

/** Whether some two-word known app starts with this word (`google` of `google docs`). */
export function startsKnownAppPhrase(word: string): boolean {
  names ??= loadNames();
  phraseStarts ??= firstWordsOfPhrases(names);
  return phraseStarts.has(word);
}

/** The first words of the two-word names in `names`. */
export function firstWordsOfPhrases(names: ReadonlySet<string>): ReadonlySet<string> {
  const starts = new Set<string>();
  for (const name of names) {
    const space = name.indexOf(' ');
    if (space > 0) starts.add(name.slice(0, space));
  }
  return starts;
}

// Letters and digits, at least three letters: `1Password`, `Neo4j`, `Auth0`, not `S3` or `3M`.
const ONE_WORD = /^(?=(?:[0-9]*[A-Za-z]){3})[A-Za-z0-9]+$/;
// A brand's title of two letters around a digit: `n8n`, `k3s`.
const LETTERS_AND_DIGITS = /^[A-Za-z][0-9][A-Za-z]$/;
const TWO_WORDS = /^[A-Za-z0-9]+ [A-Za-z0-9]+$/;
const DOMAIN_NAME = /^[A-Za-z0-9-]+\.[A-Za-z]{2,}$/;

function loadNames(): ReadonlySet<string> {
  const require = createRequire(import.meta.url);
  const found = new Set<string>();
  const add = (name: string, brand = false) => {
    const named =
      (ONE_WORD.test(name) && name !== name.toUpperCase()) ||
      (brand && LETTERS_AND_DIGITS.test(name)) ||
      TWO_WORDS.test(name);
    if (named || DOMAIN_NAME.test(name)) found.add(name.toLowerCase());
  };
  const icons = require('simple-icons/icons.json') as { title: string; aliases?: { aka?: string[] } }[];
  for (const icon of icons) {
    add(icon.title, true);
    for (const alias of icon.aliases?.aka ?? []) add(alias);
  }
  for (const [pkg, file] of [
    ['@cspell/dict-companies', 'companies.txt'],
    ['@cspell/dict-software-terms', 'software-tools.txt'],
    ['@cspell/dict-software-terms', 'webServices.txt'],
  ] as const) {
    const folder = join(dirname(require.resolve(`${pkg}/cspell-ext.json`)), 'dict');
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) add(line.trim());
  }
  return found;
}
