/**
 * One MCP client connection to one server: stdio, Streamable HTTP (falling back to legacy SSE) or
 * SSE. It keeps a status, the server's full tool list (every page) and a bounded stderr tail;
 * re-lists on `notifications/tools/list_changed`; reconnects with backoff after a crash; and bounds
 * every wait (connect, list, call) so a dead or hung server gives a clear error, never a hang.
 *
 * Each attempt owns a session (client, transport, child, listeners) in its own DisposableStore.
 * Like a MutableDisposable, the old session is closed before a new one counts.
 */

import { STATUS_CODES } from 'node:http';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  EmptyResultSchema,
  ErrorCode,
  ListToolsResultSchema,
  type LoggingLevel,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Event } from '../base/emitter.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { JsonObject } from '../base/json.js';
import { type AsyncDisposable, type Disposable, DisposableStore, toDisposable } from '../base/lifecycle.js';
import type { AgentPeer, ProgressListener } from '../bridge/agent-peer.js';
import type { ToolDefinition } from '../catalog/types.js';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
import { type ChildExit, ChildProcessTransport, MESSAGE_TOO_LARGE } from './child-process-transport.js';
import {
  type ClientRequestHandler,
  clientCapabilities,
  deliverProgressFirst,
  type ServerRequestOrigin,
  serveClientRequests,
} from './client-requests.js';
import type { ProcessLeases } from './process-leases.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_CALL_TIMEOUT_MS } from './settings.js';
import { StderrBuffer, type StderrBufferOptions } from './stderr-buffer.js';
import type {
  ServerConfig,
  ServerFeatures,
  ServerReconnects,
  ServerState,
  UpstreamNotification,
} from './types.js';

/** Timers and time, injectable so tests can drive reconnects without sleeping. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  // unref'd: a pending retry never keeps the process alive.
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface ServerConnectionOptions {
  /** Start (spawn, initialize) must finish within this. @defaultValue 30000 */
  connectTimeoutMs?: number;
  /** Each `tools/list` page must arrive within this. @defaultValue 30000 */
  listTimeoutMs?: number;
  /**
   * Default for `callTool`; a call may pass its own. Each progress notification of the call
   * starts it again, up to `maxCallTimeoutMs` in all. @defaultValue 60000
   */
  callTimeoutMs?: number;
  /** The longest a call may run however often its server reports progress. @defaultValue 600000 */
  maxCallTimeoutMs?: number;
  /**
   * Answers the server's elicitation and sampling requests; without it they are not declared
   * to servers (roots always are).
   */
  clientRequests?: ClientRequestHandler;
  /** The longest stopping a stdio server waits before SIGKILL (stdin end → SIGTERM → SIGKILL). @defaultValue 2000 */
  stopGraceMs?: number;
  backoff?: Partial<BackoffOptions>;
  stderr?: Omit<StderrBufferOptions, 'redact'>;
  /** Turns the stored config (with `${secret:…}` references) into the one to connect with. */
  resolveConfig?: (config: ServerConfig) => ServerConfig | Promise<ServerConfig>;
  /** Applied to stderr lines and error messages, after this server's own secret values are masked. */
  redact?: (text: string) => string;
  /**
   * The fetch an HTTP or SSE server's transport uses: the host passes its sign-in client's, which
   * adds the stored token and refreshes it. No SDK auth provider, so no URL a server names is
   * fetched without the SSRF guard. A 401 sets `needs-auth` either way.
   */
  fetchFor?: (config: ServerConfig) => FetchLike | undefined;
  /**
   * After an HTTP 403, the scopes a new sign-in would ask for when the server said
   * `insufficient_scope` (a step-up); the server then goes to `needs-auth` saying so.
   */
  scopeNeeded?: (config: ServerConfig) => string | undefined;
  /** Replaces the built-in transports (tests, future transports). */
  createTransport?: (
    config: ServerConfig,
    hooks: { onStderr: (text: string) => void },
  ) => Transport | Promise<Transport>;
  clientInfo?: { name: string; version: string };
  /** Records stdio children on disk so a later run can reap them if this host dies. */
  leases?: ProcessLeases;
  clock?: Clock;
  random?: () => number;
}

export const DEFAULT_CONNECTION_OPTIONS = Object.freeze({
  connectTimeoutMs: 30_000,
  listTimeoutMs: 30_000,
  callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
  maxCallTimeoutMs: DEFAULT_MAX_CALL_TIMEOUT_MS,
  stopGraceMs: 2_000,
});

export interface CallToolOptions {
  /** Aborting sends `notifications/cancelled` to the server and rejects with `CANCELLED`. */
  signal?: AbortSignal;
  /** Overrides the connection's call timeout. */
  timeoutMs?: number;
  /** Overrides the connection's maximum for a call that keeps reporting progress. */
  maxTimeoutMs?: number;
  /** The agent the server may ask for input, a model reply or its roots while this call runs. */
  peer?: AgentPeer;
  /** Receives the server's progress notifications for this call. */
  onProgress?: ProgressListener;
}

/** A call on its way: the server's requests meanwhile are taken to belong to the latest one. */
interface CallInFlight {
  toolName: string;
  peer?: AgentPeer;
  signal?: AbortSignal;
}

/** A safety net against servers whose cursors never end. */
const MAX_TOOL_PAGES = 1_000;
const MASK = '••••';

