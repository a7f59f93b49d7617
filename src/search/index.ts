/**
 * `toolbridge/engine`: tool search as a library. Build an index over tool entries and search it
 * synchronously; nothing here needs Electron, the host or a network. This entry reads English
 * from npm packages through Node (`node/language-data.ts`); the core under it (`tool-index.ts`,
 * `english-reader.ts`, `reading.ts`) runs anywhere, given a reader (`{ reader }`).
 */
import { englishReader } from './english-reader.js';
import { NODE_LANGUAGE_DATA } from './node/language-data.js';
import type { ToolIndexOptions, ToolIndexOptionsInput } from './options.js';
import {
  DEFAULT_TOOL_INDEX_OPTIONS as CORE_DEFAULTS,
  createToolIndex as createCoreToolIndex,
  resolveToolIndexOptions as resolveCoreOptions,
} from './tool-index.js';
import type { ExtendableToolIndex, IndexEntry } from './types.js';

/** The English reader over Node's language data: the engine's default. */
export const NODE_ENGLISH_READER = englishReader(NODE_LANGUAGE_DATA);

/** The default options, with the English reader over Node's language data. */
export const DEFAULT_TOOL_INDEX_OPTIONS: Readonly<ToolIndexOptions> = Object.freeze({
  ...CORE_DEFAULTS,
  reader: NODE_ENGLISH_READER,
});

const withNodeReader = (options: ToolIndexOptionsInput | undefined): ToolIndexOptionsInput => ({
  ...options,
  reader: options?.reader ?? NODE_ENGLISH_READER,
});

/** See `tool-index.ts`; unless `options.reader` says otherwise, queries are read with Node's English data. */
export function createToolIndex(
  entries: readonly IndexEntry[],
  options?: ToolIndexOptionsInput,
): ExtendableToolIndex {
  return createCoreToolIndex(entries, withNodeReader(options));
}

/** Merges `input` over the defaults (Node's English reader) and validates the result. */
export function resolveToolIndexOptions(input?: ToolIndexOptionsInput): Readonly<ToolIndexOptions> {
  return resolveCoreOptions(withNodeReader(input));
}

export { ENGLISH_FRAMES, englishReader } from './english-reader.js';
export {
  type EvalMetrics,
  type EvalMiss,
  type EvalQuery,
  type EvalReport,
  type EvaluateOptions,
  evaluateIndex,
  evaluateTypos,
  type TypoQuery,
  type TypoReport,
} from './evaluate.js';
export { NODE_LANGUAGE_DATA } from './node/language-data.js';
export type {
  FieldWeights,
  GateMode,
  RelevanceFloor,
  ToolIndexOptions,
  ToolIndexOptionsInput,
} from './options.js';
export { HERMES_OPTIONS, PLAIN_BM25_OPTIONS } from './presets.js';
export {
  type LanguageData,
  NO_LANGUAGE_DATA,
  type QueryReader,
  type QueryReaderFactory,
  type RelatedWord,
} from './reading.js';
export { ACTION_SYNONYMS } from './synonyms.js';
export type {
  Correction,
  ExtendableToolIndex,
  IndexEntry,
  MatchExplanation,
  RelatedWordSource,
  SearchExplanation,
  SearchOptions,
  SearchResult,
  ToolIndex,
  WordExpansion,
  WordFate,
  WordFateReason,
} from './types.js';
