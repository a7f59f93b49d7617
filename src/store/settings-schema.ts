/**
 * The settings document: its shape, defaults, validation and migration. Pure (no I/O), so the
 * renderer and tests can use it as is. Validation collects every problem with its path, what was
 * wrong and what to send instead.
 */
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import { isValidServerId, toServerId } from '../catalog/naming.js';
import type { Policy, ToolSearchSettings } from '../host/api.js';
import type { ServerConfig } from '../servers/types.js';

export const SETTINGS_VERSION = 1;

export interface ToolSettings {
  enabled?: boolean;
  pinned?: boolean;
}

export interface PolicySettings {
  /** Used when neither the tool nor its server has a policy. */
  default: Policy;
  /** Server id → policy. */
  servers: Record<string, Policy>;
  /** Agent-facing tool name (`mcp__server__tool`) → policy. */
  tools: Record<string, Policy>;
}

/** An agent allowed to call the endpoint. Its token is a secret and lives in the secret store. */
export interface AgentSettings {
  id: string;
  name: string;
  contextLengthTokens: number;
  /** ISO 8601. */
  createdAt: string;
}

export interface Settings {
  version: typeof SETTINGS_VERSION;
  /** In creation order; the host starts them in this order and closes them in reverse. */
  servers: ServerConfig[];
  /** Agent-facing tool name → per-tool switches. Absent means enabled, not pinned. */
  tools: Record<string, ToolSettings>;
  policies: PolicySettings;
  toolSearch: ToolSearchSettings;
  agents: AgentSettings[];
  /** Regular expression sources; matches are replaced before anything is logged or shown. */
  redactionPatterns: string[];
  /** How long an approval or connection card waits for the user. */
  cardTimeoutMs: number;
  /** How long a tool call may run on its server. */
  callTimeoutMs: number;
}

export const DEFAULT_TOOL_SEARCH: Readonly<ToolSearchSettings> = Object.freeze({
  enabled: 'auto',
  listing: 'auto',
  thresholdPct: 5,
  listingMaxTokens: 4000,
  maxSearchLimit: 25,
  searchDefaultLimit: 5,
});

export const DEFAULT_CARD_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    servers: [],
    tools: {},
    policies: { default: 'ask', servers: {}, tools: {} },
    toolSearch: { ...DEFAULT_TOOL_SEARCH },
    agents: [],
    redactionPatterns: [],
    cardTimeoutMs: DEFAULT_CARD_TIMEOUT_MS,
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
  };
}

export interface SettingsIssue {
  /** Where, e.g. `servers[2].url`. */
  path: string;
  message: string;
}

/** Upgrades a raw document from version `n` to `n + 1`; index `n - 1` holds the step from `n`. */
export type SettingsMigration = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Steps from each older version. Version 1 is the first, so none yet. */
export const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [];

export interface MigrationResult {
  value: Record<string, unknown>;
  /** The version the document had; equals SETTINGS_VERSION when nothing ran. */
  fromVersion: number;
}

/** Brings an older document up to SETTINGS_VERSION. A document without `version` counts as the current one. */
export function migrateSettings(
  raw: unknown,
  migrations: readonly SettingsMigration[] = SETTINGS_MIGRATIONS,
  currentVersion: number = SETTINGS_VERSION,
): MigrationResult {
  if (!isPlainObject(raw)) {
    throw invalid([{ path: '(root)', message: `must be a JSON object; got ${describe(raw)}.` }]);
  }
  const version = raw.version ?? currentVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw invalid([{ path: 'version', message: `must be a whole number ≥ 1; got ${describe(version)}.` }]);
  }
  if (version > currentVersion) {
    throw invalid([
      {
        path: 'version',
        message: `is ${version}, written by a newer Toolbridge; this one reads up to version ${currentVersion}. Update Toolbridge, or move the file aside to start over.`,
      },
    ]);
  }
  let value: Record<string, unknown> = { ...raw, version };
  for (let from = version; from < currentVersion; from++) {
    const step = migrations[from - 1];
    if (!step) throw new Error(`settings: no migration from version ${from}`);
    value = { ...step(value), version: from + 1 };
  }
  return { value, fromVersion: version };
}

/**
 * Checks a document (after migration) and returns it with defaults filled in. Throws
 * `INVALID_ARGUMENT` listing every issue; `data.issues` holds them as `{ path, message }`.
 */
