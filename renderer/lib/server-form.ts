import type { OAuthClientConfig, ServerConfig } from '../../src/api/ui-api.js';
import { SECRET_MASK } from '../../src/api/ui-api.js';
import { splitCommandLine } from '../../src/base/command-review.js';
import { defineMember } from '../../src/base/json.js';
import { isValidServerId, toServerId, uniqueServerId } from '../../src/base/server-id.js';

export type FormResult = { ok: true; config: ServerConfig } | { ok: false; field: string; message: string };

export interface CommandFormValues {
  id: string;
  name: string;
  /** The whole command line, e.g. `npx -y @modelcontextprotocol/server-filesystem ~/Documents`. */
  commandLine: string;
  /** `KEY=value`, one per line. */
  env: string;
  cwd: string;
}

export interface UrlFormValues {
  id: string;
  name: string;
  transport: 'http' | 'sse';
  url: string;
  /** `Header-Name: value`, one per line. */
  headers: string;
  /** A pre-registered OAuth client, for servers that do not let apps register themselves. */
  oauth?: OAuthClientFormValues;
}

/** The OAuth client fields of the server form. All blank means no pre-registered client. */
export interface OAuthClientFormValues {
  clientId: string;
  /** Blank: none, or keep the stored one when `secretStored`. */
  clientSecret: string;
  /** The port of the registered redirect URI; blank for any free port. */
  redirectPort: string;
  /** The server already has a secret in the secret store (editing). */
  secretStored?: boolean;
}

/** The form's OAuth client as a config; undefined for none. The host moves the secret to the secret store. */
export function buildOAuthClient(
  values: OAuthClientFormValues,
): { ok: true; oauth: OAuthClientConfig | undefined } | { ok: false; field: string; message: string } {
  const clientId = values.clientId.trim();
  const port = values.redirectPort.trim();
  if (clientId === '') {
    if (values.clientSecret !== '' || port !== '') {
      return {
        ok: false,
        field: 'oauthClientId',
        message: 'Enter the client ID the authorization server gave you, or clear the other OAuth fields.',
      };
    }
    return { ok: true, oauth: undefined };
  }
  const oauth: OAuthClientConfig = { clientId };
  if (values.clientSecret !== '') oauth.clientSecret = values.clientSecret;
  else if (values.secretStored) oauth.clientSecret = SECRET_MASK;
  if (port !== '') {
    const redirectPort = Number(port);
    if (!/^\d+$/.test(port) || redirectPort < 1 || redirectPort > 65_535) {
      return {
        ok: false,
        field: 'oauthRedirectPort',
        message:
          'The redirect port is a number from 1 to 65535 (the one in http://127.0.0.1:<port>/oauth/callback).',
      };
    }
    oauth.redirectPort = redirectPort;
  }
  return { ok: true, oauth };
}

/** The form fields for a server's current OAuth client (its secret is never sent to the UI). */
export function oauthFormValues(oauth: OAuthClientConfig | undefined): OAuthClientFormValues {
  return {
    clientId: oauth?.clientId ?? '',
    clientSecret: '',
    redirectPort: oauth?.redirectPort === undefined ? '' : String(oauth.redirectPort),
    secretStored: oauth?.clientSecret !== undefined,
  };
}

/** Commands that run a package or script named by their first plain argument. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'node', 'deno', 'bun', 'python', 'python3', 'pipx']);

/**
 * A server id guessed from a command or URL: the package, script or host name without the usual
 * noise, numbered (`github-2`) when a server already has it.
 */
