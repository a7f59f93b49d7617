/**
 * `toolbridge/engine`: tool search as a library. Build an index over tool entries and search it
 * synchronously; nothing here needs Electron, the host or a network.
 */
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
export { HERMES_OPTIONS, PLAIN_BM25_OPTIONS } from './presets.js';
export { ACTION_SYNONYMS } from './synonyms.js';
export {
  createToolIndex,
  DEFAULT_TOOL_INDEX_OPTIONS,
  type FieldWeights,
  type GateMode,
  type RelevanceFloor,
  resolveToolIndexOptions,
  type ToolIndexOptions,
  type ToolIndexOptionsInput,
} from './tool-index.js';
export type {
  Correction,
  ExtendableToolIndex,
  IndexEntry,
  MatchExplanation,
  SearchExplanation,
  SearchOptions,
  SearchResult,
  ToolIndex,
  WordFate,
} from './types.js';
