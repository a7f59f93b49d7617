import { mcpToolName } from './naming.js';
import type { CatalogEntry, ServerTools, ToolPresentation } from './types.js';

/**
 * Catalog entries from the servers' live tool definitions, in server order then tool order (the
 * order ties keep in search). Names are `mcp__<server>__<tool>`, the tool's own name verbatim.
 * A server that lists one tool name twice keeps the first definition. A name two different
 * tools would share (see `nameCollisions`) is given to neither: no server silently wins it.
 */
export function entriesFromServers(servers: readonly ServerTools[]): CatalogEntry[] {
  const clashing = nameCollisions(servers);
  const entries: CatalogEntry[] = [];
  const seen = new Set<string>();
  for (const server of servers) {
    for (const tool of server.tools) {
      const name = mcpToolName(server.serverId, tool.name);
      if (seen.has(name) || clashing.has(name)) continue;
      seen.add(name);
      const entry: CatalogEntry = {
        name,
        serverId: server.serverId,
        toolName: tool.name,
        source: 'mcp',
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
      };
      copyPresentation(tool, entry);
      entries.push(entry);
    }
  }
  return entries;
}

/** Copies the presentation fields `from` has (title, outputSchema, annotations, icons, _meta) onto `to`. */
export function copyPresentation(from: ToolPresentation, to: ToolPresentation): void {
  if (from.title !== undefined) to.title = from.title;
  if (from.outputSchema !== undefined) to.outputSchema = from.outputSchema;
  if (from.annotations !== undefined) to.annotations = from.annotations;
  if (from.icons !== undefined) to.icons = from.icons;
  if (from._meta !== undefined) to._meta = from._meta;
}

/** One tool a colliding name would stand for. */
export interface CollidingTool {
  serverId: string;
  toolName: string;
}

/**
 * Agent-facing names that more than one (server, tool) pair composes to, such as server `x` with
 * tool `y__run` and server `x__y` with tool `run` (both `mcp__x__y__run`), each with its claimants.
 */
export function nameCollisions(servers: readonly ServerTools[]): Map<string, CollidingTool[]> {
  const claimants = new Map<string, CollidingTool[]>();
  for (const server of servers) {
    for (const tool of server.tools) {
      const name = mcpToolName(server.serverId, tool.name);
      const list = claimants.get(name) ?? [];
      if (!list.some((item) => item.serverId === server.serverId && item.toolName === tool.name)) {
        list.push({ serverId: server.serverId, toolName: tool.name });
      }
      claimants.set(name, list);
    }
  }
  for (const [name, list] of claimants) if (list.length < 2) claimants.delete(name);
  return claimants;
}

/** The user's choices about single tools, all by agent-facing name. */
export interface ToolChoices {
  /** Listed directly, never behind the bridge. */
  pinned?: Iterable<string>;
  /** Left out entirely: not listed, not searchable, not callable. */
  disabled?: Iterable<string>;
  /** Defer even when pinned (the reference's `defer` list; see tool-search-config.ts). */
  defer?: Iterable<string>;
}

/** The catalog split by where each enabled tool goes. Both lists keep catalog order. */
export interface ClassifiedCatalog {
  /** Every enabled tool. */
  entries: CatalogEntry[];
  /** Tools that go behind the bridge when tool search is active. */
  deferrable: CatalogEntry[];
  /** Tools listed directly in every case. */
  pinned: CatalogEntry[];
}

/**
 * Which tools defer: in Toolbridge every catalog tool does, except the ones the user pinned
 * (the always-eager list the reference lacks, #86620). Disabled tools are dropped first; a
 * name in `defer` defers even if pinned. Names that match no entry are ignored, so stale
 * settings never break a rebuild.
 */
export function classifyEntries(
  entries: readonly CatalogEntry[],
  choices: ToolChoices = {},
): ClassifiedCatalog {
  const pinned = new Set(choices.pinned ?? []);
  const disabled = new Set(choices.disabled ?? []);
  const defer = new Set(choices.defer ?? []);
  const result: ClassifiedCatalog = { entries: [], deferrable: [], pinned: [] };
  for (const entry of entries) {
    if (disabled.has(entry.name)) continue;
    result.entries.push(entry);
    if (pinned.has(entry.name) && !defer.has(entry.name)) result.pinned.push(entry);
    else result.deferrable.push(entry);
  }
  return result;
}
