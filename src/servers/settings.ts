/**
 * The servers' part of settings.json: `servers` (each MCP server's config, checked one by one
 * with what to send instead) and `callTimeoutMs`, with their defaults. Pure;
 * host/settings-document.ts composes it with the other domains' sections.
 */
import { isPlainObject } from '../base/json.js';
import { isValidServerId, toServerId } from '../base/server-id.js';
import { describeValue, SettingsChecker, type SettingsSection } from '../base/settings-check.js';
import type { OAuthClientConfig, ServerConfig } from './types.js';

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** 10 minutes: a long job that keeps reporting progress may run this long. */
export const DEFAULT_MAX_CALL_TIMEOUT_MS = 10 * 60_000;

export interface ServersSection {
  /** In creation order; the host starts them in this order and closes them in reverse. */
  servers: ServerConfig[];
  /** How long a tool call may run on its server; each progress notification starts it again. */
  callTimeoutMs: number;
  /** The longest a call may run however often its server reports progress. */
  maxCallTimeoutMs: number;
}

export const SERVERS_SECTION: SettingsSection<ServersSection> = {
  defaults: () => ({
    servers: [],
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    maxCallTimeoutMs: DEFAULT_MAX_CALL_TIMEOUT_MS,
  }),
  check(c, raw) {
    const base = SERVERS_SECTION.defaults();
    return {
      servers: c.field(raw, 'servers', base.servers, (value) => checkServers(c, value)),
      callTimeoutMs: c.durationMs(raw, 'callTimeoutMs', base.callTimeoutMs, 'e.g. 60000 for 1 minute'),
      maxCallTimeoutMs: c.durationMs(
        raw,
        'maxCallTimeoutMs',
        base.maxCallTimeoutMs,
        'e.g. 600000 for 10 minutes',
      ),
    };
  },
};

/** Validates one server entry on its own (e.g. from the UI's add-server form). */
export function validateServerConfig(raw: unknown, path = 'server'): ServerConfig {
  const c = new SettingsChecker();
  const server = checkServer(c, raw, path);
  c.throwIfAny();
  return server!;
}

const TRANSPORTS = ['stdio', 'http', 'sse'] as const;
const COMMON_SERVER_KEYS = ['id', 'name', 'enabled', 'trusted', 'transport', 'roots'];
const STDIO_KEYS = [...COMMON_SERVER_KEYS, 'command', 'args', 'env', 'cwd'];
const REMOTE_KEYS = [...COMMON_SERVER_KEYS, 'url', 'headers', 'oauth'];
const OAUTH_EXAMPLE = '{"clientId": "toolbridge-desktop", "redirectPort": 33418}';

function checkServers(c: SettingsChecker, raw: unknown): ServerConfig[] {
  if (!Array.isArray(raw)) {
    c.issue('servers', `must be a list of server objects; got ${describeValue(raw)}.`);
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

/** POSIX `/…`, Windows `C:\\…` or `\\\\server\\share`; no node:path here, this file stays pure. */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/** A server's roots: absolute folders or `file:` URIs, as MCP roots must be. */
function checkRoots(c: SettingsChecker, raw: unknown, path: string): string[] {
  const roots = c.stringList(raw, path);
  roots.forEach((root, index) => {
    if (!root.startsWith('file:///') && !ABSOLUTE_PATH.test(root)) {
      c.issue(
        `${path}[${index}]`,
        `must be an absolute folder or a file: URI, e.g. "/home/me/projects" or "file:///home/me/projects"; got ${describeValue(root)}.`,
      );
    }
  });
  return roots;
}

function checkServer(c: SettingsChecker, raw: unknown, path: string): ServerConfig | undefined {
  if (!isPlainObject(raw)) {
    c.issue(
      path,
      `must be an object like {"id": "github", "transport": "stdio", "command": "npx"}; got ${describeValue(raw)}.`,
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
    c.issue(`${path}.transport`, `must be "stdio", "http" or "sse"${hint}; got ${describeValue(transport)}.`);
    return undefined;
  }
  const common = {
    id: id ?? '',
    ...(raw.name === undefined ? {} : { name: c.string(raw.name, `${path}.name`) ?? '' }),
    enabled: raw.enabled === undefined ? true : c.boolean(raw.enabled, `${path}.enabled`),
    ...(raw.trusted === undefined ? {} : { trusted: c.boolean(raw.trusted, `${path}.trusted`) }),
    ...(raw.roots === undefined ? {} : { roots: checkRoots(c, raw.roots, `${path}.roots`) }),
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
function checkOAuthClient(c: SettingsChecker, raw: unknown, path: string): OAuthClientConfig {
  if (!isPlainObject(raw)) {
    c.issue(path, `must be an object like ${OAUTH_EXAMPLE}; got ${describeValue(raw)}.`);
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

/** An absolute http:// or https:// URL (a server, gateway or import entry). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
