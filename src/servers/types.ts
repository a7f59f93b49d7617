import type { JsonObject } from '../base/json.js';
import type { ToolDefinition } from '../catalog/types.js';

/** How to reach one MCP server. Secret values (env, headers) live in the secret store, not here. */
export type ServerTransportConfig =
  | { transport: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  /** Streamable HTTP, falling back to legacy SSE when the server only speaks that. */
  | { transport: 'http'; url: string; headers?: Record<string, string>; oauth?: OAuthClientConfig }
  /** Legacy SSE only. */
  | { transport: 'sse'; url: string; headers?: Record<string, string>; oauth?: OAuthClientConfig };

/**
 * An OAuth client registered beforehand with a remote server's authorization server, for servers
 * that do not let clients register themselves. Signing in uses it instead of dynamic registration.
 */
export interface OAuthClientConfig {
  clientId: string;
  /** In settings a `${secret:<id>:oauth.clientSecret}` reference: the value lives in the secret store. */
  clientSecret?: string;
  /** The port of the redirect URI it was registered with (`http://127.0.0.1:<port>/oauth/callback`); any free port when absent. */
  redirectPort?: number;
}

export type ServerConfig = ServerTransportConfig & {
  /** Lower-case `[a-z0-9_-]`, unique; part of every tool name `mcp__<id>__<tool>`. */
  id: string;
  /** Display name; defaults to the id. */
  name?: string;
  enabled: boolean;
  /** The user trusts this server's annotations (readOnlyHint etc.). */
  trusted?: boolean;
  /**
   * Folders (absolute paths or `file:` URIs) the server sees as its roots when the agent calling
   * it declares none. The default filesystem server has its sandbox folder.
   */
  roots?: string[];
};

export type ServerStatus = 'starting' | 'connected' | 'error' | 'needs-auth' | 'disabled';

/** What a connection reports about itself. JSON-safe. */
export interface ServerState {
  status: ServerStatus;
  /** Why it is not connected, for a human (secrets redacted). Absent when connected or disabled. */
  lastError?: string;
  toolCount: number;
  /** It failed this many times in a row, with no healthy spell between, that it is crash-looping. */
  crashLooping: boolean;
  /** When the next reconnect attempt is due (ISO 8601), while one is scheduled. */
  nextRetryAt?: string;
  /** The stdio server's pid (also its process group id) while it runs. */
  pid?: number;
  /** Times the connection re-established itself (lost session, crash, unreachable); absent until the first. */
  reconnects?: ServerReconnects;
}

/** Automatic reconnects of one connection (a user's start or restart is not one). JSON-safe. */
export interface ServerReconnects {
  count: number;
  /** When the last one completed (ISO 8601). */
  lastAt: string;
  /** Why the last one was needed, for a human. */
  lastReason: string;
}

/** What a connected server declared at initialize. JSON-safe. */
export interface ServerFeatures {
  /** Its `capabilities` (resources, prompts, completions, logging, …). */
  capabilities: JsonObject;
  /** Its `instructions` for the model, when it gave any. */
  instructions?: string;
}

/** A notification from a server that agents hear about (relayed, re-addressed by the host). */
export type UpstreamNotification =
  | { method: 'notifications/resources/list_changed' | 'notifications/prompts/list_changed' }
  | { method: 'notifications/resources/updated'; params: { uri: string } }
  | {
      method: 'notifications/message';
      params: { level: string; logger?: string; data?: unknown };
    };

/** One server as the manager sees it now. */
export interface ServerSnapshot extends ServerState {
  id: string;
  /** The config as it was given (secret references, never resolved values). */
  config: ServerConfig;
  tools: ToolDefinition[];
  /** Last lines the server wrote to stderr, oldest first (bounded, redacted). */
  stderrTail: string[];
  /** What it declared at initialize, while connected. */
  features?: ServerFeatures;
}
