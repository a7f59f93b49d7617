/**
 * The settings document: its shape, defaults, validation and migration. Pure (no I/O), so the
 * renderer and tests can use it as is. Validation collects every problem with its path, what was
 * wrong and what to send instead.
 */

import { DEFAULT_CARD_TIMEOUT_MS } from '../approvals/approval-queue.js';
import { type PolicyRule, sameRuleAccount } from '../approvals/policy.js';
import { checkRedactionPatterns } from '../approvals/redaction.js';
import { POLICIES, type Policy } from '../approvals/types.js';
import { isPlainObject } from '../base/json.js';
import { isValidServerId, toServerId } from '../base/server-id.js';
import {
  SettingsChecker as Checker,
  describeValue as describe,
  invalidSettings as invalid,
  type SettingsIssue,
} from '../base/settings-check.js';
import { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE } from '../catalog/connector-names.js';
import {
  checkToolSearchSettings,
  DEFAULT_TOOL_SEARCH_SETTINGS,
  type ToolSearchSettings,
} from '../catalog/tool-search-config.js';
import type { OAuthClientConfig, ServerConfig } from '../servers/types.js';

/** 2 added `policies.rules` and `connectors`. */
export const SETTINGS_VERSION = 2;

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
  /**
   * Rules keyed by (server or connector id, tool name), as the approvals gate reads them: "always
   * allow" rules bound to a definition hash, whole-server rules, and rules with `redactOutbound`.
   */
  rules: PolicyRule[];
}

/** The connector gateway. Its token is a secret (CONNECTOR_GATEWAY_TOKEN_KEY), never here. */
export interface ConnectorSettings {
  /** The gateway's base URL (http or https); absent means connectors are off and silent. */
  gatewayUrl?: string;
  /** False turns connectors off while keeping the URL. */
  enabled: boolean;
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
  connectors: ConnectorSettings;
  /** Regular expression sources; matches are replaced before anything is logged or shown. */
  redactionPatterns: string[];
  /** How long an approval or connection card waits for the user. */
  cardTimeoutMs: number;
  /** How long a tool call may run on its server. */
  callTimeoutMs: number;
  /** The most one tool result may send the agent; more is cut with a note (bridge/result-cap.ts). */
  maxResultBytes: number;
}

/** The tool_search defaults live with their parser in the catalog; settings start from them. */
export const DEFAULT_TOOL_SEARCH: Readonly<ToolSearchSettings> = DEFAULT_TOOL_SEARCH_SETTINGS;

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** 256 KiB: about 64k tokens, already a large share of an agent's context. */
export const DEFAULT_MAX_RESULT_BYTES = 256 * 1024;
/** Up to 10 MiB, the most one message from a stdio server may hold anyway. */
export const MAX_RESULT_BYTES_RANGE = [4 * 1024, 10 * 1024 * 1024] as const;

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    servers: [],
    tools: {},
    policies: { default: 'ask', servers: {}, tools: {}, rules: [] },
    toolSearch: { ...DEFAULT_TOOL_SEARCH },
    agents: [],
    connectors: { enabled: true },
    redactionPatterns: [],
    cardTimeoutMs: DEFAULT_CARD_TIMEOUT_MS,
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  };
}

export type { SettingsIssue };

