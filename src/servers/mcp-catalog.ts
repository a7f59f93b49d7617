/**
 * The bundled catalog of installable MCP servers (resources/mcp-catalog, one MCP registry
 * `server.json` each), offered by the Servers view's catalog panel and `manage_connections
 * install`. Only npm packages Toolbridge ships are listed: an install runs their bin from our own
 * node_modules with the running Node, never a download. Values may hold `{dataDir}`, replaced
 * with the data folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import { resolvePackageBin } from './default-servers.js';
import { isSecretName } from './server-secrets.js';
import type { ServerConfig } from './types.js';

export const MCP_CATALOG_DIR = fileURLToPath(new URL('../../resources/mcp-catalog/', import.meta.url));
const INSTALL_META = 'dev.toolbridge/install';

/** One argument or environment variable a server takes (the registry's Input, flattened). */
export interface McpCatalogInput {
  kind: 'positional' | 'named' | 'env';
  /** The variable's name, a named argument's flag (`--port`), or a positional one's value hint. */
  name: string;
  description?: string;
  /** Fixed: always this, never asked. */
  value?: string;
  /** What the form proposes. */
  default?: string;
  isRequired: boolean;
  isSecret: boolean;
  /** Takes several values (one argument each). */
  isRepeated: boolean;
  format: 'string' | 'number' | 'boolean' | 'filepath';
  choices?: string[];
}

export interface McpCatalogEntry {
  /** The server id it is installed under, e.g. `filesystem`. */
  id: string;
  /** The registry name, e.g. `io.github.modelcontextprotocol/server-filesystem`. */
  registryName: string;
  title: string;
  description: string;
  /** A longer account of what it does, from the package's own README. */
  details?: string;
  keywords: string[];
  /** The tools it offers (from its README), for reading and search. */
  tools: string[];
  websiteUrl?: string;
  repositoryUrl?: string;
  packageName: string;
  packageVersion: string;
  bin: string;
  arguments: McpCatalogInput[];
  env: McpCatalogInput[];
}

/** Reads every `*.server.json`; a file that does not fit is skipped (it is ours, so a test catches it). */
export function loadMcpCatalog(dir: string = MCP_CATALOG_DIR): McpCatalogEntry[] {
  const entries: McpCatalogEntry[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.server.json'))
    .sort()) {
    const entry = parseServerJson(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

const FORMATS: ReadonlyArray<McpCatalogInput['format']> = ['string', 'number', 'boolean', 'filepath'];

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function parseInput(raw: unknown, kind: McpCatalogInput['kind']): McpCatalogInput | undefined {
  if (!isPlainObject(raw)) return undefined;
  const name = kind === 'positional' ? (text(raw.valueHint) ?? 'value') : text(raw.name);
  if (name === undefined || name === '') return undefined;
  const format = FORMATS.find((candidate) => candidate === raw.format) ?? 'string';
  const input: McpCatalogInput = {
    kind,
    name,
    isRequired: raw.isRequired === true,
    isSecret: raw.isSecret === true,
    isRepeated: raw.isRepeated === true,
    format,
  };
  for (const key of ['description', 'value', 'default'] as const) {
    const found = text(raw[key]);
    if (found !== undefined) input[key] = found;
  }
  const choices = texts(raw.choices);
  if (choices.length > 0) input.choices = choices;
  return input;
}

/**
 * One registry `server.json` as an entry; undefined when it is not an npm package over stdio we
 * can name, or when it would need a secret that settings would hold in the clear: one on the
 * command line, or in a variable the secret store does not recognize by its name.
 */
export function parseServerJson(raw: unknown): McpCatalogEntry | undefined {
  if (!isPlainObject(raw) || !Array.isArray(raw.packages)) return undefined;
  const meta = isPlainObject(raw._meta) ? raw._meta[INSTALL_META] : undefined;
  const npm = raw.packages.find(
    (item): item is Record<string, unknown> =>
      isPlainObject(item) &&
      item.registryType === 'npm' &&
      isPlainObject(item.transport) &&
      item.transport.type === 'stdio',
  );
  if (
    !isPlainObject(meta) ||
    typeof meta.id !== 'string' ||
    typeof meta.bin !== 'string' ||
    npm === undefined
  ) {
    return undefined;
  }
  const args = (Array.isArray(npm.packageArguments) ? npm.packageArguments : []).map((arg) =>
    parseInput(arg, isPlainObject(arg) && arg.type === 'named' ? 'named' : 'positional'),
  );
  const env = (Array.isArray(npm.environmentVariables) ? npm.environmentVariables : []).map((variable) =>
    parseInput(variable, 'env'),
  );
  if (args.some((arg) => arg === undefined || arg.isSecret)) return undefined;
  if (env.some((variable) => variable === undefined || (variable.isSecret && !isSecretName(variable.name)))) {
    return undefined;
  }
  const repository = isPlainObject(raw.repository) ? text(raw.repository.url) : undefined;
  const websiteUrl = text(raw.websiteUrl);
  const details = text(meta.details);
  return {
    id: meta.id,
    registryName: text(raw.name) ?? meta.id,
    title: text(raw.title) ?? meta.id,
    description: text(raw.description) ?? '',
    ...(details === undefined ? {} : { details }),
    keywords: texts(meta.keywords),
    tools: texts(meta.tools),
    ...(websiteUrl === undefined ? {} : { websiteUrl }),
    ...(repository === undefined ? {} : { repositoryUrl: repository }),
    packageName: String(npm.identifier),
    packageVersion: text(npm.version) ?? '',
    bin: meta.bin,
    arguments: args as McpCatalogInput[],
    env: env as McpCatalogInput[],
  };
}

/** `{dataDir}` in a catalog value, filled in. */
export function fillCatalogValue(value: string, dataDir: string): string {
  return value.replaceAll('{dataDir}', dataDir);
}

/**
 * The program an entry runs: our Node and the package's bin script, and the environment
 * Toolbridge itself adds (the Electron binary runs a plain Node script only when told to, as
 * process.execPath is Electron there).
 */
export function catalogProgram(entry: McpCatalogEntry): {
  command: string;
  script: string;
  fixedEnv: Record<string, string>;
} {
  return {
    command: process.execPath,
    script: resolvePackageBin(entry.packageName, entry.bin),
    fixedEnv: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
  };
}

/**
 * The server config an entry installs as with no one to ask (`manage_connections install`):
 * fixed values and defaults, filled in. The catalog panel builds the same from the person's values.
 */
export function catalogServerConfig(entry: McpCatalogEntry, dataDir: string): ServerConfig {
  const given = (input: McpCatalogInput) => {
    const value = input.value ?? input.default;
    if (value === undefined && input.isRequired) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `"${entry.id}" needs ${input.name}, which only the person can give: install it from Toolbridge's Servers view (Add from catalog).`,
      );
    }
    return value === undefined ? undefined : fillCatalogValue(value, dataDir);
  };
  const args: string[] = [];
  for (const arg of entry.arguments) {
    const value = given(arg);
    if (value === undefined) continue;
    args.push(...(arg.kind === 'named' ? [arg.name, value] : [value]));
  }
  const { command, script, fixedEnv } = catalogProgram(entry);
  const env: Record<string, string> = { ...fixedEnv };
  for (const variable of entry.env) {
    const value = given(variable);
    if (value !== undefined) env[variable.name] = value;
  }
  return {
    id: entry.id,
    name: entry.title,
    transport: 'stdio',
    command,
    args: [script, ...args],
    ...(Object.keys(env).length > 0 ? { env } : {}),
    enabled: true,
  };
}
