/**
 * Owns every server connection, keyed by id, in creation order. It adds, updates, removes,
 * starts and stops them, reports status and tool changes as events, answers `snapshot()` and
 * routes tool calls. Per-tool switches, pins and policies are settings the catalog and approvals
 * apply; the manager only exposes what each server offers. `close()` stops all servers at once.
 */
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import { type AsyncDisposable, DisposableStore } from '../base/lifecycle.js';
import { isValidServerId, toServerId } from '../base/server-id.js';
import type { ToolExecutor } from '../bridge/types.js';
import type { ServerTools, ToolDefinition } from '../catalog/types.js';
import { killNow } from './process-reaper.js';
import { type CallToolOptions, ServerConnection, type ServerConnectionOptions } from './server-connection.js';
import type { ServerConfig, ServerSnapshot, ServerState, UpstreamNotification } from './types.js';

export interface ServerStatusChange {
  id: string;
  state: ServerState;
}

/** A notification one server sent for agents (see UpstreamNotification). */
export interface ServerNotification {
  id: string;
  notification: UpstreamNotification;
}

export interface ServerToolsChange {
  id: string;
  tools: ToolDefinition[];
}

/** Options every connection gets (timeouts, secrets resolver, redaction, backoff, …). */
export type ServerManagerOptions = ServerConnectionOptions;

interface Entry {
  connection: ServerConnection;
  store: DisposableStore;
}

export class ServerManager implements AsyncDisposable {
  private readonly store = new DisposableStore();
  private readonly _onDidChangeStatus = this.store.add(new Emitter<ServerStatusChange>());
  /** A server's status, last error, tool count or retry plan changed. */
  readonly onDidChangeStatus: Event<ServerStatusChange> = this._onDidChangeStatus.event;
  private readonly _onDidChangeTools = this.store.add(new Emitter<ServerToolsChange>());
  /** A server's tool list changed (on connect, list_changed, stop, removal: then `[]`). */
  readonly onDidChangeTools: Event<ServerToolsChange> = this._onDidChangeTools.event;
  private readonly _onDidNotify = this.store.add(new Emitter<ServerNotification>());
  /** A server announced resource or prompt changes, or sent a log message. */
  readonly onDidNotify: Event<ServerNotification> = this._onDidNotify.event;
  private readonly _onDidRemove = this.store.add(new Emitter<{ id: string }>());
  readonly onDidRemove: Event<{ id: string }> = this._onDidRemove.event;

