import { readFileSync } from 'node:fs';
import type { ToolSearchSettings } from '../api/ui-api.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { type BridgeSurface, createAgentSurface } from '../bridge/agent-surface.js';
import { classifyEntries, entriesFromServers } from '../catalog/catalog.js';
import { loadCatalogDir } from '../catalog/catalog-dir.js';
import type { ListingAlgorithm } from '../catalog/listing.js';
import { parseToolSearchConfig } from '../catalog/tool-search-config.js';
import { planToolSurface, type ToolSurfacePlan } from '../catalog/tool-surface.js';
import type { CatalogEntry } from '../catalog/types.js';
import { type CliIo, usageError } from './command.js';

/** Flags shared by the commands that read a catalog directory as an agent would see it. */
export const CATALOG_FLAGS = { 'catalog-dir': 'string', pin: 'strings', config: 'string' } as const;

export const CATALOG_FLAGS_HELP = `  --catalog-dir DIR   folder of tool catalogs: one *.json per server, the file stem is the server id
  --pin NAME          list this tool directly instead of deferring it (repeatable)
  --config FILE       tool-search settings as JSON (camelCase or snake_case keys)`;

export interface CliCatalogOptions {
  catalogDir: string;
  pins?: readonly string[];
  configFile?: string;
  contextLengthTokens?: number;
  listingAlgorithm?: ListingAlgorithm;
}

/** A catalog directory seen through the bridge exactly as an agent would see it. */
export interface CliCatalog {
  entries: CatalogEntry[];
  settings: ToolSearchSettings;
  plan: ToolSurfacePlan;
  surface: BridgeSurface;
}

export function openCatalog(command: string, options: CliCatalogOptions, io: CliIo): CliCatalog {
  const entries = entriesFromServers(loadCatalogDir(options.catalogDir));
  const settings = readSettings(options.configFile, io);
  const known = new Set(entries.map((entry) => entry.name));
  for (const pin of options.pins ?? []) {
    if (!known.has(pin)) throw usageError(command, `--pin "${pin}" is not a tool in ${options.catalogDir}.`);
  }
  const plan = planToolSurface(classifyEntries(entries, { pinned: options.pins ?? [] }), {
    settings,
    ...(options.contextLengthTokens === undefined
      ? {}
      : { contextLengthTokens: options.contextLengthTokens }),
    ...(options.listingAlgorithm === undefined ? {} : { listingAlgorithm: options.listingAlgorithm }),
  });
  const surface = createAgentSurface({
    plan,
    settings,
    executor: {
      callTool() {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          'The command line searches and describes tools; it does not call them.',
        );
      },
    },
  });
  return { entries, settings, plan, surface };
}

function readSettings(configFile: string | undefined, io: CliIo): ToolSearchSettings {
  if (configFile === undefined) return parseToolSearchConfig(undefined).settings;
  const raw = readJsonFile(configFile, 'settings file');
  const parsed = parseToolSearchConfig(raw, { keyPath: configFile });
  for (const warning of parsed.warnings) io.stderr(`toolbridge: warning: ${warning}\n`);
  return parsed.settings;
}

export function readTextFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ToolbridgeError('INVALID_ARGUMENT', `Cannot read ${what} "${path}": ${errorMessage(error)}.`);
  }
}

export function readJsonFile(path: string, what: string): unknown {
  const text = readTextFile(path, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The ${what} "${path}" is not valid JSON: ${errorMessage(error)}.`,
    );
  }
}