/** Upgrades a raw document from version `n` to `n + 1`; index `n - 1` holds the step from `n`. */
export type SettingsMigration = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Steps from each older version. */
export const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [
  // 1 → 2: the new sections are optional with defaults, so a version-1 document reads as is. The
  // bump is for older builds, which refuse unknown fields: they now say "written by a newer
  // Toolbridge" instead of "policies.rules is not a known field".
  (raw) => raw,
];

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
    toolSearch: raw.toolSearch === undefined ? base.toolSearch : checkToolSearchSettings(c, raw.toolSearch),
    agents: raw.agents === undefined ? base.agents : checkAgents(c, raw.agents),
    connectors: raw.connectors === undefined ? base.connectors : checkConnectors(c, raw.connectors),
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
    maxResultBytes:
      raw.maxResultBytes === undefined
        ? base.maxResultBytes
        : c.integer(
            raw.maxResultBytes,
            'maxResultBytes',
            ...MAX_RESULT_BYTES_RANGE,
            'bytes, e.g. 262144 for 256 KiB',
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

/** The gateway URL to use, or undefined when connectors are off (no URL, or switched off). */
export function connectorGatewayUrl(connectors: ConnectorSettings): string | undefined {
  return connectors.enabled ? connectors.gatewayUrl : undefined;
}

/**
 * `rules` with an "always allow" rule saved (see ApprovalsOptions.onAlwaysAllow). An earlier allow
 * rule for the same tool and account is replaced, since its definition hash is stale; its
 * `redactOutbound` carries over so saving again never quietly stops outbound redaction. Rules for
 * the tool's other accounts, and one for every account, stay as they are.
 */
export function withAlwaysAllowRule(rules: readonly PolicyRule[], rule: PolicyRule): PolicyRule[] {
  const same = (held: PolicyRule): boolean =>
    held.policy === 'allow' &&
    held.serverId === rule.serverId &&
    held.toolName === rule.toolName &&
    sameRuleAccount(held.account, rule.account);
  const redact =
    rule.redactOutbound === true || rules.some((held) => same(held) && held.redactOutbound === true);
  return [...rules.filter((held) => !same(held)), { ...rule, ...(redact ? { redactOutbound: true } : {}) }];
}

/** Validates one server entry on its own (e.g. from the UI's add-server form). */
export function validateServerConfig(raw: unknown, path = 'server'): ServerConfig {
  const c = new Checker();
  const server = checkServer(c, raw, path);
  c.throwIfAny();
  return server!;
}

// ---------------------------------------------------------------------------------------------

const TRANSPORTS = ['stdio', 'http', 'sse'] as const;
const COMMON_SERVER_KEYS = ['id', 'name', 'enabled', 'trusted', 'transport'];
const STDIO_KEYS = [...COMMON_SERVER_KEYS, 'command', 'args', 'env', 'cwd'];
const REMOTE_KEYS = [...COMMON_SERVER_KEYS, 'url', 'headers', 'oauth'];
const OAUTH_EXAMPLE = '{"clientId": "toolbridge-desktop", "redirectPort": 33418}';
const AGENT_ID = /^[A-Za-z0-9_-]+$/;
const RULE_KEYS = [
  'serverId',
  'toolName',
  'policy',
  'definitionHash',
  'redactOutbound',
  'savedAt',
  'savedFrom',
  'account',
];
const RULE_EXAMPLE = '{"serverId": "github", "toolName": "create_issue", "policy": "allow"}';

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
    ...(raw.oauth === undefined ? {} : { oauth: checkOAuthClient(c, raw.oauth, `${path}.oauth`) }),
  };
}

/** A pre-registered OAuth client. Messages never quote the client secret. */
function checkOAuthClient(c: Checker, raw: unknown, path: string): OAuthClientConfig {
  if (!isPlainObject(raw)) {
    c.issue(path, `must be an object like ${OAUTH_EXAMPLE}; got ${describe(raw)}.`);
    return { clientId: '' };
  }
  c.knownKeys(raw, path, ['clientId', 'clientSecret', 'redirectPort']);
  const clientId = c.trimmedString(
    raw.clientId,
    `${path}.clientId`,
    'the client ID the authorization server gave when the client was registered',
  );
  const client: OAuthClientConfig = { clientId: clientId ?? '' };
  if (raw.clientSecret !== undefined) {
    if (typeof raw.clientSecret === 'string' && raw.clientSecret !== '')
      client.clientSecret = raw.clientSecret;
    else
      c.issue(`${path}.clientSecret`, 'must be a non-empty string; leave it out for a client without one.');
  }
  if (raw.redirectPort !== undefined) {
    client.redirectPort = c.integer(
      raw.redirectPort,
      `${path}.redirectPort`,
      1,
      65_535,
      'the port of the redirect URI http://127.0.0.1:<port>/oauth/callback the client was registered with',
    );
  }
  return client;
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
  const policies: PolicySettings = { default: 'ask', servers: {}, tools: {}, rules: [] };
  if (!isPlainObject(raw)) {
    c.issue(
      'policies',
      `must be an object like {"default": "ask", "servers": {}, "tools": {}, "rules": []}; got ${describe(raw)}.`,
    );
    return policies;
  }
  c.knownKeys(raw, 'policies', ['default', 'servers', 'tools', 'rules']);
  if (raw.rules !== undefined) policies.rules = checkRules(c, raw.rules);
  if (raw.default !== undefined) policies.default = c.oneOf(raw.default, 'policies.default', POLICIES, 'ask');
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
      policies[key][name] = c.oneOf(value, `policies.${key}[${JSON.stringify(name)}]`, POLICIES, 'ask');
    }
  }
  return policies;
}

