import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isEnglishWord } from './common-words.js';
import { firstWordsOfPhrases, isKnownApp } from './known-apps.js';

/**
 * Names of what a task is about: places, languages, currencies and days (`paris`, `texas`,
 * `canberra`, `french`, `rust`, `usd`, `bitcoin`, `saturday`). Where a query ends `in <word>` or opens with a word, an unknown
 * word usually names the app to run it in (`create an invoice in harvest`); one of these there is
 * the task's subject (`weather in paris`, `exceptions in ruby`, `a meeting on saturday`), so it
 * never empties the result.
 *
 * Places come from `city-timezones` (cities of at least 100,000 people, their provinces and
 * countries) and languages and currency codes from `countries-list`, file formats from `mime-db`'s
 * extensions (`xlsx`, `yml`: `duplicate a worksheet in xlsx`), stock tickers from
 * `list-of-stocks` (`msft`), coins from `cryptocurrencies` (`ethereum`), all read on first use. One-word
 * names only: queries are read a word at a time.
 */

const require = createRequire(import.meta.url);

const MIN_CITY_POPULATION = 100_000;

const ONE_WORD_COIN = /^[a-z]{4,}$/;

/** Languages code is written in, which no country list names. */
const PROGRAMMING_LANGUAGES = [
  'bash',
  'clojure',
  'cobol',
  'cpp',
  'csharp',
  'dart',
  'elixir',
  'erlang',
  'fortran',
  'golang',
  'groovy',
  'haskell',
  'java',
  'javascript',
  'julia',
  'kotlin',
  'lua',
  'matlab',
  'ocaml',
  'perl',
  'php',
  'powershell',
  'python',
  'ruby',
  'rust',
  'scala',
  'solidity',
  'swift',
  'typescript',
  'zig',
];

