import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { RelayedNotification, UpstreamFeatures } from './upstream.js';

/** What the agent endpoint declares for the servers' features (beside tools). */
export const RELAY_CAPABILITIES: ServerCapabilities = Object.freeze({
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
});

/** Items per page of resources/list, resources/templates/list and prompts/list. */
export const RELAY_PAGE_SIZE = 100;

/** MCP's "resource not found" (spec: -32002). */
const RESOURCE_NOT_FOUND = -32002;
const SEVERITY = new Map<LoggingLevel, number>(
  LoggingLevelSchema.options.map((level, index) => [level, index]),
);

interface AgentSession {
  agentId: string;
  /** The level this session asked for; none means every message. */
  level?: LoggingLevel;
  /** Agent-facing resource URIs it subscribed to. */
  subscriptions: Set<string>;
}

/**
 * Serves the servers' resources, templates, prompts, completions and logging to every agent
 * session (HTTP, legacy SSE and stdio alike), and relays what they announce. Relayed
 * notifications carry no related request, so over Streamable HTTP they go out on the agent's
 * standalone stream: one tied to a request answered as plain JSON would be dropped by the SDK.
 * Subscriptions are counted across sessions (a URI is subscribed upstream once, and unsubscribed
 * when its last session leaves); the servers log at the most verbose level any session asked for,
 * and each session hears only what its own level lets through.
 */
export class UpstreamRelay implements Disposable {
  private readonly sessions = new Map<Server, AgentSession>();
  private readonly subscribers = new Map<string, Set<Server>>();
  private readonly listening: Disposable;

  constructor(private readonly upstream: UpstreamFeatures) {
    this.listening = upstream.onDidNotify((notification) => this.deliver(notification));
  }