  private readonly entries = new Map<string, Entry>();
  /** Server id → pid (its process group) while it runs, for killAllNow; outlives closeAll's clear. */
  private readonly pids = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: ServerManagerOptions = {}) {
    this.store.add({ close: () => this.closeAll() });
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Ids in creation order. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Adds a server and, unless `start: false`, connects it if enabled; resolves after that first
   * attempt (see the snapshot's status). Throws `INVALID_ARGUMENT` for a bad or taken id.
   */
  async add(config: ServerConfig, options: { start?: boolean } = {}): Promise<ServerSnapshot> {
    this.checkOpen();
    this.checkNewId(config.id);
    this.insert(config);
    if (options.start !== false) await this.require(config.id).connection.start();
    return this.snapshotOf(config.id);
  }

  /** Connects every enabled server that is not connected yet, in parallel. */
  async startAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.connection.start()));
  }

  /**
   * Replaces a server's config. The same id reconnects only when how it connects changed; a new
   * id (a rename) closes the old connection and opens the new one in the same place.
   */
  async update(id: string, config: ServerConfig): Promise<ServerSnapshot> {
    this.checkOpen();
    const entry = this.require(id);
    if (config.id === id) {
      await entry.connection.update(config);
      return this.snapshotOf(id);
    }
    this.checkNewId(config.id);
    const order = this.ids();
    await this.remove(id);
    this.insert(config);
    // Keep the old place: rebuild the map order around the new id.
    const entries = new Map(this.entries);
    this.entries.clear();
    for (const key of order) {
      const current = key === id ? config.id : key;
      const value = entries.get(current);
      if (value) this.entries.set(current, value);
    }
    await this.require(config.id).connection.start();
    return this.snapshotOf(config.id);
  }

  /** Stops and forgets a server; its tools go with it. */
  async remove(id: string): Promise<void> {
    const entry = this.require(id);
    this.entries.delete(id);
    const hadTools = entry.connection.tools.length > 0;
    await entry.store.close();
    if (hadTools) this._onDidChangeTools.fire({ id, tools: [] });
    this._onDidRemove.fire({ id });
  }

  async start(id: string): Promise<ServerSnapshot> {
    await this.require(id).connection.start();
    return this.snapshotOf(id);
  }

  /** Disconnects until `start`; the config (and its enabled flag) stays as it is. */
  async stop(id: string): Promise<ServerSnapshot> {
    await this.require(id).connection.stop();
    return this.snapshotOf(id);
  }

  async restart(id: string): Promise<ServerSnapshot> {
    await this.require(id).connection.restart();
    return this.snapshotOf(id);
  }

  async enable(id: string): Promise<ServerSnapshot> {
    return this.update(id, { ...this.require(id).connection.config, enabled: true });
  }

  async disable(id: string): Promise<ServerSnapshot> {
    return this.update(id, { ...this.require(id).connection.config, enabled: false });
  }

  snapshot(): ServerSnapshot[] {
    return this.ids().map((id) => this.snapshotOf(id));
  }

  snapshotOf(id: string): ServerSnapshot {
    const { connection } = this.require(id);
    const features = connection.features;
    return {
      id,
      config: connection.config,
      ...connection.state,
      tools: connection.tools,
      stderrTail: connection.stderrTail,
      ...(features === undefined ? {} : { features }),
    };
  }

  /** See `ServerConnection.request`. Throws `NOT_FOUND` for an unknown server. */
  request<T extends AnySchema>(
    serverId: string,
    method: string,
    params: Record<string, unknown> | undefined,
    schema: T,
    options?: CallToolOptions,
  ): Promise<SchemaOutput<T>> {
    return this.require(serverId).connection.request(method, params, schema, options);
  }

  /** Every server's log level, now and after reconnects (logging/setLevel fans out). */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    await Promise.allSettled(
      [...this.entries.values()].map((entry) => entry.connection.setLoggingLevel(level)),
    );
  }

  subscribe(serverId: string, uri: string): Promise<void> {
    return this.require(serverId).connection.subscribe(uri);
  }

  unsubscribe(serverId: string, uri: string): Promise<void> {
    return this.require(serverId).connection.unsubscribe(uri);
  }

  /** What every server offers now, in server order (the catalog's input). */
  tools(): ServerTools[] {
    return [...this.entries].map(([serverId, entry]) => ({ serverId, tools: entry.connection.tools }));
  }

  /** See `ServerConnection.callTool`. Throws `NOT_FOUND` for an unknown server. */
  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown> | undefined,
    options?: CallToolOptions,
  ): Promise<CallToolResult> {
    return this.require(serverId).connection.callTool(toolName, args, options);
  }

  /**
   * The bridge's executor for local tools: each call goes to its server with the call timeouts
   * now, the calling agent as the peer the server may ask things, and its progress listener.
   */
  toolExecutor(timeouts: () => { callTimeoutMs: number; maxCallTimeoutMs: number }): ToolExecutor {
    return {
      callTool: (entry, args, context) => {
        const { callTimeoutMs, maxCallTimeoutMs } = timeouts();
        return this.callTool(entry.serverId, entry.toolName, args, {
          ...(context.signal === undefined ? {} : { signal: context.signal }),
          ...(context.peer === undefined ? {} : { peer: context.peer }),
          ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
          timeoutMs: callTimeoutMs,
          maxTimeoutMs: maxCallTimeoutMs,
        });
      },
    };
  }

  /** Tells every connected server its roots changed (an agent said its own did). */
  notifyRootsChanged(): void {
    for (const entry of this.entries.values()) entry.connection.notifyRootsChanged();
  }

  /**
   * SIGKILLs every server process group, and what left one, at once. For a second Ctrl-C, or an agent that is about
   * to kill us: better than leaving servers running after we are gone.
   */
  killAllNow(): void {
    // The leases' tokens also reach descendants that left their server's group (setsid).
    killNow({ groups: [...this.pids.values()], tokens: this.options.leases?.tokens() ?? [] });
  }

  /** Closes every server at once, so shutdown takes one stop grace period, not one per server. */
  close(): Promise<void> {
    return this.store.close();
  }

  private insert(config: ServerConfig): void {
    const store = new DisposableStore();
    const connection = new ServerConnection(config, this.options);
    store.add(connection);
    store.add(
      connection.onDidChangeState((state) => {
        if (state.pid === undefined) this.pids.delete(config.id);
        else this.pids.set(config.id, state.pid);
        this._onDidChangeStatus.fire({ id: config.id, state });
      }),
    );
    store.add(connection.onDidChangeTools((tools) => this._onDidChangeTools.fire({ id: config.id, tools })));
    store.add(
      connection.onDidNotify((notification) => this._onDidNotify.fire({ id: config.id, notification })),
    );
    this.entries.set(config.id, { connection, store });
  }

  private async closeAll(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => entry.store.close()));
  }

  private require(id: string): Entry {
    const entry = this.entries.get(id);
    if (entry) return entry;
    const known = this.ids();
    throw new ToolbridgeError(
      'NOT_FOUND',
      `No server "${id}".${known.length > 0 ? ` Known servers: ${known.join(', ')}.` : ' No servers are configured.'}`,
      { data: { serverId: id } },
    );
  }

  private checkNewId(id: string): void {
    if (!isValidServerId(id)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Server id "${id}" may only hold lower-case letters, digits, "_" and "-"; use "${toServerId(id)}" instead.`,
      );
    }
    if (this.entries.has(id)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `A server with id "${id}" already exists; choose another id.`,
      );
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new ToolbridgeError('INTERNAL', 'The server manager is closed.');
  }
}