export function validateSettings(raw: unknown): Settings {
  const c = new Checker();
  if (!isPlainObject(raw)) {
    throw invalid([{ path: '(root)', message: `must be a JSON object; got ${describe(raw)}.` }]);
  }
  const base = defaultSettings();
  c.knownKeys(raw, '', Object.keys(base));
  if (raw.version !== undefined && raw.version !== SETTINGS_VERSION) {
    c.issue(
      'version',
      `must be ${SETTINGS_VERSION}; got ${describe(raw.version)}. Run it through migrateSettings first.`,
    );
  }
  const settings: Settings = {
    version: SETTINGS_VERSION,
    servers: raw.servers === undefined ? base.servers : checkServers(c, raw.servers),
    tools: raw.tools === undefined ? base.tools : checkTools(c, raw.tools),
    policies: raw.policies === undefined ? base.policies : checkPolicies(c, raw.policies),
    toolSearch: raw.toolSearch === undefined ? base.toolSearch : checkToolSearch(c, raw.toolSearch),
    agents: raw.agents === undefined ? base.agents : checkAgents(c, raw.agents),
    redactionPatterns:
      raw.redactionPatterns === undefined ? base.redactionPatterns : checkPatterns(c, raw.redactionPatterns),
    cardTimeoutMs:
      raw.cardTimeoutMs === undefined
        ? base.cardTimeoutMs
        : c.integer(
            raw.cardTimeoutMs,
            'cardTimeoutMs',
            1_000,
            24 * 3_600_000,
            'milliseconds, e.g. 300000 for 5 minutes',
          ),
    callTimeoutMs:
      raw.callTimeoutMs === undefined
        ? base.callTimeoutMs
        : c.integer(
            raw.callTimeoutMs,
            'callTimeoutMs',
            1_000,
            24 * 3_600_000,
            'milliseconds, e.g. 60000 for 1 minute',
          ),
  };
  c.throwIfAny();
  return settings;
}

/** `migrateSettings` then `validateSettings`. */
export function parseSettingsValue(raw: unknown): { settings: Settings; fromVersion: number } {
  const { value, fromVersion } = migrateSettings(raw);
  return { settings: validateSettings(value), fromVersion };
}

/** Validates one server entry on its own (e.g. from the UI's add-server form). */
export function validateServerConfig(raw: unknown, path = 'server'): ServerConfig {
  const c = new Checker();
  const server = checkServer(c, raw, path);
  c.throwIfAny();
  return server!;
}

// ---------------------------------------------------------------------------------------------

const POLICIES: readonly Policy[] = ['allow', 'ask', 'deny'];
const TRANSPORTS = ['stdio', 'http', 'sse'] as const;
const COMMON_SERVER_KEYS = ['id', 'name', 'enabled', 'trusted', 'transport'];
const STDIO_KEYS = [...COMMON_SERVER_KEYS, 'command', 'args', 'env', 'cwd'];
const REMOTE_KEYS = [...COMMON_SERVER_KEYS, 'url', 'headers'];
const AGENT_ID = /^[A-Za-z0-9_-]+$/;

function checkServers(c: Checker, raw: unknown): ServerConfig[] {
  if (!Array.isArray(raw)) {
    c.issue('servers', `must be a list of server objects; got ${describe(raw)}.`);
    return [];
  }
  const servers: ServerConfig[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const path = `servers[${index}]`;
    const server = checkServer(c, item, path);
    if (!server) return;
    if (seen.has(server.id)) {
      c.issue(`${path}.id`, `"${server.id}" is used by an earlier server; every server needs its own id.`);
      return;
    }
    seen.add(server.id);
    servers.push(server);
  });
  return servers;
}

