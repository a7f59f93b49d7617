import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import type { ServerTools, ToolDefinition } from './types.js';

/**
 * Reads a catalog directory: every `*.json` is one server, its file stem the server id, its
 * content an MCP `tools/list` result `{ tools: [...] }`. Bad input throws INVALID_ARGUMENT with
 * the file named; a tool with no description or a malformed schema is still kept.
 */
export function loadCatalogDir(dir: string): ServerTools[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Cannot read catalog directory "${dir}": ${errorMessage(error)}. Pass a folder of *.json tool catalogs.`,
    );
  }
  if (names.length === 0) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Catalog directory "${dir}" has no *.json files. Pass a folder of tool catalogs ({ "tools": [...] } per file).`,
    );
  }
  return names.sort().map((name) => loadCatalogFile(join(dir, name)));
}

export function loadCatalogFile(path: string): ServerTools {
  const serverId = basename(path, '.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ToolbridgeError('INVALID_ARGUMENT', `Cannot read catalog "${path}": ${errorMessage(error)}.`);
  }
  return { serverId, tools: parseToolsList(parsed, `catalog "${path}"`) };
}

/** Validates the shape of a `tools/list` result, dropping nothing that has a usable name. */
export function parseToolsList(value: unknown, where: string): ToolDefinition[] {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The ${where} has the wrong shape: expected a JSON object { "tools": [ { "name", "description", "inputSchema" } ] }.`,
    );
  }
  return value.tools.map((raw, index) => {
    if (!isPlainObject(raw) || typeof raw.name !== 'string' || raw.name.trim() === '') {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `The ${where} has a tool without a name at tools[${index}]: every tool needs a non-empty string "name".`,
      );
    }
    const tool: ToolDefinition = { name: raw.name };
    if (typeof raw.title === 'string') tool.title = raw.title;
    if (typeof raw.description === 'string') tool.description = raw.description;
    if (isPlainObject(raw.inputSchema)) tool.inputSchema = raw.inputSchema as JsonObject;
    if (isPlainObject(raw.outputSchema)) tool.outputSchema = raw.outputSchema as JsonObject;
    if (isPlainObject(raw.annotations)) tool.annotations = raw.annotations;
    return tool;
  });
}