function checkRules(c: Checker, raw: unknown): PolicyRule[] {
  if (!Array.isArray(raw)) {
    c.issue('policies.rules', `must be a list of rules like ${RULE_EXAMPLE}; got ${describe(raw)}.`);
    return [];
  }
  const rules: PolicyRule[] = [];
  raw.forEach((item, index) => {
    const path = `policies.rules[${index}]`;
    if (!isPlainObject(item)) {
      c.issue(path, `must be an object like ${RULE_EXAMPLE}; got ${describe(item)}.`);
      return;
    }
    c.knownKeys(item, path, RULE_KEYS);
    const serverId = c.trimmedString(
      item.serverId,
      `${path}.serverId`,
      'the server or connector id, e.g. "github"',
    );
    const policyValid = POLICIES.includes(item.policy as Policy);
    const rule: PolicyRule = {
      serverId: serverId ?? '',
      policy: c.oneOf(item.policy, `${path}.policy`, POLICIES, 'ask'),
    };
    if (item.toolName !== undefined) {
      const toolName = c.trimmedString(
        item.toolName,
        `${path}.toolName`,
        `the tool's own name on its server, e.g. "create_issue"; leave it out for every tool of the server`,
      );
      const own =
        serverId === undefined || toolName === undefined ? undefined : ownToolName(serverId, toolName);
      if (own !== undefined) {
        c.issue(
          `${path}.toolName`,
          `is the agent-facing name; rules use the tool's own name on its server: send "${own}".`,
        );
      }
      rule.toolName = toolName ?? '';
    }
    if (item.definitionHash !== undefined) {
      const hash = c.string(item.definitionHash, `${path}.definitionHash`, "the tool definition's hash");
      if (hash !== undefined && rule.toolName === undefined) {
        c.issue(
          `${path}.definitionHash`,
          "needs a toolName: the hash binds one tool's definition, and a rule for every tool of a server would ignore it. Add toolName or remove definitionHash.",
        );
      } else if (hash !== undefined && policyValid && rule.policy !== 'allow') {
        c.issue(
          `${path}.definitionHash`,
          `is only for allow rules; a ${rule.policy} rule holds whatever the tool's definition. Remove definitionHash.`,
        );
      }
      rule.definitionHash = hash ?? '';
    }
    if (item.redactOutbound !== undefined) {
      rule.redactOutbound = c.boolean(item.redactOutbound, `${path}.redactOutbound`);
    }
    if (item.savedAt !== undefined) {
      const savedAt = c.string(item.savedAt, `${path}.savedAt`, 'an ISO date and time');
      if (savedAt !== undefined && Number.isNaN(Date.parse(savedAt))) {
        c.issue(
          `${path}.savedAt`,
          `must be an ISO date and time like "2026-09-01T10:00:00.000Z"; got ${describe(savedAt)}. Fix it or remove savedAt.`,
        );
      }
      if (savedAt !== undefined) rule.savedAt = savedAt;
    }
    if (item.savedFrom !== undefined) {
      if (item.savedFrom === 'card') rule.savedFrom = 'card';
      else c.issue(`${path}.savedFrom`, `can only be "card"; got ${describe(item.savedFrom)}. Remove it.`);
    }
    if (item.account !== undefined) checkRuleAccount(c, item.account, `${path}.account`, rule, policyValid);
    rules.push(rule);
  });
  return rules;
}

/**
 * A rule's `account`: `{"alias": "work"}` or `{"default": true}`, on an allow rule for one tool
 * (like the definition hash, it narrows what an allow covers; a deny or ask rule holds for every
 * account).
 */
