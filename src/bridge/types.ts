import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogEntry } from '../catalog/types.js';

/** Who is calling and how to cancel. */
export interface CallContext {
  /** The agent (token) id the call came from; `playground` for the UI's own calls. */
  agentId: string;
  signal?: AbortSignal;
}

/**
 * Runs one real tool. The bridge validates arguments first; the executor talks to the server
 * (or an in-process fake in tests) and returns its result untouched.
 */
export interface ToolExecutor {
  callTool(entry: CatalogEntry, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}

/** What an agent endpoint needs from the bridge: the tools to list, and a way to call one. */
export interface AgentSurface {
  /** Visible tools in order: pinned tools, then manage_connections, then the bridge tools. */
  listTools(): Tool[];
  callTool(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}
