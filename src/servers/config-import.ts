/**
 * Imports MCP server lists from other clients: Claude Desktop (`claude_desktop_config.json`,
 * `mcpServers`), Cursor (`mcp.json`, `mcpServers`, command or url) and VS Code (`mcp.json`,
 * `servers` with `type` and `inputs`; comments and trailing commas allowed), from a file or
 * pasted text. Parsing is pure and throws before anything changes; `importServers` then adds the
 * result to the settings in one validated update.
 */
import { promises as fs } from 'node:fs';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { defineMember, isPlainObject } from '../base/json.js';
import { toServerId, uniqueServerId } from '../base/server-id.js';
import { isHttpUrl } from './settings.js';
import type { ServerConfig } from './types.js';

export type ImportFormat = 'claude-desktop' | 'cursor' | 'vscode';

export interface ImportResult {
  format: ImportFormat;
  /** Ready to add: ids are new and unique, secrets still inline (the settings store moves them). */
  servers: ServerConfig[];
  /** What the user should know: renamed ids, skipped entries, values to fill in. */
  notes: string[];
}

/** The settings as the import sees them: the server list, changed in one validated update. */
export interface ServerListStore {
  readonly current: { readonly servers: readonly ServerConfig[] };
  update(change: (draft: { servers: ServerConfig[] }) => undefined): Promise<unknown>;
}

export interface ImportOptions {
  /** Ids already taken; imported ids avoid them. */
  existingIds?: Iterable<string>;
}

const EXAMPLE =
  '{"mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}}}';
/** VS Code and Cursor variables a config may hold; we cannot fill them in. */
const VARIABLE = /\$\{(input|env|workspaceFolder|userHome|pathSeparator)(:[^}]*)?\}/;

/** Parses pasted text or a file's content. Throws `INVALID_ARGUMENT` for invalid JSON or an unknown shape. */
export function parseServerImport(text: string, options: ImportOptions = {}): ImportResult {
  const root = parseJsonc(text);
  if (!isPlainObject(root)) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Expected a JSON object with "mcpServers" or "servers", like ${EXAMPLE}.`,
    );
  }
  let format: ImportFormat;
  let entries: Record<string, unknown>;
  let inputs: unknown;
  const nested = isPlainObject(root.mcp) ? root.mcp : undefined;
  if (isPlainObject(root.mcpServers)) {
    entries = root.mcpServers;
    format = Object.values(entries).some((e) => isPlainObject(e) && ('url' in e || 'type' in e))
      ? 'cursor'
      : 'claude-desktop';
  } else if (isPlainObject(root.servers)) {
    entries = root.servers;
    inputs = root.inputs;
    format = 'vscode';
  } else if (nested && isPlainObject(nested.servers)) {
    // VS Code's settings.json keeps them under "mcp".
    entries = nested.servers;
    inputs = nested.inputs;
    format = 'vscode';
  } else if (
    Object.keys(root).length > 0 &&
    Object.values(root).every((e) => isPlainObject(e) && ('command' in e || 'url' in e))
  ) {
    // Just the inner object was pasted: {"github": {"command": …}}.
    entries = root;
    format = 'claude-desktop';
  } else if ('mcpServers' in root || 'servers' in root) {
    const key = 'mcpServers' in root ? 'mcpServers' : 'servers';
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `"${key}" must be an object of servers keyed by name, like ${EXAMPLE}.`,
    );
  } else {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Found no servers: expected "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) at the top, like ${EXAMPLE}. Found keys: ${Object.keys(root).join(', ') || 'none'}.`,
    );
  }

  const taken = new Set(options.existingIds ?? []);
  const inputLabels = describeInputs(inputs);
  const servers: ServerConfig[] = [];
  const notes: string[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const converted = convertEntry(name, raw, inputLabels, notes);
    if (!converted) continue;
    const id = uniqueServerId(toServerId(name), taken);
    taken.add(id);
    if (id !== toServerId(name))
      notes.push(`"${name}" was imported as "${id}" because "${toServerId(name)}" is taken.`);
    servers.push({ ...converted, id, ...(name !== id ? { name } : {}) } as ServerConfig);
  }
  if (Object.keys(entries).length === 0) notes.push('The config lists no servers.');
  return { format, servers, notes };
}

