import type { JsonObject } from '../base/json.js';

export type ListingForm = 'full' | 'names' | 'mixed' | 'groups' | 'none';

/** MCP tool annotations (untrusted hints unless the user trusts the server). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool definition as a server lists it (an MCP `tools/list` item). */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
}

export type ToolSource = 'mcp' | 'connectors' | 'plugin' | 'other';

/** One tool in the catalog, under the name the agent sees. */
export interface CatalogEntry {
  /** Agent-facing name, e.g. `mcp__github__create_issue`. Never truncated or sanitised. */
  name: string;
  /** Server (or connector) id, also the group label in listings. */
  serverId: string;
  /** The tool's own name on its server. */
  toolName: string;
  source: ToolSource;
  description: string;
  inputSchema: JsonObject | undefined;
  annotations?: ToolAnnotations;
}

/** The tools one server currently offers. */
export interface ServerTools {
  serverId: string;
  tools: ToolDefinition[];
}
