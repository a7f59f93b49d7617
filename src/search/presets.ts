import type { ToolIndexOptions } from './tool-index.js';

/**
 * Named option sets. `HERMES_OPTIONS` reproduces the reference engine exactly (one bag of words,
 * no field weights, rarest-term gate, relevance floor, Snowball stems, no camelCase splitting).
 */
export const HERMES_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  k1: 1.5,
  b: 0.75,
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
  relevanceFloor: Object.freeze({ fromTerms: 4, fraction: 0.5 }),
  typoCorrection: false,
  typoMinLength: 4,
  synonyms: Object.freeze([]),
  synonymWeight: 0.5,
  defaultLimit: 5,
});

/** Plain BM25 with stemming: the reference's documents and scores with no gate and no floor (a baseline). */
export const PLAIN_BM25_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  ...HERMES_OPTIONS,
  gate: 'off',
  relevanceFloor: null,
});
