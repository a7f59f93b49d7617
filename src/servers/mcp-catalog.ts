/**
 * The bundled catalog of MCP servers `manage_connections install` may add (resources/mcp-catalog,
 * one MCP registry `server.json` each). Only npm packages Toolbridge ships are listed: `install`
 * runs their bin from our own node_modules with the running Node, never a download. Values may
 * hold `{dataDir}`, replaced with the data folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPlainObject } from '../base/json.js';
import { resolvePackageBin } from './default-servers.js';
import type { ServerConfig } from './types.js';

export const MCP_CATALOG_DIR = fileURLToPath(new URL('../../resources/mcp-catalog/', import.meta.url));
const INSTALL_META = 'dev.toolbridge/install';

export interface McpCatalogEntry {
  /** The server id it is installed under, e.g. `filesystem`. */
  id: string;
  title: string;
  description: string;
  packageName: string;
  bin: string;
  args: string[];
  env: Record<string, string>;
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

function parseServerJson(raw: unknown): McpCatalogEntry | undefined {
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
  const args = (Array.isArray(npm.packageArguments) ? npm.packageArguments : [])
    .filter((arg): arg is Record<string, unknown> => isPlainObject(arg) && typeof arg.value === 'string')
    .map((arg) => String(arg.value));
  const env: Record<string, string> = {};
  for (const variable of Array.isArray(npm.environmentVariables) ? npm.environmentVariables : []) {
    if (isPlainObject(variable) && typeof variable.name === 'string' && typeof variable.value === 'string') {
      env[variable.name] = variable.value;
    }
  }
  return {
    id: meta.id,
    title: typeof raw.title === 'string' ? raw.title : meta.id,
    description: typeof raw.description === 'string' ? raw.description : '',
    packageName: String(npm.identifier),
    bin: meta.bin,
    args,
    env,
  };
}

/** The server config an entry installs as: our Node running the package's bin, values filled in. */
export function catalogServerConfig(entry: McpCatalogEntry, dataDir: string): ServerConfig {
  const fill = (value: string) => value.replaceAll('{dataDir}', dataDir);
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(entry.env).map(([key, value]) => [key, fill(value)]),
  );
  // Lets the Electron binary run a plain Node script (process.execPath is Electron there).
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  return {
    id: entry.id,
    name: entry.title,
    transport: 'stdio',
    command: process.execPath,
    args: [resolvePackageBin(entry.packageName, entry.bin), ...entry.args.map(fill)],
    ...(Object.keys(env).length > 0 ? { env } : {}),
    enabled: true,
  };
}
