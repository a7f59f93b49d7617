/**
 * The servers a fresh install starts with (no settings at all): the MCP reference servers
 * "everything", "filesystem" (on `<dataDir>/sandbox`) and "memory" (its graph in
 * `<dataDir>/memory.jsonl`). They run from our own node_modules with the running Node, so they
 * work offline, without npx.
 */
import { promises as fs, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import type { ServerConfig } from './types.js';

const require = createRequire(import.meta.url);

/** The absolute path of a package's bin script (its `bin` entry, the first when there are several). */
export function resolvePackageBin(packageName: string, binName?: string): string {
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${packageName}/package.json`);
  } catch (error) {
    throw new ToolbridgeError('NOT_FOUND', `Package ${packageName} is not installed; reinstall Toolbridge.`, {
      cause: error,
    });
  }
  const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = isPlainObject(manifest) ? manifest.bin : undefined;
  const relative =
    typeof bin === 'string'
      ? bin
      : isPlainObject(bin)
        ? (bin[binName ?? ''] ?? Object.values(bin)[0])
        : undefined;
  if (typeof relative !== 'string') {
    throw new ToolbridgeError(
      'NOT_FOUND',
      `Package ${packageName} declares no runnable bin${binName ? ` "${binName}"` : ''}.`,
    );
  }
  return path.join(path.dirname(manifestPath), relative);
}

/** Lets the Electron binary run a plain Node script (process.execPath is Electron there). */
function nodeEnv(): Record<string, string> {
  return process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
}

export const DEFAULT_SERVER_IDS = ['everything', 'filesystem', 'memory'] as const;

/** Configs for the default servers; creates `<dataDir>/sandbox` for the filesystem server. */
export async function defaultServerConfigs(dataDir: string): Promise<ServerConfig[]> {
  const sandbox = path.join(dataDir, 'sandbox');
  await fs.mkdir(sandbox, { recursive: true, mode: 0o700 });
  const env = nodeEnv();
  const withEnv = (extra: Record<string, string> = {}): { env?: Record<string, string> } => {
    const merged = { ...env, ...extra };
    return Object.keys(merged).length > 0 ? { env: merged } : {};
  };
  return [
    {
      id: 'everything',
      name: 'Everything (MCP reference server)',
      transport: 'stdio',
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-everything', 'mcp-server-everything'), 'stdio'],
      ...withEnv(),
      enabled: true,
    },
    {
      id: 'filesystem',
      name: 'Filesystem (sandbox folder)',
      transport: 'stdio',
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem'), sandbox],
      ...withEnv(),
      enabled: true,
      // Its roots when the agent declares none: the server replaces its folders with the roots it hears.
      roots: [sandbox],
    },
    {
      id: 'memory',
      name: 'Memory (knowledge graph)',
      transport: 'stdio',
      command: process.execPath,
      // MEMORY_FILE_PATH is the variable @modelcontextprotocol/server-memory reads for its file.
      args: [resolvePackageBin('@modelcontextprotocol/server-memory', 'mcp-server-memory')],
      ...withEnv({ MEMORY_FILE_PATH: path.join(dataDir, 'memory.jsonl') }),
      enabled: true,
    },
  ];
}