interface Session {
  readonly store: DisposableStore;
  client?: Client;
  /** Connected and initialized; a close after this is a crash. */
  established: boolean;
  /** We are closing it on purpose. */
  closing: boolean;
  pid?: number;
  exit?: () => ChildExit | undefined;
  /** The Streamable HTTP session id the server gave, if it keeps sessions. */
  httpSessionId?: () => string | undefined;
  /** Calls sent on it and not yet settled. */
  inFlight: number;
}

/** What one request through a ready session does; `callTool` and `refreshTools` share the lost-session retry. */
type SessionRequest<T> = (client: Client) => Promise<T>;

export class ServerConnection implements AsyncDisposable {
  private readonly store = new DisposableStore();
  private readonly _onDidChangeState = this.store.add(new Emitter<ServerState>());
  /** Status, last error, tool count, retry plans. */
  readonly onDidChangeState: Event<ServerState> = this._onDidChangeState.event;
  private readonly _onDidChangeTools = this.store.add(new Emitter<ToolDefinition[]>());
  /** The full tool list, whenever it differs from the last one. */
  readonly onDidChangeTools: Event<ToolDefinition[]> = this._onDidChangeTools.event;
  private readonly _onDidNotify = this.store.add(new Emitter<UpstreamNotification>());
  /** The server announced a resource or prompt change, or sent a log message (relayed to agents). */
  readonly onDidNotify: Event<UpstreamNotification> = this._onDidNotify.event;
  /** The log level agents asked for, applied to every session from now on. */
  private loggingLevel: LoggingLevel | undefined;
  /** Resource URIs (the server's own) agents are subscribed to; subscribed again on each new session. */
  private readonly subscriptions = new Set<string>();

  private _config: ServerConfig;
  private _state: ServerState;
  private _tools: ToolDefinition[] = [];
  private readonly stderr: StderrBuffer;
  private readonly clock: Clock;
  private readonly backoff: BackoffOptions;
  private readonly timeouts: {
    connectTimeoutMs: number;
    listTimeoutMs: number;
    callTimeoutMs: number;
    maxCallTimeoutMs: number;
    stopGraceMs: number;
  };
  private readonly calls: CallInFlight[] = [];
  private lastPeer: AgentPeer | undefined;
  private session: Session | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: Disposable | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private failures = 0;
  private connectedAt: number | undefined;
  /**
   * Sessions the server lost, kept open until their calls in flight have had their own 404 (and
   * their one retry); closing them at once would fail those calls instead.
   */
  private readonly lostSessions = new Set<Session>();
  /** Why the connection is being re-established on its own; counted in `reconnects` once it is. */
  private reconnectReason: string | undefined;
  /** Bumped by every start, stop and restart, so callbacks of an older attempt do nothing. */
  private epoch = 0;
  private closed = false;
  private secretValues: string[] = [];

  constructor(
    config: ServerConfig,
    private readonly options: ServerConnectionOptions = {},
  ) {
    this._config = config;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.timeouts = {
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECTION_OPTIONS.connectTimeoutMs,
      listTimeoutMs: options.listTimeoutMs ?? DEFAULT_CONNECTION_OPTIONS.listTimeoutMs,
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CONNECTION_OPTIONS.callTimeoutMs,
      maxCallTimeoutMs: options.maxCallTimeoutMs ?? DEFAULT_CONNECTION_OPTIONS.maxCallTimeoutMs,
      stopGraceMs: options.stopGraceMs ?? DEFAULT_CONNECTION_OPTIONS.stopGraceMs,
    };
    this.stderr = new StderrBuffer({ ...options.stderr, redact: (line) => this.redact(line) });
    this._state = { status: config.enabled ? 'starting' : 'disabled', toolCount: 0, crashLooping: false };
    this.store.add({ close: () => this.shutdown() });
  }

  get id(): string {
    return this._config.id;
  }

  get config(): ServerConfig {
    return this._config;
  }

  get state(): ServerState {
    return { ...this._state };
  }

  get tools(): ToolDefinition[] {
    return [...this._tools];
  }

  get stderrTail(): string[] {
    return this.stderr.tail();
  }

  /** What the server declared at initialize, while connected. */
  get features(): ServerFeatures | undefined {
    const client = this.session?.established ? this.session.client : undefined;
    if (client === undefined) return undefined;
    const instructions = client.getInstructions();
    return {
      capabilities: (client.getServerCapabilities() ?? {}) as JsonObject,
      ...(instructions === undefined || instructions.trim() === '' ? {} : { instructions }),
    };
  }

  /**
   * Sends one request other than tools/call (resources, prompts, completion, …) on the current
   * session and returns the server's result, parsed by `schema`. Bounded by the list timeout
   * unless `timeoutMs` says otherwise; a lost HTTP session is re-initialized and the request
   * sent once more, as for calls. A JSON-RPC error the server answers with is rethrown as is.
   */
  async request<T extends AnySchema>(
    method: string,
    params: Record<string, unknown> | undefined,
    schema: T,
    options: CallToolOptions = {},
  ): Promise<SchemaOutput<T>> {
    const timeoutMs = options.timeoutMs ?? this.timeouts.listTimeoutMs;
    const send: SessionRequest<SchemaOutput<T>> = (client) =>
      client.request({ method, ...(params === undefined ? {} : { params }) }, schema, {
        signal: options.signal,
        timeout: timeoutMs,
      });
    const session = await this.readySession(method, timeoutMs, options.signal);
    try {
      return await this.tracked(session, send);
    } catch (error) {
      if (!this.lostSession(error, session) || options.signal?.aborted)
        throw this.requestError(error, method, timeoutMs, options.signal);
    }
    this.reinitialize(session);
    const fresh = await this.readySession(method, timeoutMs, options.signal);
    try {
      return await this.tracked(fresh, send);
    } catch (error) {
      throw this.requestError(error, method, timeoutMs, options.signal);
    }
  }

