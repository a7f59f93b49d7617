/**
 * What every settings section's validation shares: issues collected with their path, what was
 * wrong and what to send instead, and one INVALID_ARGUMENT listing them all. Each domain checks
 * its own section with these (design.md: a domain owns its settings section); host/ composes.
 */
import { ToolbridgeError } from './errors.js';
import { isPlainObject, type JsonObject } from './json.js';

export interface SettingsIssue {
  /** Where, e.g. `servers[2].url`. */
  path: string;
  message: string;
}

/**
 * One domain's part of the settings document: the top-level fields it owns, their defaults, and
 * their validation. `check` reads those fields from the whole raw document; an absent field
 * keeps its default.
 */
export interface SettingsSection<T extends object> {
  /** Fresh defaults (new objects on every call). */
  defaults(): T;
  check(c: SettingsChecker, raw: Record<string, unknown>): T;
}

/** A short, safe rendering of a wrong value for a message (long strings are cut). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return `${typeof value} ${String(value)}`;
}

/** `INVALID_ARGUMENT` naming every issue; `data.issues` holds them as `{ path, message }`. */
export function invalidSettings(issues: readonly SettingsIssue[]): ToolbridgeError {
  const lines = issues.map((issue) => `${issue.path} ${issue.message}`);
  const data: JsonObject = { issues: issues.map((issue) => ({ path: issue.path, message: issue.message })) };
  return new ToolbridgeError('INVALID_ARGUMENT', `Invalid settings: ${lines.join(' ')}`, { data });
}

/** Collects issues while reading a value, returning a usable fallback for each bad field. */
export class SettingsChecker {
  private readonly issues: SettingsIssue[] = [];

  issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw invalidSettings(this.issues);
  }

  knownKeys(value: Record<string, unknown>, path: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) {
        this.issue(
          path === '' ? key : `${path}.${key}`,
          `is not a known field; allowed here: ${allowed.join(', ')}.`,
        );
      }
    }
  }

  string(value: unknown, path: string, what?: string): string | undefined {
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.issue(path, `must be a non-empty string${what ? ` (${what})` : ''}; got ${describeValue(value)}.`);
    return undefined;
  }

  /** A non-empty string without spaces at either end (they would make a name never match). */
  trimmedString(value: unknown, path: string, what: string): string | undefined {
    const text = this.string(value, path, what);
    if (text === undefined || text.trim() === text) return text;
    this.issue(path, `must not start or end with spaces; send ${JSON.stringify(text.trim())}.`);
    return undefined;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value === 'boolean') return value;
    this.issue(path, `must be true or false; got ${describeValue(value)}.`);
    return false;
  }

  integer(value: unknown, path: string, min: number, max: number, unit: string): number {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    this.issue(path, `must be a whole number from ${min} to ${max} (${unit}); got ${describeValue(value)}.`);
    return min;
  }

  /** Top-level `key` as `check` reads it; absent keeps `fallback` (a section's default). */
  field<T>(raw: Record<string, unknown>, key: string, fallback: T, check: (value: unknown) => T): T {
    const value = raw[key];
    return value === undefined ? fallback : check(value);
  }

  /** A time limit at top-level `key`: whole milliseconds from 1 s to 24 h; absent keeps `fallback`. */
  durationMs(raw: Record<string, unknown>, key: string, fallback: number, example: string): number {
    return this.field(raw, key, fallback, (value) =>
      this.integer(value, key, 1_000, 24 * 3_600_000, `milliseconds, ${example}`),
    );
  }

  /** One of `choices`, quoted in the message (`"a", "b" or "c"`). */
  oneOf<T extends string>(value: unknown, path: string, choices: readonly T[], fallback: T): T {
    if (choices.includes(value as T)) return value as T;
    const quoted = choices.map((choice) => `"${choice}"`);
    const list = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
    this.issue(path, `must be ${list}; got ${describeValue(value)}.`);
    return fallback;
  }

  stringList(value: unknown, path: string): string[] {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    this.issue(path, `must be a list of strings like ["--port", "8080"]; got ${describeValue(value)}.`);
    return [];
  }

  stringMap(value: unknown, path: string): Record<string, string> {
    if (isPlainObject(value) && Object.values(value).every((item) => typeof item === 'string')) {
      return { ...(value as Record<string, string>) };
    }
    const bad = isPlainObject(value)
      ? Object.entries(value).find(([, item]) => typeof item !== 'string')
      : undefined;
    this.issue(
      bad ? `${path}.${bad[0]}` : path,
      bad
        ? `must be a string (quote numbers and booleans, e.g. "8080"); got ${describeValue(bad[1])}.`
        : `must be an object of string values like {"NAME": "value"}; got ${describeValue(value)}.`,
    );
    return {};
  }
}
