import { isPlainObject } from '../base/json.js';
import { describeValue, type SettingsChecker } from '../base/settings-check.js';

export interface ToolSearchSettings {
  enabled: 'auto' | 'on' | 'off';
  listing: 'auto' | 'on' | 'off';
  thresholdPct: number;
  listingMaxTokens: number;
  maxSearchLimit: number;
  searchDefaultLimit: number;
}

/**
 * Tool-search settings (reference §2.5): their defaults, ranges and the two readers of one rule
 * set. `checkToolSearchSettings` reads settings.json's section and refuses a bad value with what
 * to send instead. `parseToolSearchConfig` reads the reference's config (`toolbridge --config`)
 * forgivingly: a bad value falls back to its default or is clamped, never rejected, so a
 * hand-edited file cannot switch tool search off by accident; keys in camelCase or the
 * reference's snake_case (`threshold_pct`), camelCase winning when both are present.
 */
export const DEFAULT_TOOL_SEARCH_SETTINGS: Readonly<ToolSearchSettings> = Object.freeze({
  enabled: 'auto',
  listing: 'auto',
  thresholdPct: 5,
  listingMaxTokens: 4000,
  maxSearchLimit: 25,
  searchDefaultLimit: 5,
});

export const THRESHOLD_PCT_RANGE = [0, 100] as const;
export const LISTING_MAX_TOKENS_RANGE = [200, 60_000] as const;
export const MAX_SEARCH_LIMIT_RANGE = [1, 50] as const;

export type TriState = ToolSearchSettings['enabled'];

export interface ParsedToolSearchConfig {
  settings: ToolSearchSettings;
  /**
   * Names that defer even when pinned (the reference's `defer` list, whose rule 1 lets it beat
   * the core set). Toolbridge has no built-in core tools, so the default is empty.
   */
  defer: string[];
  /** Human-readable notes about values that were ignored. */
  warnings: string[];
}

export interface ParseToolSearchConfigOptions {
  /** Where the value came from, for warnings. @defaultValue `'toolSearch'` */
  keyPath?: string;
}

/** `true/1/yes/on` → on, `false/0/no/off` → off, `auto` → auto, anything else → auto. */
export function parseTriState(value: unknown): TriState {
  const text = String(value).trim().toLowerCase();
  if (text === 'on' || text === 'true' || text === '1' || text === 'yes') return 'on';
  if (text === 'off' || text === 'false' || text === '0' || text === 'no') return 'off';
  return 'auto';
}

function toFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

function toInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string' || !/^\s*[+-]?\d+\s*$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

function clamp(value: number, [min, max]: readonly [number, number]): number {
  return Math.min(max, Math.max(min, value));
}

const TRI_STATE_KEYS = ['enabled', 'listing'] as const;
const TRI_STATES: readonly TriState[] = ['auto', 'on', 'off'];

type NumericKey = 'thresholdPct' | 'listingMaxTokens' | 'maxSearchLimit' | 'searchDefaultLimit';

/**
 * The numeric settings, the one set of rules both readers apply: the settings file
 * (`checkToolSearchSettings`, which refuses a value out of its range) and the reference's
 * config (`parseToolSearchConfig`, which clamps it). In order: a range may read an earlier value.
 */
const NUMERIC_RULES: ReadonlyArray<{
  key: NumericKey;
  /** The reference's spelling, read by `parseToolSearchConfig` only. */
  snake: string;
  integer: boolean;
  range: (settings: ToolSearchSettings) => readonly [number, number];
  unit: string;
}> = [
  {
    key: 'thresholdPct',
    snake: 'threshold_pct',
    integer: false,
    range: () => THRESHOLD_PCT_RANGE,
    unit: 'percent of the context length',
  },
  {
    key: 'listingMaxTokens',
    snake: 'listing_max_tokens',
    integer: true,
    range: () => LISTING_MAX_TOKENS_RANGE,
    unit: 'tokens',
  },
  {
    key: 'maxSearchLimit',
    snake: 'max_search_limit',
    integer: true,
    range: () => MAX_SEARCH_LIMIT_RANGE,
    unit: 'results',
  },
  {
    // Bounded by the (possibly new) maximum, so the default can never exceed it.
    key: 'searchDefaultLimit',
    snake: 'search_default_limit',
    integer: true,
    range: (settings) => [1, settings.maxSearchLimit],
    unit: 'results, at most maxSearchLimit',
  },
];

/**
 * settings.json's `toolSearch`: camelCase keys only, and a value the config reader would repair
 * is refused with what to send instead. A default that a lower maximum leaves out of range
 * (`searchDefaultLimit` 5 under `maxSearchLimit` 3) is clamped, as the config reader does: the
 * person did not send it.
 */
export function checkToolSearchSettings(
  c: SettingsChecker,
  raw: unknown,
  path = 'toolSearch',
): ToolSearchSettings {
  const settings: ToolSearchSettings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };
  if (!isPlainObject(raw)) {
    c.issue(path, `must be an object like {"enabled": "auto"}; got ${describeValue(raw)}.`);
    return settings;
  }
  c.knownKeys(raw, path, Object.keys(DEFAULT_TOOL_SEARCH_SETTINGS));
  for (const key of TRI_STATE_KEYS) {
    if (raw[key] !== undefined)
      settings[key] = c.oneOf(raw[key], `${path}.${key}`, TRI_STATES, settings[key]);
  }
  for (const rule of NUMERIC_RULES) {
    const [min, max] = rule.range(settings);
    const value = raw[rule.key];
    if (value === undefined) {
      settings[rule.key] = clamp(settings[rule.key], [min, max]);
    } else if (rule.integer) {
      settings[rule.key] = c.integer(value, `${path}.${rule.key}`, min, max, rule.unit);
    } else if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) {
      settings[rule.key] = value;
    } else {
      c.issue(
        `${path}.${rule.key}`,
        `must be a number from ${min} to ${max} (${rule.unit}); got ${describeValue(value)}.`,
      );
    }
  }
  return settings;
}

/**
 * Parses the tool-search config value. Not an object: `false` means `{ enabled: 'off' }`,
 * anything else (true, null, a string) the defaults.
 */
export function parseToolSearchConfig(
  raw: unknown,
  options: ParseToolSearchConfigOptions = {},
): ParsedToolSearchConfig {
  const keyPath = options.keyPath ?? 'toolSearch';
  const settings: ToolSearchSettings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };
  const result: ParsedToolSearchConfig = { settings, defer: [], warnings: [] };
  if (!isPlainObject(raw)) {
    if (raw === false) settings.enabled = 'off';
    return result;
  }
  for (const key of TRI_STATE_KEYS) {
    const value = raw[key];
    if (value !== undefined && value !== null) settings[key] = parseTriState(value);
  }
  for (const rule of NUMERIC_RULES) {
    const value = raw[rule.key] !== undefined ? raw[rule.key] : raw[rule.snake];
    const parsed = rule.integer ? toInt(value) : toFloat(value);
    settings[rule.key] = clamp(parsed ?? settings[rule.key], rule.range(settings));
  }

  const defer = raw.defer;
  if (Array.isArray(defer)) {
    result.defer = defer
      .filter((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
      .map((item) => String(item).trim())
      .filter((item) => item !== '');
  } else if (defer !== undefined && defer !== null) {
    result.warnings.push(
      `Ignoring ${keyPath}.defer (${JSON.stringify(defer)}): expected a YAML list or JSON array of tool names; using the default (none).`,
    );
  }
  return result;
}