/** Reads a config file (e.g. ~/.cursor/mcp.json) and parses it. */
export async function readServerImportFile(
  filePath: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    throw new ToolbridgeError(
      'NOT_FOUND',
      `Could not read ${filePath}: ${errorMessage(error)}. Check the path.`,
      { cause: error },
    );
  }
  return parseServerImport(text, options);
}

/**
 * Parses and adds the servers to the settings in one update. On any error (bad JSON, wrong shape,
 * a config that fails validation) nothing is written.
 */
export async function importServers(
  store: ServerListStore,
  input: { text: string } | { path: string },
): Promise<ImportResult> {
  const existingIds = store.current.servers.map((server) => server.id);
  const result =
    'text' in input
      ? parseServerImport(input.text, { existingIds })
      : await readServerImportFile(input.path, { existingIds });
  if (result.servers.length === 0) return result;
  return { ...result, servers: await addImportedServers(store, result.servers) };
}

/**
 * Adds servers exactly as given (a reviewed set) in one update. If an id was taken since they were
 * read, nothing is written: renaming would add something other than what was reviewed.
 */
export async function addImportedServers(
  store: ServerListStore,
  servers: readonly ServerConfig[],
): Promise<ServerConfig[]> {
  await store.update((draft) => {
    const taken = new Set(draft.servers.map((server) => server.id));
    const clash = servers.find((server) => taken.has(server.id));
    if (clash !== undefined) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `A server "${clash.id}" was added since this config was read; nothing was imported. Review the config again.`,
      );
    }
    draft.servers.push(...structuredClone(servers));
    return undefined;
  });
  return [...servers];
}

// ---------------------------------------------------------------------------------------------

/** A server config before it gets its id (Omit spread over each transport of the union). */
type Converted = ServerConfig extends infer T ? (T extends ServerConfig ? Omit<T, 'id'> : never) : never;

function convertEntry(
  name: string,
  raw: unknown,
  inputs: Map<string, string>,
  notes: string[],
): Converted | undefined {
  if (!isPlainObject(raw)) {
    notes.push(`Skipped "${name}": its entry is not an object.`);
    return undefined;
  }
  const type =
    typeof raw.type === 'string'
      ? raw.type.toLowerCase()
      : typeof raw.transport === 'string'
        ? raw.transport.toLowerCase()
        : undefined;
  let enabled = raw.disabled !== true && raw.enabled !== false;
  const disable = (why: string): void => {
    notes.push(why);
    enabled = false;
  };
  if (typeof raw.envFile === 'string') {
    disable(
      `"${name}" reads variables from the file ${raw.envFile}, which Toolbridge does not load; add them to its env, then enable it.`,
    );
  }

  if (typeof raw.command === 'string' && raw.command.trim() !== '' && type !== 'http' && type !== 'sse') {
    const args = Array.isArray(raw.args) ? raw.args.map(String) : [];
    if (raw.args !== undefined && !Array.isArray(raw.args))
      notes.push(`"${name}": "args" is not a list and was left out.`);
    const env = stringMap(name, 'env', raw.env, notes);
    for (const value of [raw.command, ...args, typeof raw.cwd === 'string' ? raw.cwd : '']) {
      const variable = VARIABLE.exec(value);
      if (variable)
        disable(
          `"${name}" uses ${variable[0]}, which only its original client can fill in; edit the command, args or folder, then enable it.`,
        );
    }
    clearVariables(name, 'env', env, inputs, disable);
    return {
      transport: 'stdio',
      command: raw.command,
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(typeof raw.cwd === 'string' && raw.cwd !== '' ? { cwd: raw.cwd } : {}),
      enabled,
    };
  }

  const url =
    typeof raw.url === 'string' ? raw.url : typeof raw.serverUrl === 'string' ? raw.serverUrl : undefined;
  if (url !== undefined) {
    if (!isHttpUrl(url)) {
      notes.push(`Skipped "${name}": its url "${url}" is not an http:// or https:// address.`);
      return undefined;
    }
    const headers = stringMap(name, 'headers', raw.headers, notes);
    clearVariables(name, 'header', headers, inputs, disable);
    return {
      transport: type === 'sse' ? 'sse' : 'http',
      url,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      enabled,
    };
  }
  notes.push(`Skipped "${name}": it has neither a "command" nor a "url".`);
  return undefined;
}

