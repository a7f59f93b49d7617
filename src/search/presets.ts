import { englishReader } from './english-reader.js';
import type { ToolIndexOptions } from './options.js';
import { NO_LANGUAGE_DATA } from './reading.js';

/**
 * The reference engine, exactly: one bag of words per tool, no field weights, no camelCase
 * splitting, the rarest-term gate and the relevance floor, nothing corrected or re-ranked.
 */
export const HERMES_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  k1: 1.5,
  b: 0.75,
  lengthNormalization: 'document',
  fieldWeights: Object.freeze({
    name: 1,
    server: 1,
    description: 1,
    parameters: 1,
    parameterDescriptions: 0,
    keywords: 1,
  }),
  splitCamelCase: false,
  splitLetterDigit: false,
  gate: 'rarest-term',
  serviceNames: Object.freeze([]),
  knownApps: false,
  unknownNameMaxQueryWords: 10,
  unknownNameMaxWords: 2,
  relevanceFloor: Object.freeze({ fromTerms: 4, fraction: 0.5 }),
  commonWordZipf: 0,
  allWordsUpTo: 4,
  maxQueryTerms: 0,
  countRepeatedTerms: true,
  maxPerServer: 0,
  nameMatchBoost: 0,
  wordCoverageBoost: 0,
  typoCorrection: false,
  typoMinLength: 5,
  synonyms: Object.freeze([]),
  synonymWeight: 0.5,
  relatedWords: false,
  relatedWordWeights: Object.freeze({ synonym: 0.4, broader: 0.2 }),
  nameBridgeWeight: 0,
  reader: englishReader(NO_LANGUAGE_DATA),
  defaultLimit: 5,
});

/** Plain BM25 with stemming: the reference's documents and scores, no gate and no floor (a baseline). */
export const PLAIN_BM25_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  ...HERMES_OPTIONS,
  gate: 'off',
  relevanceFloor: null,
});
