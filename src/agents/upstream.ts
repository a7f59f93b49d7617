import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  LoggingMessageNotification,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { Event } from '../base/emitter.js';

/** Who asks and how to cancel, for requests that reach a server. */
export interface UpstreamContext {
  agentId: string;
  signal?: AbortSignal;
}

/** What agents hear about from the servers, already under agent-facing names (see upstream-names.ts). */
export type RelayedNotification =
  | { method: 'notifications/resources/list_changed' | 'notifications/prompts/list_changed' }
  | { method: 'notifications/resources/updated'; params: { uri: string } }
  | { method: 'notifications/message'; params: LoggingMessageNotification['params'] };

/**
 * Everything the servers offer besides tools, aggregated over every enabled, connected server
 * and named so that no two collide. The host implements it over its servers; the agent
 * endpoints (HTTP and stdio) serve it through `UpstreamRelay`. Lists are whole: the relay pages them.
 * A name or URI that is not one of ours throws `NOT_FOUND` or `INVALID_ARGUMENT` (a ToolbridgeError).
 */
export interface UpstreamFeatures {
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string, context: UpstreamContext): Promise<ReadResourceResult>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, context: UpstreamContext): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], context: UpstreamContext): Promise<CompleteResult>;
  /** Subscribes the server behind `uri`; the relay counts agents, so each URI is subscribed once. */
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** Sets every server's log level (and every server's that connects later). */
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  readonly onDidNotify: Event<RelayedNotification>;
}