export function suggestServerId(source: string, taken: ReadonlySet<string> = new Set()): string {
  const trimmed = source.trim();
  let label: string;
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      const parts = new URL(trimmed).hostname.split('.');
      label = parts.length > 1 ? (parts[parts.length - 2] ?? '') : (parts[0] ?? '');
    } catch {
      label = trimmed;
    }
  } else {
    const split = splitCommandLine(trimmed);
    const words = split.ok ? split.words : trimmed.split(/\s+/);
    const command = basename(words[0] ?? '');
    const launched = LAUNCHERS.has(command) ? words.slice(1).find((w) => !w.startsWith('-')) : undefined;
    label = basename(launched ?? command).replace(/\.(m?js|ts|py)$/, '');
  }
  label = label
    .replace(/@[^@/]*$/, '')
    .replace(/^(mcp-server-|server-)/, '')
    .replace(/(-mcp-server|-mcp|-server)$/, '');
  return uniqueServerId(toServerId(label), taken);
}

/** The last path segment (of a file path or an npm package name). */
function basename(word: string): string {
  return word.split('/').pop() ?? word;
}

/** Why an id cannot be used (empty, malformed, taken), or undefined. */
export function checkId(id: string, taken: ReadonlySet<string>): string | undefined {
  if (id === '') return 'Give the server an id, e.g. "files".';
  if (!isValidServerId(id))
    return 'Use lower-case letters, digits, "-" and "_" only (it becomes part of tool names).';
  return serverIdTaken(id, taken);
}

/** Says an id is already used, and which free one to take instead. */
export function serverIdTaken(id: string, taken: ReadonlySet<string>): string | undefined {
  if (!taken.has(id)) return undefined;
  return `A server with the id "${id}" already exists; choose another, e.g. "${uniqueServerId(id, taken)}".`;
}

function parsePairs(text: string, separator: '=' | ':', what: string): Record<string, string> | string {
  const pairs: Record<string, string> = {};
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf(separator);
    if (at <= 0) return `Line ${index + 1} of ${what} needs "name${separator === '=' ? '=' : ': '}value".`;
    defineMember(pairs, line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return pairs;
}

/** The fields every added server starts with: its id, its display name if given, enabled. */
export function identity(values: { id: string; name: string }): { id: string; name?: string; enabled: true } {
  const name = values.name.trim();
  return { id: values.id.trim(), ...(name === '' ? {} : { name }), enabled: true };
}

export function buildCommandConfig(
  values: CommandFormValues,
  taken: ReadonlySet<string> = new Set(),
): FormResult {
  const idError = checkId(values.id.trim(), taken);
  if (idError !== undefined) return { ok: false, field: 'id', message: idError };
  const split = splitCommandLine(values.commandLine);
  if (!split.ok) return { ok: false, field: 'command', message: split.message };
  const [command, ...args] = split.words;
  if (command === undefined) {
    return {
      ok: false,
      field: 'command',
      message: 'Enter the command that starts the server, e.g. "npx -y …".',
    };
  }
  const env = parsePairs(values.env, '=', 'the environment');
  if (typeof env === 'string') return { ok: false, field: 'env', message: env };
  return {
    ok: true,
    config: {
      ...identity(values),
      transport: 'stdio',
      command,
      args,
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(values.cwd.trim() === '' ? {} : { cwd: values.cwd.trim() }),
    },
  };
}

export function buildUrlConfig(values: UrlFormValues, taken: ReadonlySet<string> = new Set()): FormResult {
  const idError = checkId(values.id.trim(), taken);
  if (idError !== undefined) return { ok: false, field: 'id', message: idError };
  let url: URL;
  try {
    url = new URL(values.url.trim());
  } catch {
    return { ok: false, field: 'url', message: 'Enter the full URL, e.g. https://example.com/mcp.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, field: 'url', message: 'Only http:// and https:// URLs can be MCP servers.' };
  }
  const headers = parsePairs(values.headers, ':', 'the headers');
  if (typeof headers === 'string') return { ok: false, field: 'headers', message: headers };
  const client = values.oauth === undefined ? undefined : buildOAuthClient(values.oauth);
  if (client !== undefined && !client.ok) return client;
  return {
    ok: true,
    config: {
      ...identity(values),
      transport: values.transport,
      url: url.toString(),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(client?.oauth === undefined ? {} : { oauth: client.oauth }),
    },
  };
}
