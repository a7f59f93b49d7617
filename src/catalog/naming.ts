/** Agent-facing names: `mcp__<server>__<tool>` for local MCP tools (design.md, "Names the agent sees"). */

export const MCP_PREFIX = 'mcp__';

/** The full name the agent sees; the tool's own name is kept verbatim. */
export function mcpToolName(serverId: string, toolName: string): string {
  return `${MCP_PREFIX}${serverId}__${toolName}`;
}

/**
 * What an agent is told about a tool whose definition changed since the person last reviewed it
 * (held: kept out of search, describe and listings, its calls refused until the change is accepted).
 */
export function heldToolMessage(name: string): string {
  return `'${name}' changed (its description, schema or annotations) since the user last reviewed it, so it is held and was not run. The user can review the change in Toolbridge (Servers, the tool's details); do not retry it until then.`;
}

/**
 * What an agent is told about a tool that only runs as an MCP task (`execution.taskSupport:
 * "required"`): Toolbridge does not run tasks yet, so the tool is left out rather than listed to fail.
 */
export function needsTasksMessage(name: string): string {
  return `'${name}' runs only as an MCP task (its server marks it execution.taskSupport "required"), which Toolbridge does not support yet, so it is not offered and was not run. Use another tool, or connect that server to a client that supports tasks.`;
}

/** The bridge's own tools, listed to the agent whenever at least one tool defers. */
export const TOOL_SEARCH_NAME = 'tool_search';
export const TOOL_DESCRIBE_NAME = 'tool_describe';
export const TOOL_CALL_NAME = 'tool_call';
export const BRIDGE_TOOL_NAMES: readonly string[] = [TOOL_SEARCH_NAME, TOOL_DESCRIBE_NAME, TOOL_CALL_NAME];

/** Listed directly (never deferred) when the session can connect apps and servers. */
export const MANAGE_CONNECTIONS_NAME = 'manage_connections';

/** Names no catalog tool may take in the agent's direct tool list. */
export const RESERVED_DIRECT_NAMES: readonly string[] = [...BRIDGE_TOOL_NAMES, MANAGE_CONNECTIONS_NAME];
