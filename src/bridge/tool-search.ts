import { defineMember, isPlainObject } from '../base/json.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { SearchResult } from '../search/types.js';
import type { BridgeScope, SearchLimits } from './bridge-scope.js';
import { MAX_QUERIES_PER_SEARCH } from './bridge-tools.js';
import type { ConnectorDocument, ConnectorSearchLeg, ConnectorsStatus } from './types.js';

/** Description length in the shared `tools` map: keeps 9 in 10 vendor descriptions whole. */
export const MAX_RESULT_DESCRIPTION_CHARS = 500;
const MAX_REQUIRED_ITEMS = 32;
const MAX_REQUIRED_NAME_CHARS = 64;

const EMPTY_GROUP_HINT =
  'No tool matched this query, but the sources in available_sources remain available. Retry with other ' +
  'keywords (the app or service name plus an action and object, e.g. "github create issue"), or search ' +
  'for a source by name, before concluding that no tool can do this.';

export interface ToolRecord {
  source: CatalogEntry['source'];
  source_name: string;
  description: string;
  required: string[];
}

export interface SourceCount {
  name: string;
  tool_count: number;
  /** For a declared server that offers no tools right now: why. */
  unavailable?: string;
}

export interface SearchGroup {
  query: string;
  matches: string[];
  /** Extra engine fields (typo corrections, did-you-mean), in snake_case. */
  [extra: string]: unknown;
}

export interface ToolSearchPayload {
  queries: string[];
  total_available: number;
  results: SearchGroup[];
  tools: Record<string, ToolRecord>;
  /** Only when the connector leg failed in a way the agent should hear about; local results stand. */
  connectors?: ConnectorsStatus;
}

/**
 * `tool_search` (reference §1.9, §4.3): one ranked group of names per query, plus one shared
 * record per distinct matched name. Bad input gives `{ error }` and nothing else. When connectors
 * are in scope and some query found fewer local tools than `limit`, one gateway request asks for
 * every query; each query with connector hits is then ranked again over the local tools and its
 * hits as one corpus, so `limit` caps both together.
 */
export async function toolSearchPayload(
  args: Record<string, unknown>,
  scope: BridgeScope,
  options: { signal?: AbortSignal } = {},
): Promise<ToolSearchPayload | { error: string }> {
  const queries = parseQueries(args.queries);
  if ('error' in queries) return queries;
  const limit = resolveLimit(args.limit, scope.limits);
  const deferred = scope.deferred();
  const index = scope.index();
  const local = queries.list.map((query) => index.search(query, { limit }));
  const leg = await connectorLeg(scope, queries.list, local, limit, options.signal);

  const tools: Record<string, ToolRecord> = {};
  let connectorTools = 0;
  const results = queries.list.map((query, position): SearchGroup => {
    const documents = leg?.documents[position] ?? [];
    const found =
      documents.length === 0 ? local[position]! : scope.indexWith(documents).search(query, { limit });
    const { matches, explanation: _explanation, ...extra } = found;
    const group: SearchGroup = { query, matches: [...matches], ...snakeCaseKeys(extra) };
    const remote = new Map(documents.map((document) => [document.name, document]));
    for (const name of matches) {
      if (Object.hasOwn(tools, name)) continue;
      const entry = deferred.get(name);
      const document = entry === undefined ? remote.get(name) : undefined;
      if (entry !== undefined) defineMember(tools, name, toolRecord(entry));
      else if (document !== undefined) {
        defineMember(tools, name, connectorRecord(document));
        connectorTools += 1;
      }
    }
    if (matches.length === 0 && (deferred.size > 0 || (scope.catalog.unavailableServers?.length ?? 0) > 0)) {
      group.available_sources = availableSources(scope);
      group.hint = EMPTY_GROUP_HINT;
    }
    return group;
  });
  const payload: ToolSearchPayload = {
    queries: queries.list,
    total_available: deferred.size + connectorTools,
    results,
    tools,
  };
  if (leg?.status !== undefined) payload.connectors = leg.status;
  return payload;
}

