import { isPlainObject } from '../base/json.js';

export interface ToolSearchSettings {
  enabled: 'auto' | 'on' | 'off';
  listing: 'auto' | 'on' | 'off';
  thresholdPct: number;
  listingMaxTokens: number;
  maxSearchLimit: number;
  searchDefaultLimit: number;
}

/**
 * Tool-search settings (reference §2.5), parsed forgivingly: a bad value falls back to its
 * default or is clamped, never rejected, so a hand-edited file cannot switch tool search off by
 * accident. Keys are read in camelCase (`thresholdPct`, our settings file) or in the
 * reference's snake_case (`threshold_pct`); camelCase wins when both are present.
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

function pick(raw: Record<string, unknown>, camel: string, snake: string): unknown {
  return raw[camel] !== undefined ? raw[camel] : raw[snake];
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
  const enabled = raw.enabled;
  if (enabled !== undefined && enabled !== null) settings.enabled = parseTriState(enabled);
  const listing = raw.listing;
  if (listing !== undefined && listing !== null) settings.listing = parseTriState(listing);

  const thresholdPct = toFloat(pick(raw, 'thresholdPct', 'threshold_pct'));
  if (thresholdPct !== undefined) settings.thresholdPct = clamp(thresholdPct, THRESHOLD_PCT_RANGE);
  const listingMaxTokens = toInt(pick(raw, 'listingMaxTokens', 'listing_max_tokens'));
  if (listingMaxTokens !== undefined)
    settings.listingMaxTokens = clamp(listingMaxTokens, LISTING_MAX_TOKENS_RANGE);
  const maxSearchLimit = toInt(pick(raw, 'maxSearchLimit', 'max_search_limit'));
  if (maxSearchLimit !== undefined) settings.maxSearchLimit = clamp(maxSearchLimit, MAX_SEARCH_LIMIT_RANGE);
  const searchDefaultLimit = toInt(pick(raw, 'searchDefaultLimit', 'search_default_limit'));
  // Clamped against the (possibly new) maximum, so the default can never exceed it.
  settings.searchDefaultLimit = clamp(searchDefaultLimit ?? settings.searchDefaultLimit, [
    1,
    settings.maxSearchLimit,
  ]);

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
