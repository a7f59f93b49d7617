/** Agent-facing names: `mcp__<server>__<tool>` for local MCP tools (design.md, "Names the agent sees"). */

export const MCP_PREFIX = 'mcp__';

const SERVER_ID_PATTERN = /^[a-z0-9_-]+$/;

export function isValidServerId(id: string): boolean {
  return SERVER_ID_PATTERN.test(id);
}

/** Turns any label (a file stem, a config key) into a server id: lower-case `[a-z0-9_-]`. */
export function toServerId(label: string): string {
  const id = label
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'server' : id;
}

/** The full name the agent sees; the tool's own name is kept verbatim. */
export function mcpToolName(serverId: string, toolName: string): string {
  return `${MCP_PREFIX}${serverId}__${toolName}`;
}