  /** Sets the server's log level now (when it logs) and on every later session. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.loggingLevel = level;
    const client = this.session?.established ? this.session.client : undefined;
    if (client?.getServerCapabilities()?.logging) await client.setLoggingLevel(level);
  }

  /** Subscribes to one of the server's resources (its own URI), now and on every later session. */
  async subscribe(uri: string): Promise<void> {
    this.subscriptions.add(uri);
    await this.request('resources/subscribe', { uri }, EmptyResultSchema);
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscriptions.delete(uri)) return;
    if (this.session?.established) await this.request('resources/unsubscribe', { uri }, EmptyResultSchema);
  }

  /** Connects if enabled and not yet connected. Resolves after the attempt, whatever its outcome (see `state`). */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this._config.enabled) {
      this.setState({
        status: 'disabled',
        lastError: undefined,
        crashLooping: false,
        nextRetryAt: undefined,
      });
      return Promise.resolve();
    }
    if (this.connecting) return this.connecting;
    if (this.session?.established) return Promise.resolve();
    this.cancelRetry();
    return this.attempt();
  }

  /** Disconnects and stays down (status `disabled`) until `start`. Its tools are gone meanwhile. */
  async stop(): Promise<void> {
    this.epoch++;
    // An attempt in flight is now stale; a later start must not wait on it.
    this.connecting = undefined;
    this.cancelRetry();
    this.failures = 0;
    this.connectedAt = undefined;
    this.reconnectReason = undefined;
    await this.closeSession();
    if (this.closed) return;
    const hadTools = this.replaceTools([]);
    this.setState({
      status: 'disabled',
      lastError: undefined,
      crashLooping: false,
      nextRetryAt: undefined,
      pid: undefined,
    });
    if (hadTools) this._onDidChangeTools.fire([]);
  }

  /** Closes the current session (if any) and connects anew, with a fresh backoff. */
  restart(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this._config.enabled) return this.stop();
    this.cancelRetry();
    this.failures = 0;
    this.reconnectReason = undefined;
    return this.attempt();
  }

  /**
   * Takes a new config for the same id. A change to how it connects (transport, command, url,
   * env, headers, …) reconnects; a change to name or trust does not.
   */
  async update(config: ServerConfig): Promise<void> {
    if (config.id !== this._config.id) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `A connection keeps its id: "${this._config.id}" cannot become "${config.id}".`,
      );
    }
    const reconnect = connectionKey(config) !== connectionKey(this._config);
    const rootsChanged = JSON.stringify(config.roots ?? []) !== JSON.stringify(this._config.roots ?? []);
    const wasEnabled = this._config.enabled;
    this._config = config;
    if (rootsChanged && !reconnect) this.notifyRootsChanged();
    if (!config.enabled) {
      if (wasEnabled || this._state.status !== 'disabled') await this.stop();
      return;
    }
    if (reconnect || !wasEnabled || this._state.status === 'disabled') await this.restart();
  }

  /** Re-reads the tool list now (also done on `notifications/tools/list_changed`). */
  refreshTools(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    const run = async (): Promise<void> => {
      do {
        this.refreshAgain = false;
        const session = this.session;
        if (!session?.established || !session.client) return;
        try {
          const tools = await this.listAllTools(session.client);
          if (session === this.session) this.setTools(tools);
        } catch (error) {
          // Re-initializing lists the tools anew.
          if (this.lostSession(error, session)) this.reinitialize(session);
          else this.stderr.note(`could not re-read the tool list: ${this.redact(errorMessage(error))}`);
        }
      } while (this.refreshAgain);
    };
    this.refreshing = run().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /**
   * Calls a tool and returns the server's result as it sent it. A server that is down, crashes
   * mid-call or does not answer in time gives `SERVER_UNAVAILABLE` or `TIMEOUT`; an aborted signal
   * gives `CANCELLED` (and the server hears `notifications/cancelled`). A JSON-RPC error the
   * server itself answers with (unknown tool, bad arguments) is rethrown as its `McpError`; an
   * HTTP error status is named with the server. A Streamable HTTP server that no longer knows our
   * session (404, e.g. after it restarted) did not run the call: it is re-initialized and the call
   * sent once more, never more than once.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.timeouts.callTimeoutMs;
    const maxTimeoutMs = Math.max(timeoutMs, options.maxTimeoutMs ?? this.timeouts.maxCallTimeoutMs);
    const started = this.clock.now();
    const remaining = (): number => Math.max(1, timeoutMs - (this.clock.now() - started));
    if (options.signal?.aborted) throw this.cancelled(name);
    const request: SessionRequest<CallToolResult> = (client) =>
      client.request(
        { method: 'tools/call', params: { name, arguments: args ?? {} } },
        CallToolResultSchema,
        {
          signal: options.signal,
          timeout: remaining(),
          // Progress shows the server is alive: each notification starts the timeout again.
          onprogress: (progress) => options.onProgress?.(progress),
          resetTimeoutOnProgress: true,
          maxTotalTimeout: Math.max(1, maxTimeoutMs - (this.clock.now() - started)),
        },
      );
    const call: CallInFlight = {
      toolName: name,
      ...(options.peer === undefined ? {} : { peer: options.peer }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    if (options.peer !== undefined) this.lastPeer = options.peer;
    this.calls.push(call);
    try {
      const timeouts = { timeoutMs, maxTimeoutMs };
      const session = await this.readySession(name, timeoutMs, options.signal);
      try {
        return await this.tracked(session, request);
      } catch (error) {
        if (!this.lostSession(error, session) || options.signal?.aborted)
          throw this.callError(error, name, timeouts, session, options.signal);
      }
      this.reinitialize(session);
      const fresh = await this.readySession(name, remaining(), options.signal);
      try {
        return await this.tracked(fresh, request);
      } catch (error) {
        throw this.callError(error, name, timeouts, fresh, options.signal, { retried: true });
      }
    } finally {
      this.calls.splice(this.calls.indexOf(call), 1);
    }
  }

  /** Tells the server its roots changed (the agent's, or its `roots` setting); it asks for them again. */
  notifyRootsChanged(): void {
    const client = this.session?.established ? this.session.client : undefined;
    client?.sendRootsListChanged().catch((error: unknown) => {
      this.stderr.note(`could not send roots/list_changed: ${this.redact(errorMessage(error))}`);
    });
  }

  /** Stops for good: session, child, timers, listeners. */
  close(): Promise<void> {
    return this.store.close();
  }

  // --- connecting ------------------------------------------------------------------------------

  /** `resuming`: re-initializing a session the server lost, not starting (see connectOnce). */
  private attempt(resuming = false): Promise<void> {
    const epoch = ++this.epoch;
    const run: Promise<void> = this.connectOnce(epoch, resuming).finally(() => {
      if (this.connecting === run) this.connecting = undefined;
    });
    this.connecting = run;
    return run;
  }

  private async connectOnce(epoch: number, resuming: boolean): Promise<void> {
    this.retryTimer = undefined;
    // A server that lost our session still answers: it stays `connected` while we open a new one,
    // so agents keep its tools (no list change out and back) and a call arriving meanwhile waits
    // for the new session (readySession) instead of failing as "not connected".
    if (!resuming) this.setState({ status: 'starting', nextRetryAt: undefined });
    await this.closeSession();
    if (epoch !== this.epoch || this.closed) return;
    const session: Session = {
      store: new DisposableStore(),
      established: false,
      closing: false,
      inFlight: 0,
    };
    this.session = session;
    try {
      const resolved = (await this.options.resolveConfig?.(this._config)) ?? this._config;
      this.secretValues = secretValuesOf(this._config, resolved);
      const client = await this.withTimeout(
        this.open(resolved, session, epoch),
        this.timeouts.connectTimeoutMs,
        () =>
          new ToolbridgeError(
            'TIMEOUT',
            `Server "${this.id}" did not finish starting within ${seconds(this.timeouts.connectTimeoutMs)}.`,
          ),
      );
      if (epoch !== this.epoch) return await this.abandon(session);
      const tools = await this.listAllTools(client);
      if (epoch !== this.epoch) return await this.abandon(session);
      session.established = true;
      this.connectedAt = this.clock.now();
      const changed = this.replaceTools(tools);
      this.setState({
        status: 'connected',
        lastError: undefined,
        crashLooping: false,
        pid: session.pid,
        reconnects: this.countReconnect(),
      });
      if (changed) this._onDidChangeTools.fire(this.tools);
      this.restoreAgentState(client);
    } catch (error) {
      if (epoch !== this.epoch || this.closed) return await this.abandon(session);
      await this.abandon(session);
      if (isUnauthorized(error)) {
        this.needsAuth();
        return;
      }
      const scope = this.stepUpScope(error);
      if (scope !== undefined) {
        this.needsAuth(scope);
        return;
      }
      this.scheduleRetry(`Could not connect to server "${this.id}": ${this.describeFailure(error, session)}`);
    }
  }

  private async open(config: ServerConfig, session: Session, epoch: number): Promise<Client> {
    const onStderr = (text: string): void => {
      if (this.session === session) this.stderr.write(text);
    };
    if (this.options.createTransport) {
      return this.connectClient(await this.options.createTransport(config, { onStderr }), session, epoch);
    }
    if (config.transport === 'stdio') {
      const leases = this.options.leases;
      // Added first, so released last: the lease goes only once the child's group is gone.
      session.store.add({
        close: async () => {
          if (session.pid !== undefined) await leases?.remove(session.pid).catch(() => undefined);
        },
      });
      const transport = new ChildProcessTransport({
        command: config.command,
        args: config.args,
        env: config.env,
        cwd: config.cwd,
        stopGraceMs: this.timeouts.stopGraceMs,
        onStderr,
        onSpawn: (pid, leaseToken) => {
          session.pid = pid;
          leases?.add(this.id, pid, leaseToken).catch((error: unknown) => {
            this.stderr.note(`could not record the process lease: ${errorMessage(error)}`);
          });
        },
      });
      session.exit = () => transport.exit;
      return this.connectClient(transport, session, epoch);
    }
    const url = new URL(config.url);
    const fetchFn = this.options.fetchFor?.(config);
    const httpOptions = {
      requestInit: { headers: config.headers ?? {} },
      ...(fetchFn ? { fetch: fetchFn } : {}),
    };
    if (config.transport === 'sse') {
      return this.connectClient(new SSEClientTransport(url, httpOptions), session, epoch);
    }
    const probe = session.store.add(new DisposableStore());
    try {
      const streamable = new StreamableHTTPClientTransport(url, httpOptions);
      return await this.connectClient(streamable, session, epoch, probe);
    } catch (error) {
      if (!speaksOnlyLegacySse(error) || session.closing) throw error;
      // A 4xx to the Streamable HTTP POST: the server may be an older one that speaks SSE only.
      await probe.close();
      const refused = `HTTP ${(error as { code: number }).code}: ${this.redact(errorMessage(error))}`;
      this.stderr.note(`Streamable HTTP refused (${refused}); trying legacy SSE`);
      try {
        return await this.connectClient(new SSEClientTransport(url, httpOptions), session, epoch);
      } catch (sseError) {
        if (isUnauthorized(sseError) || session.closing) throw sseError;
        throw new ToolbridgeError(
          'SERVER_UNAVAILABLE',
          `Streamable HTTP failed (${refused}) and legacy SSE failed too (${this.redact(errorMessage(sseError))}). Check the URL.`,
          { cause: sseError },
        );
      }
    }
  }

  private async connectClient(
    transport: Transport,
    session: Session,
    epoch: number,
    owner: DisposableStore = session.store,
  ): Promise<Client> {
    // Abandoned meanwhile (timeout, stop): opening now would leak the transport.
    if (session.closing)
      throw new ToolbridgeError('CANCELLED', `Connecting to server "${this.id}" was abandoned.`);
    const client = new Client(this.options.clientInfo ?? { name: 'toolbridge', version: '0.1.0' }, {
      capabilities: clientCapabilities(this.options.clientRequests),
    });
    session.client = client;
    serveClientRequests(client, {
      handler: this.options.clientRequests,
      origin: (signal) => this.requestOrigin(signal),
      configuredRoots: () => this._config.roots ?? [],
      lastPeer: () => this.lastPeer,
    });
    owner.add({ close: () => transport.close() });
    owner.add({ close: () => client.close() });
    client.onclose = () => this.onSessionClosed(session, epoch);
    client.onerror = (error) => {
      if (this.session === session) this.stderr.note(`protocol error: ${this.redact(errorMessage(error))}`);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.session === session) void this.refreshTools();
    });
    const relay = (notification: UpstreamNotification): void => {
      if (this.session === session && session.established) this._onDidNotify.fire(notification);
    };
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
      relay({ method: 'notifications/resources/list_changed' }),
    );
    client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
      relay({ method: 'notifications/prompts/list_changed' }),
    );
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) =>
      relay({ method: 'notifications/resources/updated', params: { uri: params.uri } }),
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) =>
      relay({ method: 'notifications/message', params }),
    );
    await client.connect(transport, { timeout: this.timeouts.connectTimeoutMs });
    deliverProgressFirst(transport);
    if (transport instanceof StreamableHTTPClientTransport) session.httpSessionId = () => transport.sessionId;
    return client;
  }

  private async listAllTools(client: Client): Promise<ToolDefinition[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: ToolDefinition[] = [];
    const names = new Set<string>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
        { timeout: this.timeouts.listTimeoutMs },
      );
      for (const tool of result.tools) {
        if (names.has(tool.name)) continue;
        names.add(tool.name);
        tools.push(toToolDefinition(tool));
      }
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
      if (cursors.has(cursor)) {
        this.stderr.note(
          `tools/list repeated the cursor "${cursor.slice(0, 40)}"; keeping the ${tools.length} tools read so far`,
        );
        return tools;
      }
      cursors.add(cursor);
    }
    this.stderr.note(
      `tools/list went past ${MAX_TOOL_PAGES} pages; keeping the ${tools.length} tools read so far`,
    );
    return tools;
  }

  /** A new session hears the log level and the subscriptions agents asked the last one for. */
  private restoreAgentState(client: Client): void {
    const capabilities = client.getServerCapabilities();
    const note = (what: string) => (error: unknown) =>
      this.stderr.note(`could not ${what}: ${this.redact(errorMessage(error))}`);
    if (this.loggingLevel !== undefined && capabilities?.logging) {
      client.setLoggingLevel(this.loggingLevel).catch(note('set the log level'));
    }
    if (!capabilities?.resources?.subscribe) return;
    for (const uri of this.subscriptions) {
      client.subscribeResource({ uri }).catch(note(`subscribe to ${uri}`));
    }
  }

  private requestError(error: unknown, method: string, timeoutMs: number, signal?: AbortSignal): unknown {
    if (signal?.aborted) {
      return new ToolbridgeError('CANCELLED', `The ${method} request to server "${this.id}" was cancelled.`);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolbridgeError(
        'TIMEOUT',
        `Server "${this.id}" did not answer ${method} within ${seconds(timeoutMs)}; it may be hung.`,
        { data: { serverId: this.id, timeoutMs }, cause: error },
      );
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) return error;
    const status = this._config.transport === 'stdio' ? undefined : httpStatusOf(error);
    return new ToolbridgeError(
      'SERVER_UNAVAILABLE',
      `Server "${this.id}" could not answer ${method}${status === undefined ? '' : ` (HTTP ${status})`}: ${this.redact(errorMessage(error))}`,
      { data: { serverId: this.id, ...(status === undefined ? {} : { httpStatus: status }) }, cause: error },
    );
  }

  // --- failures and reconnecting ---------------------------------------------------------------

  private onSessionClosed(session: Session, epoch: number): void {
    // Closing on purpose, an older attempt, or a failure while connecting (connectOnce reports it).
    if (session.closing || !session.established || epoch !== this.epoch || this.closed) return;
    const exit = session.exit?.();
    this.stderr.flush();
    const reason = exit ? describeExit(exit) : 'the connection closed';
    this.stderr.note(`server stopped unexpectedly (${reason})`);
    void this.abandon(session);
    this.reconnectReason = `it stopped unexpectedly (${reason})`;
    this.scheduleRetry(`Server "${this.id}" stopped unexpectedly (${reason}).${this.lastStderrHint()}`);
  }

  private scheduleRetry(lastError: string): void {
    if (this.closed || !this._config.enabled) return;
    const now = this.clock.now();
    if (this.connectedAt !== undefined && now - this.connectedAt >= this.backoff.healthyResetMs)
      this.failures = 0;
    this.connectedAt = undefined;
    const delayMs = backoffDelay(this.failures, this.backoff, this.options.random);
    this.failures++;
    const epoch = this.epoch;
    this.cancelRetry();
    const handle = this.clock.setTimeout(() => {
      if (epoch === this.epoch && !this.closed) void this.attempt();
    }, delayMs);
    this.retryTimer = toDisposable(() => this.clock.clearTimeout(handle));
    this.setState({
      status: 'error',
      lastError: this.redact(lastError),
      crashLooping: this.failures >= this.backoff.crashLoopThreshold,
      nextRetryAt: new Date(now + delayMs).toISOString(),
      pid: undefined,
    });
  }

  private cancelRetry(): void {
    this.retryTimer?.dispose();
    this.retryTimer = undefined;
  }

  // --- calls -----------------------------------------------------------------------------------

  private async readySession(name: string, timeoutMs: number, signal?: AbortSignal): Promise<Session> {
    if (!this.session?.established && this.connecting) {
      // Starting (e.g. right after launch): wait for it within the call's own time budget.
      const aborted = signal
        ? new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
        : undefined;
      await Promise.race([this.connecting, this.sleep(timeoutMs), ...(aborted ? [aborted] : [])]);
      if (signal?.aborted) throw this.cancelled(name);
    }
    const session = this.session;
    if (session?.established && session.client) return session;
    throw this.unavailable(name);
  }

  /** Who a server's request arriving now is for: the latest call in flight, if any. */
  private requestOrigin(signal: AbortSignal): ServerRequestOrigin {
    const call = this.calls.at(-1);
    const signals = call?.signal === undefined ? [signal] : [signal, call.signal];
    return {
      serverId: this.id,
      ...(call === undefined
        ? {}
        : { call: { toolName: call.toolName, ...(call.peer === undefined ? {} : { peer: call.peer }) } }),
      signal: AbortSignal.any(signals),
      note: (line) => this.stderr.note(this.redact(line)),
    };
  }

  private callError(
    error: unknown,
    name: string,
    { timeoutMs, maxTimeoutMs }: { timeoutMs: number; maxTimeoutMs: number },
    session: Session,
    signal?: AbortSignal,
    { retried = false }: { retried?: boolean } = {},
  ): unknown {
    const data = { serverId: this.id, toolName: name };
    if (signal?.aborted) return this.cancelled(name);
    if (
      error instanceof McpError &&
      error.code === ErrorCode.RequestTimeout &&
      (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout !== undefined
    ) {
      return new ToolbridgeError(
        'TIMEOUT',
        `Tool "${name}" on server "${this.id}" kept reporting progress but did not finish within ${seconds(maxTimeoutMs)}, the most a call may run. Raise the maximum call time in Settings if it needs longer.`,
        { data: { ...data, timeoutMs: maxTimeoutMs }, cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolbridgeError(
        'TIMEOUT',
        `Tool "${name}" on server "${this.id}" did not answer within ${seconds(timeoutMs)}; the server may be hung. Try again, raise the call timeout, or restart the server in Servers.`,
        { data: { ...data, timeoutMs }, cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      const exit = session.exit?.();
      return new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Server "${this.id}" stopped while running tool "${name}"${exit ? ` (${describeExit(exit)})` : ''}. It is reconnecting; try again shortly, or check its log in Servers.`,
        { data, cause: error },
      );
    }
    if (
      error instanceof McpError &&
      (error.data as { reason?: unknown } | undefined)?.reason === MESSAGE_TOO_LARGE
    ) {
      return new ToolbridgeError(
        'RESULT_TOO_LARGE',
        `Tool "${name}" on server "${this.id}" answered with too much: ${error.message.replace(/^MCP error -?\d+: /, '')} Ask the tool for less at a time (a narrower query, a page or a range).`,
        { data: { ...data, ...(error.data as JsonObject) }, cause: error },
      );
    }
    if (error instanceof McpError) return error;
    if (this._config.transport !== 'stdio' && isUnauthorized(error)) {
      // The sign-in ran out (refresh refused, token revoked): no retry helps until the user signs in.
      if (session === this.session) {
        void this.abandon(session);
        this.needsAuth();
      }
      return this.unavailable(name);
    }
    const scope = this.stepUpScope(error);
    if (scope !== undefined) {
      if (session === this.session) {
        void this.abandon(session);
        this.needsAuth(scope);
      }
      return new ToolbridgeError(
        'UNAUTHORIZED',
        `Tool "${name}" on server "${this.id}" needs more access than the sign-in granted (the server asks for the scopes ${scope}). The user must sign in to it again to allow that (Sign in in Servers, or manage_connections authorize); then try again.`,
        { data: { ...data, scope } },
      );
    }
    const httpStatus = this._config.transport === 'stdio' ? undefined : httpStatusOf(error);
    if (httpStatus !== undefined) {
      return new ToolbridgeError('SERVER_UNAVAILABLE', this.httpErrorMessage(httpStatus, name, retried), {
        data: { ...data, httpStatus },
        cause: error,
      });
    }
    if (this._config.transport !== 'stdio' && error instanceof TypeError) {
      // fetch failed: the HTTP server went away. Reconnect, and say so.
      if (session === this.session && session.established) {
        void this.abandon(session);
        this.reconnectReason = 'it could not be reached';
        this.scheduleRetry(`Server "${this.id}" could not be reached: ${this.redact(errorMessage(error))}`);
      }
      return new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Server "${this.id}" could not be reached while calling tool "${name}" (${this.redact(errorMessage(error))}). It is reconnecting; try again shortly.`,
        { data, cause: error },
      );
    }
    return new ToolbridgeError(
      'INTERNAL',
      `Server "${this.id}" sent a result for tool "${name}" that is not a valid MCP tool result: ${this.redact(errorMessage(error))}`,
      { data, cause: error },
    );
  }

  /** Names the status and the server, and says what to do; a body the server sent is not quoted (it may echo secrets). */
  private httpErrorMessage(status: number, name: string, retried: boolean): string {
    const answered = `Server "${this.id}" answered HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''} to tool "${name}"`;
    if (status === 404 && retried) {
      return `${answered} again right after Toolbridge re-initialized its session, so the tool did not run; it is not retried further. The server may be restarting or its URL may point to the wrong place: check the URL in Servers, or restart it there.`;
    }
    if (status === 403) {
      return `${answered}: the credentials it was given are not allowed to do this. Check the token or sign-in for this server in Servers (its scopes or permissions), then try again.`;
    }
    if (status >= 500) {
      return `${answered}: the server failed while handling the call, so it may or may not have run. Try again shortly; if it keeps failing, check the server's own status or logs, or restart it in Servers.`;
    }
    return `${answered}: the server refused the request. Check the server's URL and settings in Servers.`;
  }

  /** A Streamable HTTP server that gave us a session answered 404 on it: it lost the session (restarted). */
  private lostSession(error: unknown, session: Session): boolean {
    return httpStatusOf(error) === 404 && session.httpSessionId?.() !== undefined && session.established;
  }

  /** Opens a new session in place of a lost one; concurrent calls on the same lost session share it. */
  private reinitialize(lost: Session): void {
    if (this.session !== lost || this.connecting || this.closed) return;
    this.stderr.note('the server no longer knows this session (HTTP 404); re-initializing');
    this.reconnectReason = 'the server lost the session (HTTP 404 Session not found)';
    lost.closing = true;
    this.session = undefined;
    this.lostSessions.add(lost);
    this.closeLostWhenIdle(lost);
    void this.attempt(true);
  }

  private async tracked<T>(session: Session, request: SessionRequest<T>): Promise<T> {
    session.inFlight++;
    try {
      return await request(session.client!);
    } finally {
      session.inFlight--;
      this.closeLostWhenIdle(session);
    }
  }

  private closeLostWhenIdle(session: Session): void {
    if (session.inFlight > 0 || !this.lostSessions.delete(session)) return;
    void session.store.close();
  }

  /** The reconnect count after a successful connect: bumped when it re-established itself. */
  private countReconnect(): ServerReconnects | undefined {
    const reason = this.reconnectReason;
    this.reconnectReason = undefined;
    const before = this._state.reconnects;
    if (reason === undefined) return before;
    return {
      count: (before?.count ?? 0) + 1,
      lastAt: new Date(this.clock.now()).toISOString(),
      lastReason: reason,
    };
  }

  private unavailable(name: string): ToolbridgeError {
    const { status, lastError, nextRetryAt } = this._state;
    const data = { serverId: this.id, toolName: name, status };
    let advice: string;
    if (status === 'disabled') advice = 'is disabled. Enable it in Servers to use its tools.';
    else if (status === 'needs-auth')
      advice = 'needs you to sign in. Open Servers and authorise it, then try again.';
    else if (status === 'starting') advice = 'is still starting. Try again in a moment.';
    else {
      const retry = nextRetryAt ? ` It retries at ${nextRetryAt}.` : '';
      advice = `is not connected${lastError ? ` (${lastError})` : ''}.${retry} Check its command and log in Servers, or restart it.`;
    }
    return new ToolbridgeError(
      'SERVER_UNAVAILABLE',
      `Cannot call tool "${name}": server "${this.id}" ${advice}`,
      { data },
    );
  }

  /** A 403 `insufficient_scope` a new sign-in can fix: the scopes it would ask for. */
  private stepUpScope(error: unknown): string | undefined {
    if (this._config.transport === 'stdio' || httpStatusOf(error) !== 403) return undefined;
    return this.options.scopeNeeded?.(this._config);
  }

  /** `scope`: a step-up, the scopes the next sign-in asks for. */
  private needsAuth(scope?: string): void {
    const name = this._config.name ?? this.id;
    const lastError =
      scope !== undefined
        ? `Sign in to ${name} again to allow more access (scopes ${scope}): press Sign in (in Servers or Connections). (The server answered 403 insufficient_scope.)`
        : this.options.fetchFor?.(this._config)
          ? `Sign in to ${name}: press Sign in (in Servers or Connections). (The server answered 401 Unauthorized.)`
          : `Server "${this.id}" answered 401 Unauthorized: it needs you to sign in or a valid Authorization header. Add the credentials in Servers, then restart it.`;
    this.cancelRetry();
    this.connectedAt = undefined;
    this.setState({
      status: 'needs-auth',
      pid: undefined,
      nextRetryAt: undefined,
      crashLooping: false,
      lastError,
    });
  }

  private cancelled(name: string): ToolbridgeError {
    return new ToolbridgeError(
      'CANCELLED',
      `The call to tool "${name}" on server "${this.id}" was cancelled.`,
      {
        data: { serverId: this.id, toolName: name },
      },
    );
  }

  // --- helpers ---------------------------------------------------------------------------------

  private setState(patch: Partial<ServerState>): void {
    const next: ServerState = { ...this._state, ...patch, toolCount: this._tools.length };
    for (const key of Object.keys(next) as Array<keyof ServerState>) {
      if (next[key] === undefined) delete next[key];
    }
    this._state = next;
    if (!this.closed) this._onDidChangeState.fire(this.state);
  }

  /** Replaces the tools; true when they differ. */
  private replaceTools(tools: ToolDefinition[]): boolean {
    if (JSON.stringify(tools) === JSON.stringify(this._tools)) return false;
    this._tools = tools;
    return true;
  }

  private setTools(tools: ToolDefinition[]): void {
    if (!this.replaceTools(tools)) return;
    this.setState({});
    if (!this.closed) this._onDidChangeTools.fire(this.tools);
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    if (!session) return;
    await this.abandon(session);
  }

  private async abandon(session: Session): Promise<void> {
    session.closing = true;
    if (this.session === session) this.session = undefined;
    await session.store.close();
  }

  private async shutdown(): Promise<void> {
    this.epoch++;
    this.cancelRetry();
    await Promise.all([...this.lostSessions].map((session) => session.store.close()));
    this.lostSessions.clear();
    await this.closeSession();
    this.closed = true;
  }

  private withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
    let handle: unknown;
    const timer = new Promise<never>((_, reject) => {
      handle = this.clock.setTimeout(() => reject(onTimeout()), ms);
    });
    return Promise.race([promise, timer]).finally(() => this.clock.clearTimeout(handle));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }

  private redact(text: string): string {
    let result = text;
    for (const secret of this.secretValues) result = result.split(secret).join(MASK);
    return this.options.redact ? this.options.redact(result) : result;
  }

  private describeFailure(error: unknown, session: Session): string {
    const exit = session.exit?.();
    if (exit && error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return `it ${describeExit(exit)} while starting.${this.lastStderrHint()}`;
    }
    const code = (error as { code?: unknown }).code;
    const status = typeof code === 'number' && code >= 100 && code < 600 ? `HTTP ${code}: ` : '';
    return `${status}${this.redact(errorMessage(error))}${exit ? this.lastStderrHint() : ''}`;
  }

  private lastStderrHint(): string {
    const last = this.stderr
      .tail()
      .filter((line) => !line.startsWith('[toolbridge]') && line.trim() !== '')
      .at(-1);
    return last ? ` Last stderr line: "${last}"` : '';
  }
}

function toToolDefinition(tool: Tool): ToolDefinition {
  const definition: ToolDefinition = { name: tool.name };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  // Parsed from JSON, so JSON-safe.
  definition.inputSchema = tool.inputSchema as JsonObject;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema as JsonObject;
  if (tool.annotations !== undefined) definition.annotations = { ...tool.annotations };
  if (tool.icons !== undefined) definition.icons = tool.icons.map((icon) => ({ ...icon }));
  if (tool._meta !== undefined) definition._meta = tool._meta as JsonObject;
  if (tool.execution !== undefined) definition.execution = { ...tool.execution };
  return definition;
}

/** The fields that decide how to connect; a change to any of them reconnects. */
function connectionKey(config: ServerConfig): string {
  // Roots are told with roots/list_changed, not by reconnecting.
  const { id: _id, name: _name, enabled: _enabled, trusted: _trusted, roots: _roots, ...rest } = config;
  return JSON.stringify(rest);
}

/** Values the resolver filled in (secrets), plus any Authorization header: masked in stderr and errors. */
function secretValuesOf(stored: ServerConfig, resolved: ServerConfig): string[] {
  const values = new Set<string>();
  const pairs = (config: ServerConfig): Record<string, string> =>
    (config.transport === 'stdio' ? config.env : config.headers) ?? {};
  const before = pairs(stored);
  for (const [name, value] of Object.entries(pairs(resolved))) {
    if (value !== before[name] || name.toLowerCase() === 'authorization') {
      values.add(value);
      const bearer = /^bearer\s+(.+)$/i.exec(value)?.[1];
      if (bearer) values.add(bearer);
    }
  }
  // Very short values would mask ordinary words.
  return [...values].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
}

/** The HTTP status of a transport's failed POST: Streamable HTTP sets `code`, legacy SSE says it in the message. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) {
    return error.code !== undefined && error.code >= 100 && error.code < 600 ? error.code : undefined;
  }
  const match = /\(HTTP (\d{3})\)/.exec(errorMessage(error));
  return match ? Number(match[1]) : undefined;
}

function isUnauthorized(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  if ((error as { code?: unknown }).code === 401) return true;
  return /\bHTTP 401\b/.test(errorMessage(error));
}

function speaksOnlyLegacySse(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

function describeExit(exit: ChildExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