/** Days and months; not `monday`, which is also a well-known app (monday.com). */
const CALENDAR = [
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

let names: Set<string> | undefined;
// Every city, province and country of `city-timezones`, however small: see `isPlaceName`.
let places: Set<string> | undefined;

export function isSubjectName(word: string): boolean {
  names ??= loadNames();
  return names.has(word) || isTicker(word) || isCoin(word);
}

// `cryptocurrencies.json` in lower case: one `"ticker": "name",` a line.
let coinList: string | undefined;
const coins = new Map<string, boolean>();

/**
 * A coin is a currency (`bitcoin price`), though the brand lists draw its logo: a known app that
 * the coin list names, with a ticker of its own (a token named after a brand is ticked with the
 * brand's name: `REDDIT`). Coins no brand list knows are thousands, many named like apps. Only a
 * known app's name is looked for, in the list's text.
 */
function isCoin(word: string): boolean {
  if (!ONE_WORD_COIN.test(word) || !isKnownApp(word)) return false;
  let coin = coins.get(word);
  if (coin === undefined) {
    coinList ??= readFileSync(
      require.resolve('cryptocurrencies/cryptocurrencies.json'),
      'utf8',
    ).toLowerCase();
    const named = `": "${word}"`;
    coin = false;
    for (let at = coinList.indexOf(named); at >= 0 && !coin; at = coinList.indexOf(named, at + 1)) {
      const ticker = coinList.slice(coinList.lastIndexOf('"', at - 1) + 1, at);
      // A whole value: its entry ends right after it (`"btc": "bitcoin",`).
      const whole = /[,\n]/.test(coinList[at + named.length] ?? '');
      coin = whole && ticker !== word && !isEnglishWord(word);
    }
    coins.set(word, coin);
  }
  return coin;
}

// Stock tickers of four or five letters (`list-of-stocks`, NYSE and NASDAQ), lower-cased.
let tickers: Set<string> | undefined;

/**
 * A stock ticker is what a task is about (`msft dividend history`), but one that is an English word
 * or a known app (`team`, `uber`) is read as that; shorter tickers are mostly other acronyms too
 * (`PSN`, `IBM`).
 */
function isTicker(word: string): boolean {
  if (tickers === undefined) {
    const { fullList } = require('list-of-stocks') as { fullList: string[] };
    tickers = new Set();
    for (const ticker of fullList) if (/^[A-Z]{4,5}$/.test(ticker)) tickers.add(ticker.toLowerCase());
  }
  return tickers.has(word) && !isEnglishWord(word) && !isKnownApp(word);
}

/**
 * Whether a word, or two joined by one space, names a place of any size (`darwin`, `manhattan`).
 * Too many apps share a small town's name for a subject name (see `MIN_CITY_POPULATION`), but a
 * capital after `in` in a task is a place before it is an app.
 */
export function isPlaceName(word: string): boolean {
  names ??= loadNames();
  return places!.has(word) || names.has(word);
}

let phraseStarts: ReadonlySet<string> | undefined;

/** Whether some two-word subject name starts with this word (`san` of `san francisco`). */
export function startsSubjectPhrase(word: string): boolean {
  names ??= loadNames();
  phraseStarts ??= firstWordsOfPhrases(names);
  return phraseStarts.has(word);
}

function loadNames(): Set<string> {
  const cityMapping = readCities(readFileSync(require.resolve('city-timezones/data/cityMap.json'), 'utf8'));
  const { countries, languages } = require('countries-list') as typeof import('countries-list');
  const found = new Set<string>([...PROGRAMMING_LANGUAGES, ...CALENDAR]);
  places = new Set<string>();
  const addTo = (set: Set<string>, name: string | undefined) => {
    const word = name?.toLowerCase();
    // Two-word names too (`san francisco`, `united states`), looked up joined by one space.
    if (word !== undefined && /^[a-z]+(?: [a-z]+)?$/.test(word)) set.add(word);
  };
  const add = (name: string | undefined) => addTo(found, name);
  for (const city of cityMapping) {
    addTo(places, city.city_ascii);
    addTo(places, city.province);
    if (city.pop < MIN_CITY_POPULATION) continue;
    add(city.city_ascii);
    add(city.province);
  }
  for (const country of Object.values(countries)) {
    add(country.name);
    // A currency is what a task is about (`usd to eur rate`), never a service.
    for (const code of country.currency) add(code);
  }
  for (const language of Object.values(languages)) add(language.name);
  const types = require('mime-db') as Record<string, { extensions?: string[] }>;
  for (const type of Object.values(types)) {
    for (const extension of type.extensions ?? []) {
      // `key` and `pages` stay English and `edx` an app: only what is nothing else is a format.
      if (extension.length >= 3 && !isEnglishWord(extension) && !isKnownApp(extension)) add(extension);
    }
  }
  return found;
}

/** A city of `city-timezones`: the fields read here. */
export interface CityRecord {
  city_ascii: string;
  province: string;
  pop: number;
}

const CITY_FIELD = '"city_ascii": "';
const POP_FIELD = '"pop": ';
const PROVINCE_FIELD = '"province": "';

/**
 * The cities of `city-timezones`' data file, read from its text field by field: `JSON.parse` of
 * its 1.9 MB took about 20 ms of a first query. The file writes one field a line, in one order,
 * and no name holds a quote; a test checks this reading against `JSON.parse` of the same file.
 */
export function readCities(text: string): CityRecord[] {
  const cities: CityRecord[] = [];
  for (let at = text.indexOf(CITY_FIELD); at >= 0; at = text.indexOf(CITY_FIELD, at)) {
    const nameStart = at + CITY_FIELD.length;
    const nameEnd = text.indexOf('"', nameStart);
    const popStart = text.indexOf(POP_FIELD, nameEnd) + POP_FIELD.length;
    const popEnd = text.indexOf(',', popStart);
    const provinceStart = text.indexOf(PROVINCE_FIELD, popEnd) + PROVINCE_FIELD.length;
    const provinceEnd = text.indexOf('"', provinceStart);
    cities.push({
      city_ascii: text.slice(nameStart, nameEnd),
      province: text.slice(provinceStart, provinceEnd),
      pop: Number(text.slice(popStart, popEnd)),
    });
    at = provinceEnd;
  }
  return cities;
}