function checkServer(c: Checker, raw: unknown, path: string): ServerConfig | undefined {
  if (!isPlainObject(raw)) {
    c.issue(
      path,
      `must be an object like {"id": "github", "transport": "stdio", "command": "npx"}; got ${describe(raw)}.`,
    );
    return undefined;
  }
  const id = c.string(raw.id, `${path}.id`);
  if (id !== undefined && !isValidServerId(id)) {
    c.issue(
      `${path}.id`,
      `"${id}" may only hold lower-case letters, digits, "_" and "-"; send "${toServerId(id)}" instead.`,
    );
  }
  const transport = raw.transport as (typeof TRANSPORTS)[number];
  if (!TRANSPORTS.includes(transport)) {
    const hint =
      typeof raw.command === 'string'
        ? ' (it has a "command", so probably "stdio")'
        : typeof raw.url === 'string'
          ? ' (it has a "url", so probably "http")'
          : '';
    c.issue(`${path}.transport`, `must be "stdio", "http" or "sse"${hint}; got ${describe(transport)}.`);
    return undefined;
  }
  const common = {
    id: id ?? '',
    ...(raw.name === undefined ? {} : { name: c.string(raw.name, `${path}.name`) ?? '' }),
    enabled: raw.enabled === undefined ? true : c.boolean(raw.enabled, `${path}.enabled`),
    ...(raw.trusted === undefined ? {} : { trusted: c.boolean(raw.trusted, `${path}.trusted`) }),
  };
  if (transport === 'stdio') {
    c.knownKeys(raw, path, STDIO_KEYS);
    const command = c.string(
      raw.command,
      `${path}.command`,
      'the program to run, e.g. "npx" or "/usr/bin/python3"',
    );
    return {
      ...common,
      transport,
      command: command ?? '',
      ...(raw.args === undefined ? {} : { args: c.stringList(raw.args, `${path}.args`) }),
      ...(raw.env === undefined ? {} : { env: c.stringMap(raw.env, `${path}.env`) }),
      ...(raw.cwd === undefined ? {} : { cwd: c.string(raw.cwd, `${path}.cwd`) ?? '' }),
    };
  }
  c.knownKeys(raw, path, REMOTE_KEYS);
  const url = c.string(raw.url, `${path}.url`, 'the server address, e.g. "https://example.com/mcp"');
  if (url !== undefined && !isHttpUrl(url)) {
    c.issue(
      `${path}.url`,
      `must be an http:// or https:// address like "https://example.com/mcp"; got "${url}".`,
    );
  }
  return {
    ...common,
    transport,
    url: url ?? '',
    ...(raw.headers === undefined ? {} : { headers: c.stringMap(raw.headers, `${path}.headers`) }),
  };
}

function checkTools(c: Checker, raw: unknown): Record<string, ToolSettings> {
  const tools: Record<string, ToolSettings> = {};
  if (!isPlainObject(raw)) {
    c.issue(
      'tools',
      `must be an object keyed by tool name, like {"mcp__github__create_issue": {"pinned": true}}; got ${describe(raw)}.`,
    );
    return tools;
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `tools[${JSON.stringify(name)}]`;
    if (!isPlainObject(value)) {
      c.issue(path, `must be an object like {"enabled": false} or {"pinned": true}; got ${describe(value)}.`);
      continue;
    }
    c.knownKeys(value, path, ['enabled', 'pinned']);
    const entry: ToolSettings = {};
    if (value.enabled !== undefined) entry.enabled = c.boolean(value.enabled, `${path}.enabled`);
    if (value.pinned !== undefined) entry.pinned = c.boolean(value.pinned, `${path}.pinned`);
    tools[name] = entry;
  }
  return tools;
}

function checkPolicies(c: Checker, raw: unknown): PolicySettings {
  const policies: PolicySettings = { default: 'ask', servers: {}, tools: {} };
  if (!isPlainObject(raw)) {
    c.issue(
      'policies',
      `must be an object like {"default": "ask", "servers": {}, "tools": {}}; got ${describe(raw)}.`,
    );
    return policies;
  }
  c.knownKeys(raw, 'policies', ['default', 'servers', 'tools']);
  if (raw.default !== undefined) policies.default = c.policy(raw.default, 'policies.default');
  for (const key of ['servers', 'tools'] as const) {
    const map = raw[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) {
      c.issue(
        `policies.${key}`,
        `must be an object mapping names to "allow", "ask" or "deny"; got ${describe(map)}.`,
      );
      continue;
    }
    for (const [name, value] of Object.entries(map)) {
      policies[key][name] = c.policy(value, `policies.${key}[${JSON.stringify(name)}]`);
    }
  }
  return policies;
}

function checkToolSearch(c: Checker, raw: unknown): ToolSearchSettings {
  const result: ToolSearchSettings = { ...DEFAULT_TOOL_SEARCH };
  if (!isPlainObject(raw)) {
    c.issue('toolSearch', `must be an object like {"enabled": "auto"}; got ${describe(raw)}.`);
    return result;
  }
  c.knownKeys(raw, 'toolSearch', Object.keys(DEFAULT_TOOL_SEARCH));
  for (const key of ['enabled', 'listing'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (value === 'auto' || value === 'on' || value === 'off') result[key] = value;
    else c.issue(`toolSearch.${key}`, `must be "auto", "on" or "off"; got ${describe(value)}.`);
  }
  if (raw.thresholdPct !== undefined) {
    const value = raw.thresholdPct;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100)
      result.thresholdPct = value;
    else
      c.issue(
        'toolSearch.thresholdPct',
        `must be a number from 0 to 100 (percent of the context length); got ${describe(value)}.`,
      );
  }
  if (raw.listingMaxTokens !== undefined) {
    result.listingMaxTokens = c.integer(
      raw.listingMaxTokens,
      'toolSearch.listingMaxTokens',
      200,
      60_000,
      'tokens',
    );
  }
  if (raw.maxSearchLimit !== undefined) {
    result.maxSearchLimit = c.integer(raw.maxSearchLimit, 'toolSearch.maxSearchLimit', 1, 50, 'results');
  }
  if (raw.searchDefaultLimit !== undefined) {
    result.searchDefaultLimit = c.integer(
      raw.searchDefaultLimit,
      'toolSearch.searchDefaultLimit',
      1,
      result.maxSearchLimit,
      'results, at most maxSearchLimit',
    );
  }
  return result;
}

