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

/** How a tool may run as an MCP task (`execution.taskSupport`); absent means `forbidden`. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** An MCP icon, as listed. */
export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/**
 * The fields of a tool definition an agent receives as the server listed them, besides name,
 * description and input schema: a pinned tool keeps every one.
 */
export interface ToolPresentation {
  title?: string;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
  /** MCP `_meta`, as listed. */
  _meta?: JsonObject;
}

/** A tool definition as a server lists it (an MCP `tools/list` item). */
export interface ToolDefinition extends ToolPresentation {
  name: string;
  description?: string;
  inputSchema?: JsonObject;
  execution?: { taskSupport?: TaskSupport };
}

export type ToolSource = 'mcp' | 'connectors' | 'plugin' | 'other';

/** One tool in the catalog, under the name the agent sees. */
export interface CatalogEntry extends ToolPresentation {
  /** Agent-facing name, e.g. `mcp__github__create_issue`. Never truncated or sanitised. */
  name: string;
  /** Server (or connector) id, also the group label in listings. */
  serverId: string;
  /** The tool's own name on its server. */
  toolName: string;
  source: ToolSource;
  description: string;
  inputSchema: JsonObject | undefined;
}

/** The tools one server currently offers. */
export interface ServerTools {
  serverId: string;
  tools: ToolDefinition[];
}