/** Empties values holding ${input:…}/${env:…}: the original client asked for them at start. */
function clearVariables(
  name: string,
  label: string,
  values: Record<string, string>,
  inputs: Map<string, string>,
  disable: (why: string) => void,
): void {
  for (const [key, value] of Object.entries(values)) {
    const variable = VARIABLE.exec(value);
    if (!variable) continue;
    defineMember(values, key, '');
    const inputId = variable[1] === 'input' ? variable[2]?.slice(1) : undefined;
    const described = inputId && inputs.get(inputId) ? ` ("${inputs.get(inputId)}")` : '';
    disable(
      `"${name}": ${label} ${key} uses ${variable[0]}${described}, which its original client asks for at start. Enter the value in Toolbridge, then enable the server.`,
    );
  }
}

function stringMap(name: string, field: string, raw: unknown, notes: string[]): Record<string, string> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) {
    notes.push(`"${name}": "${field}" is not an object and was left out.`);
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'string') defineMember(result, key, value);
    else if (typeof value === 'number' || typeof value === 'boolean')
      defineMember(result, key, String(value));
    else notes.push(`"${name}": ${field} ${key} is not a string and was left out.`);
  }
  return result;
}

function describeInputs(raw: unknown): Map<string, string> {
  const labels = new Map<string, string>();
  if (!Array.isArray(raw)) return labels;
  for (const input of raw) {
    if (isPlainObject(input) && typeof input.id === 'string') {
      labels.set(input.id, typeof input.description === 'string' ? input.description : input.id);
    }
  }
  return labels;
}

/** JSON with comments and trailing commas (VS Code's JSONC); the error names line and column. */
export function parseJsonc(text: string): unknown {
  const stripped = stripJsonc(text.replace(/^\uFEFF/, ''));
  try {
    return JSON.parse(stripped);
  } catch (error) {
    const message = errorMessage(error);
    const position = /position (\d+)/.exec(message)?.[1];
    let where = '';
    if (position !== undefined && !/line \d+/.test(message)) {
      const before = stripped.slice(0, Number(position));
      const line = before.split('\n').length;
      where = ` (line ${line}, column ${Number(position) - before.lastIndexOf('\n')})`;
    }
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The config is not valid JSON: ${message}${where}. Paste the whole file, from the first "{" to the last "}".`,
      { cause: error },
    );
  }
}

/** Blanks comments (keeping offsets, so error positions still match) and drops trailing commas. */
function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (ch === ',') {
      const after = nextSignificantChar(text, i + 1);
      out += after === '}' || after === ']' ? ' ' : ',';
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The next character that is not whitespace or inside a comment. */
function nextSignificantChar(text: string, from: number): string | undefined {
  let j = from;
  while (j < text.length) {
    if (/\s/.test(text[j]!)) j++;
    else if (text.startsWith('//', j)) {
      const end = text.indexOf('\n', j);
      j = end < 0 ? text.length : end + 1;
    } else if (text.startsWith('/*', j)) {
      const end = text.indexOf('*/', j + 2);
      j = end < 0 ? text.length : end + 2;
    } else return text[j];
  }
  return undefined;
}