function checkAgents(c: Checker, raw: unknown): AgentSettings[] {
  if (!Array.isArray(raw)) {
    c.issue('agents', `must be a list of agent objects; got ${describe(raw)}.`);
    return [];
  }
  const agents: AgentSettings[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const path = `agents[${index}]`;
    if (!isPlainObject(item)) {
      c.issue(
        path,
        `must be an object like {"id": "a1", "name": "Claude", "contextLengthTokens": 200000, "createdAt": "2026-01-01T00:00:00.000Z"}; got ${describe(item)}.`,
      );
      return;
    }
    if ('token' in item) {
      c.issue(
        `${path}.token`,
        'must not be here: agent tokens are secrets and live in the secret store, never in settings.json. Remove the field.',
      );
    }
    c.knownKeys(item, path, ['id', 'name', 'contextLengthTokens', 'createdAt', 'token']);
    const id = c.string(item.id, `${path}.id`) ?? '';
    if (id !== '' && !AGENT_ID.test(id))
      c.issue(`${path}.id`, `may only hold letters, digits, "_" and "-"; got "${id}".`);
    if (seen.has(id))
      c.issue(`${path}.id`, `"${id}" is used by an earlier agent; every agent needs its own id.`);
    seen.add(id);
    const createdAt =
      c.string(item.createdAt, `${path}.createdAt`, 'an ISO 8601 time like "2026-01-01T00:00:00.000Z"') ?? '';
    if (createdAt !== '' && Number.isNaN(Date.parse(createdAt))) {
      c.issue(
        `${path}.createdAt`,
        `must be an ISO 8601 time like "2026-01-01T00:00:00.000Z"; got "${createdAt}".`,
      );
    }
    agents.push({
      id,
      name: c.string(item.name, `${path}.name`) ?? '',
      contextLengthTokens: c.integer(
        item.contextLengthTokens,
        `${path}.contextLengthTokens`,
        1_000,
        100_000_000,
        'tokens, e.g. 200000',
      ),
      createdAt,
    });
  });
  return agents;
}

function checkPatterns(c: Checker, raw: unknown): string[] {
  const patterns = c.stringList(raw, 'redactionPatterns');
  patterns.forEach((pattern, index) => {
    try {
      new RegExp(pattern);
    } catch (error) {
      c.issue(
        `redactionPatterns[${index}]`,
        `is not a valid regular expression (${(error as Error).message}); escape special characters like "\\\\." or "\\\\(".`,
      );
    }
  });
  return patterns;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return `${typeof value} ${String(value)}`;
}

function invalid(issues: SettingsIssue[]): ToolbridgeError {
  const lines = issues.map((issue) => `${issue.path} ${issue.message}`);
  const data: JsonObject = { issues: issues.map((issue) => ({ path: issue.path, message: issue.message })) };
  return new ToolbridgeError('INVALID_ARGUMENT', `Invalid settings: ${lines.join(' ')}`, { data });
}

/** Collects issues while reading a value, returning a usable fallback for each bad field. */
class Checker {
  private readonly issues: SettingsIssue[] = [];

  issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw invalid(this.issues);
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
    this.issue(path, `must be a non-empty string${what ? ` (${what})` : ''}; got ${describe(value)}.`);
    return undefined;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value === 'boolean') return value;
    this.issue(path, `must be true or false; got ${describe(value)}.`);
    return false;
  }

  integer(value: unknown, path: string, min: number, max: number, unit: string): number {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    this.issue(path, `must be a whole number from ${min} to ${max} (${unit}); got ${describe(value)}.`);
    return min;
  }

  policy(value: unknown, path: string): Policy {
    if (POLICIES.includes(value as Policy)) return value as Policy;
    this.issue(path, `must be "allow", "ask" or "deny"; got ${describe(value)}.`);
    return 'ask';
  }

  stringList(value: unknown, path: string): string[] {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    this.issue(path, `must be a list of strings like ["--port", "8080"]; got ${describe(value)}.`);
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
        ? `must be a string (quote numbers and booleans, e.g. "8080"); got ${describe(bad[1])}.`
        : `must be an object of string values like {"NAME": "value"}; got ${describe(value)}.`,
    );
    return {};
  }
}
