/** How to reach one MCP server. Secret values (env, headers) live in the secret store, not here. */
export type ServerTransportConfig =
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  /** Streamable HTTP, falling back to legacy SSE when the server only speaks that. */
  | { transport: 'http'; url: string; headers?: Record<string, string> }
  /** Legacy SSE only. */
  | { transport: 'sse'; url: string; headers?: Record<string, string> };

export type ServerConfig = ServerTransportConfig & {
  /** Lower-case `[a-z0-9_-]`, unique; part of every tool name `mcp__<id>__<tool>`. */
  id: string;
  /** Display name; defaults to the id. */
  name?: string;
  enabled: boolean;
  /** The user trusts this server's annotations (readOnlyHint etc.). */
  trusted?: boolean;
};

export type ServerStatus = 'starting' | 'connected' | 'error' | 'needs-auth' | 'disabled';