function checkRuleAccount(
  c: Checker,
  raw: unknown,
  path: string,
  rule: PolicyRule,
  policyValid: boolean,
): void {
  const keys = isPlainObject(raw) ? Object.keys(raw) : [];
  if (isPlainObject(raw) && keys.length === 1 && typeof raw.alias === 'string') {
    if (ACCOUNT_ALIAS.test(raw.alias)) rule.account = { alias: raw.alias };
    else
      c.issue(
        `${path}.alias`,
        `must be an account alias (${ACCOUNT_ALIAS_RULE}); got ${describe(raw.alias)}.`,
      );
  } else if (isPlainObject(raw) && keys.length === 1 && raw.default === true) {
    rule.account = { default: true };
  } else {
    c.issue(
      path,
      `must be {"alias": "work"} for one account or {"default": true} for the app's default account; got ${describe(raw)}. Remove it for every account.`,
    );
  }
  if (rule.toolName === undefined) {
    c.issue(
      path,
      'needs a toolName: an account narrows an allow rule for one connector tool. Add toolName or remove account.',
    );
  } else if (policyValid && rule.policy !== 'allow') {
    c.issue(path, `is only for allow rules; a ${rule.policy} rule holds for every account. Remove account.`);
  }
}

/** The tool's own name when `toolName` is an agent-facing name of that server or connector. */
function ownToolName(serverId: string, toolName: string): string | undefined {
  for (const prefix of [`mcp__${serverId}__`, `connectors__${serverId}__`]) {
    if (toolName.startsWith(prefix) && toolName.length > prefix.length) return toolName.slice(prefix.length);
  }
  return undefined;
}

function checkConnectors(c: Checker, raw: unknown): ConnectorSettings {
  const connectors: ConnectorSettings = { enabled: true };
  if (!isPlainObject(raw)) {
    c.issue(
      'connectors',
      // A bare string here is likely the URL itself, maybe with a password in it: never quote it.
      `must be an object like {"gatewayUrl": "https://gateway.example.com/", "enabled": true}; got ${typeof raw === 'string' ? 'a string' : describe(raw)}.`,
    );
    return connectors;
  }
  if ('token' in raw) {
    c.issue(
      'connectors.token',
      'must not be here: the gateway token is a secret and lives in the secret store, never in settings.json. Remove the field and sign in to the gateway in Settings → Connectors.',
    );
  }
  c.knownKeys(raw, 'connectors', ['gatewayUrl', 'enabled', 'token']);
  if (raw.enabled !== undefined) connectors.enabled = c.boolean(raw.enabled, 'connectors.enabled');
  if (raw.gatewayUrl !== undefined) {
    const url = checkGatewayUrl(c, raw.gatewayUrl);
    if (url !== undefined) connectors.gatewayUrl = url;
  }
  return connectors;
}

/**
 * The URL, trimmed; undefined when blank (no gateway) or wrong. Messages never quote the URL: a
 * pasted address may carry a password or a token.
 */
function checkGatewayUrl(c: Checker, raw: unknown): string | undefined {
  const path = 'connectors.gatewayUrl';
  const example = 'like "https://gateway.example.com/"';
  if (typeof raw !== 'string') {
    c.issue(path, `must be a string ${example}; got ${describe(raw)}.`);
    return undefined;
  }
  const text = raw.trim();
  if (text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    c.issue(path, `is not a valid URL; enter the gateway's address ${example}.`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    c.issue(path, `must be an http:// or https:// address ${example}; got a "${url.protocol}" address.`);
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    c.issue(
      path,
      `must not hold a user name or password; remove them and sign in to the gateway in Settings → Connectors, which keeps the token in the secret store.`,
    );
    return undefined;
  }
  if (url.search !== '' || url.hash !== '') {
    c.issue(
      path,
      `must not hold a query ("?…") or fragment ("#…"): they are not sent to the gateway, and a token belongs in the secret store. Send just the address ${example}.`,
    );
    return undefined;
  }
  return text;
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
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) {
    // Never quote what was sent: people paste real secrets as literal patterns.
    const got = Array.isArray(raw)
      ? 'a list with an entry that is not a string'
      : typeof raw === 'string'
        ? 'a single string'
        : describe(raw);
    c.issue(
      'redactionPatterns',
      `must be a list of regular expressions like ["sk-[A-Za-z0-9]{20,}"]; got ${got}.`,
    );
    return [];
  }
  // The redactor's own check, so a saved pattern always compiles there; it names the pattern by
  // position only, never by its text.
  for (const problem of checkRedactionPatterns(raw)) {
    c.issue(`redactionPatterns[${problem.index}]`, `is refused: ${problem.message}`);
  }
  return raw;
}

/** An absolute http:// or https:// URL (a server, gateway or import entry). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