  /** Registers the feature handlers on one agent session's server (declared with RELAY_CAPABILITIES). */
  attach(server: Server, agentId: string): void {
    const session: AgentSession = { agentId, subscriptions: new Set() };
    this.sessions.set(server, session);
    const closed = server.onclose;
    server.onclose = () => {
      this.detach(server);
      closed?.();
    };
    const context = (signal: AbortSignal) => ({ agentId, signal });

    server.setRequestHandler(ListResourcesRequestSchema, async ({ params }) => {
      const { items, nextCursor } = page(await this.upstream.listResources(), params?.cursor);
      return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async ({ params }) => {
      const { items, nextCursor } = page(await this.upstream.listResourceTemplates(), params?.cursor);
      return { resourceTemplates: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
    });
    server.setRequestHandler(ReadResourceRequestSchema, ({ params }, extra) =>
      rpc(() => this.upstream.readResource(params.uri, context(extra.signal)), RESOURCE_NOT_FOUND),
    );
    server.setRequestHandler(SubscribeRequestSchema, ({ params }) =>
      rpc(() => this.subscribe(server, params.uri)),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, ({ params }) =>
      rpc(() => this.unsubscribe(server, params.uri)),
    );
    server.setRequestHandler(ListPromptsRequestSchema, async ({ params }) => {
      const { items, nextCursor } = page(await this.upstream.listPrompts(), params?.cursor);
      return { prompts: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
    });
    server.setRequestHandler(GetPromptRequestSchema, ({ params }, extra) =>
      rpc(() => this.upstream.getPrompt(params.name, params.arguments ?? {}, context(extra.signal))),
    );
    server.setRequestHandler(CompleteRequestSchema, ({ params }, extra) =>
      rpc(() => this.upstream.complete(params, context(extra.signal))),
    );
    server.setRequestHandler(SetLevelRequestSchema, async ({ params }) => {
      session.level = params.level;
      await this.upstream.setLoggingLevel(this.mostVerboseLevel() ?? params.level);
      return {};
    });
  }

  /** Sessions attached now (for tests and diagnostics). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  dispose(): void {
    this.listening.dispose();
    this.sessions.clear();
    this.subscribers.clear();
  }

  private async subscribe(server: Server, uri: string): Promise<Record<string, never>> {
    const session = this.sessions.get(server);
    if (session === undefined || session.subscriptions.has(uri)) return {};
    let servers = this.subscribers.get(uri);
    if (servers === undefined) {
      await this.upstream.subscribe(uri);
      servers = new Set();
      this.subscribers.set(uri, servers);
    }
    servers.add(server);
    session.subscriptions.add(uri);
    return {};
  }

  private async unsubscribe(server: Server, uri: string): Promise<Record<string, never>> {
    const session = this.sessions.get(server);
    if (session === undefined || !session.subscriptions.delete(uri)) return {};
    await this.release(server, uri);
    return {};
  }

  private async release(server: Server, uri: string): Promise<void> {
    const servers = this.subscribers.get(uri);
    if (servers === undefined || !servers.delete(server) || servers.size > 0) return;
    this.subscribers.delete(uri);
    await this.upstream.unsubscribe(uri);
  }

  private detach(server: Server): void {
    const session = this.sessions.get(server);
    if (session === undefined) return;
    this.sessions.delete(server);
    for (const uri of session.subscriptions) {
      this.release(server, uri).catch((error: unknown) => {
        console.warn(`toolbridge: unsubscribing from ${uri} failed:`, errorMessage(error));
      });
    }
  }

  private mostVerboseLevel(): LoggingLevel | undefined {
    let chosen: LoggingLevel | undefined;
    for (const { level } of this.sessions.values()) {
      if (level !== undefined && (chosen === undefined || SEVERITY.get(level)! < SEVERITY.get(chosen)!))
        chosen = level;
    }
    return chosen;
  }

  private deliver(notification: RelayedNotification): void {
    let targets: Iterable<Server>;
    if (notification.method === 'notifications/resources/updated') {
      targets = this.subscribers.get(notification.params.uri) ?? [];
    } else if (notification.method === 'notifications/message') {
      const severity = SEVERITY.get(notification.params.level) ?? 0;
      targets = [...this.sessions]
        .filter(([, session]) => session.level === undefined || severity >= SEVERITY.get(session.level)!)
        .map(([server]) => server);
    } else {
      targets = this.sessions.keys();
    }
    for (const server of targets) {
      server.notification(notification).catch(() => {
        // Not initialized yet, or the agent went away; its session closes itself.
      });
    }
  }
}

/** One page of a whole list, after an opaque cursor from an earlier page. */
function page<T>(items: readonly T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const end = start + RELAY_PAGE_SIZE;
  const slice = items.slice(start, end);
  return end < items.length ? { items: slice, nextCursor: cursorAt(end) } : { items: slice };
}

function cursorAt(offset: number): string {
  return Buffer.from(`tb:${offset}`).toString('base64url');
}

function offsetOf(cursor: string): number {
  const match = /^tb:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid cursor: send back the nextCursor of the previous page as it was, or none for the first page.',
    );
  }
  return Number(match[1]);
}

/**
 * Runs one request against the servers. What the agent got wrong (a name or URI that is not one
 * of ours) is InvalidParams (`notFoundCode` for unknown resources); a server's own JSON-RPC error
 * passes through; anything else expected becomes InternalError with its message. A bug never
 * leaks its details.
 */
async function rpc<T>(run: () => Promise<T>, notFoundCode: number = ErrorCode.InvalidParams): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (ToolbridgeError.is(error)) {
      if (error.code === 'NOT_FOUND') throw new McpError(notFoundCode, error.message);
      if (error.code === 'INVALID_ARGUMENT') throw new McpError(ErrorCode.InvalidParams, error.message);
      if (error.code === 'TIMEOUT') throw new McpError(ErrorCode.RequestTimeout, error.message);
      throw new McpError(ErrorCode.InternalError, error.message);
    }
    console.warn('toolbridge: relaying a request to a server failed unexpectedly:', errorMessage(error));
    throw new McpError(
      ErrorCode.InternalError,
      "Toolbridge hit an internal error; the app's log has details.",
    );
  }
}