/** The gateway leg, only when connectors are in scope and some query is short of `limit` locally. */
async function connectorLeg(
  scope: BridgeScope,
  queries: readonly string[],
  local: readonly SearchResult[],
  limit: number,
  signal: AbortSignal | undefined,
): Promise<ConnectorSearchLeg | undefined> {
  if (scope.connectors === undefined) return undefined;
  if (local.every((result) => result.matches.length >= limit)) return undefined;
  return scope.connectors.search(queries, { signal });
}

function parseQueries(value: unknown): { list: string[] } | { error: string } {
  const raw = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (raw === undefined) return { error: 'queries is required and must be an array of strings.' };
  // Duplicates are kept: each query gets its own group, in the order sent.
  const list = raw.map((item) => stringify(item).trim()).filter((item) => item !== '');
  if (list.length === 0) return { error: 'queries must contain at least one non-empty string.' };
  if (list.length > MAX_QUERIES_PER_SEARCH) {
    return {
      error: `too many queries: ${list.length} > max ${MAX_QUERIES_PER_SEARCH}. Retry with fewer, more targeted queries.`,
    };
  }
  return { list };
}

function stringify(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item === null || item === undefined || item === false || item === 0) return '';
  return typeof item === 'object' ? JSON.stringify(item) : String(item);
}

/** Absent → the default; a number or integer string is truncated and clamped to [1, max]; anything else → the default. */
export function resolveLimit(value: unknown, limits: SearchLimits): number {
  let requested: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) requested = Math.trunc(value);
  else if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value))
    requested = Number.parseInt(value, 10);
  if (requested === undefined) return limits.defaultLimit;
  return Math.min(limits.maxLimit, Math.max(1, requested));
}

function toolRecord(entry: CatalogEntry): ToolRecord {
  return {
    source: entry.source,
    source_name: entry.source === 'other' ? '' : entry.serverId,
    description: clipDescription(entry.description),
    required: requiredNames(entry.inputSchema),
  };
}

/** A connector hit's record: `source_name` is the connector as the gateway spelled it. */
function connectorRecord(document: ConnectorDocument): ToolRecord {
  return {
    source: 'connectors',
    source_name: document.server,
    description: clipDescription(document.description),
    required: requiredNames(document.inputSchema),
  };
}

/** Cut at 500 characters (code points, so no emoji is split) with `…` appended when cut. */
export function clipDescription(description: string): string {
  const chars = Array.from(description);
  return chars.length > MAX_RESULT_DESCRIPTION_CHARS
    ? `${chars.slice(0, MAX_RESULT_DESCRIPTION_CHARS).join('')}…`
    : description;
}

function requiredNames(schema: unknown): string[] {
  if (!isPlainObject(schema) || !Array.isArray(schema.required)) return [];
  return schema.required
    .filter((item): item is string => typeof item === 'string')
    .slice(0, MAX_REQUIRED_ITEMS)
    .map((item) => item.slice(0, MAX_REQUIRED_NAME_CHARS));
}

/** Every source label with its tool count, plus declared servers that are down, sorted by name. */
function availableSources(scope: BridgeScope): SourceCount[] {
  const counts = new Map<string, number>();
  for (const entry of scope.catalog.deferred) {
    const label = sourceLabel(entry);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const sources: SourceCount[] = [...counts].map(([name, tool_count]) => ({ name, tool_count }));
  for (const server of scope.catalog.unavailableServers ?? []) {
    sources.push({ name: server.serverId, tool_count: server.toolCount ?? 0, unavailable: server.reason });
  }
  return sources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function sourceLabel(entry: CatalogEntry): string {
  return entry.source === 'other' || entry.serverId === '' ? 'other' : entry.serverId;
}

function snakeCaseKeys(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) out[key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = value;
  }
  return out;
}
