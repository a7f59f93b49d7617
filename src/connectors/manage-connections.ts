/**
 * `manage_connections` for hosted connectors (reference §4.6): `status` lists the accounts,
 * `connect` and `reconnect` start linking them. Where Toolbridge can show a connection card the
 * tool blocks until every target is connected, skipped or the card's deadline passes, polling
 * each link about once a second, and its answer never carries a link. Without a card it answers
 * at once with the links for the user. It can never disconnect an account.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Event } from '../base/emitter.js';
import { isPlainObject } from '../base/json.js';
import type { ConnectionCardRow } from '../host/api.js';
import type { GatewayClient, GatewayFailure } from './gateway-client.js';
import type { GatewayConnectionRow, GatewayConnectionStart } from './gateway-wire.js';

export const MANAGE_CONNECTIONS_TOOL: Tool = {
  name: 'manage_connections',
  description:
    'Check or connect the remote apps (connectors) whose tools are named connectors__<app>__<tool>, once the user has set up a connector gateway. ' +
    'action "status" lists each app and whether it is connected; "connect" links the apps named in ' +
    '`connectors` (the user approves in Toolbridge); "reconnect" re-links apps that stopped working ' +
    '(with force: true, even ones that look connected). Call it when a tool returns CONNECTION_REQUIRED. ' +
    'For local MCP servers pass targets as {"name": …, "mcp": true}: "install" adds one from the bundled ' +
    'catalog, "enable" turns on a configured one, "authorize" signs in to a remote one (the user approves each).',
  inputSchema: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['status', 'connect', 'reconnect', 'install', 'enable', 'authorize'],
        default: 'status',
      },
      connectors: {
        type: 'array',
        items: {
          anyOf: [
            { type: 'string' },
            {
              type: 'object',
              properties: { name: { type: 'string' }, mcp: { type: 'boolean' } },
              required: ['name'],
              additionalProperties: false,
            },
          ],
        },
        description:
          'App names as in connectors__<app>__…, e.g. ["github", "slack"]; MCP servers as {"name": "memory", "mcp": true}.',
      },
      force: { type: 'boolean', description: 'reconnect only: re-link even apps that look connected.' },
    },
  },
};

export const STATUS_HINT =
  'connected=false means calls to that app return CONNECTION_REQUIRED; call manage_connections with action "connect" to link it.';
export const CARD_RESULT_NOTE =
  'connected: its tools work now. skipped: the user chose not to connect it; do not ask again or work around it. ' +
  'not_connected: it was not linked in time; ask the user whether to try again.';
export const NOT_SET_UP_HINT =
  'Ask the user to set up a connector gateway in Toolbridge under Settings → Connectors (its URL, then Sign in). ' +
  'Local MCP servers need no gateway: install, enable or authorize them with {"name": …, "mcp": true}.';
const SIGN_IN_HINT =
  'Ask the user to sign in to the connector gateway in Toolbridge under Settings → Connectors.';
/** The hosted actions' answer while no connector gateway is configured (reference §4.3 `not_set_up`). */
const NOT_SET_UP_PAYLOAD: Readonly<Record<string, unknown>> = Object.freeze({
  status: 'not_set_up',
  reason: 'not_set_up',
  error: 'Connector accounts are not set up in this Toolbridge: no connector gateway is configured.',
  hint: NOT_SET_UP_HINT,
});
export const LINK_RESULT_NOTE =
  'Show each connect_url to the user and wait until they say they are done, then call manage_connections with ' +
  'action "status". Do not call connect again for these apps.';

/** One open connection card, driven by this tool. The host implements it over its card queue. */
export interface ConnectionCardSession {
  /** Replaces the rows the card shows. */
  update(targets: ConnectionCardRow[]): void;
  /** The user skipped one target. */
  readonly onDidSkip: Event<string>;
  /** The user approved one target that has no sign-in link (adding or enabling an MCP server). */
  readonly onDidConfirm?: Event<string>;
  /** Aborted when the user stops the turn or the card is dismissed: every open target counts as skipped. */
  readonly stopped: AbortSignal;
  /** Closes the card with one line per target. */
  close(summary: string): void;
}

export interface ConnectionCardPort {
  /** Opens a card for one agent; `expiresAt` is the deadline it shows (epoch ms). */
  open(request: { agentId: string; targets: ConnectionCardRow[]; expiresAt: number }): ConnectionCardSession;
}

export interface ManageConnectionsOptions {
  /** Without a base URL (no gateway configured) the hosted actions answer `not_set_up`. */
  client: GatewayClient;
  /** Where cards open; absent means "no card surface": answers carry the links instead. */
  cards?: ConnectionCardPort;
  /** Whether someone can see a card right now (a UI is connected); false answers with links. */
  cardsAvailable?: () => boolean;
  /** Local MCP server actions; absent answers "not available" to install, enable and authorize. */
  mcp?: McpServerActions;
  /** How long a card waits for the user. @defaultValue 300_000 */
  cardTimeoutMs?: number;
  /** Time between status polls of one link. @defaultValue 1_000 */
  pollIntervalMs?: number;
  /** @defaultValue Date.now */
  clock?: () => number;
}

type HostedAction = 'status' | 'connect' | 'reconnect';
export type McpAction = 'install' | 'enable' | 'authorize';
const HOSTED_ACTIONS: readonly string[] = ['status', 'connect', 'reconnect'];
const MCP_ACTIONS: readonly string[] = ['install', 'enable', 'authorize'];
const ALIAS = /^[a-z0-9][a-z0-9-]{0,31}$/;

interface Request {
  action: HostedAction;
  connectors: string[];
  force: boolean;
}

interface McpRequest {
  action: McpAction;
  servers: string[];
}

/** What one MCP action did, as the agent reads it. */
export interface McpActionResult {
  server: string;
  status:
    | 'installed'
    | 'enabled'
    | 'connected'
    | 'initiated'
    | 'skipped'
    | 'not_connected'
    | 'unchanged'
    | 'failed';
  message?: string;
  connect_url?: string;
}

/** Local MCP servers, as the host runs them; every change is approved by the person on a card. */
export interface McpServerActions {
  run(
    action: McpAction,
    server: string,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult>;
  /** Whether the name is a server in the catalog or the configuration (for the mixed-sides hint). */
  knows(name: string): boolean;
}

export type TargetOutcome = 'connected' | 'skipped' | 'not_connected';

/** Builds the direct tool the agent surface lists (`DirectTool` in src/bridge/types.ts). */
export function createManageConnectionsTool(options: ManageConnectionsOptions): {
  tool: Tool;
  call(
    args: Record<string, unknown>,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<CallToolResult>;
} {
  return manageConnectionsTool(new ConnectionManager(options));
}

/** The tool over a manager the caller may share (the connection hold uses the same one). */
export function manageConnectionsTool(
  manager: ConnectionManager,
): ReturnType<typeof createManageConnectionsTool> {
  return {
    tool: MANAGE_CONNECTIONS_TOOL,
    call: async (args, context) => {
      const request = parseRequest(args);
      if ('error' in request) return result({ error: request.error }, true);
      const payload =
        'servers' in request
          ? await manager.mcp(request, context)
          : request.action === 'status'
            ? await manager.status(request.connectors, context.signal)
            : await manager.connect(request, context);
      return result(payload, 'error' in payload);
    },
  };
}

export class ConnectionManager {
  private readonly cardTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: ManageConnectionsOptions) {
    this.cardTimeoutMs = options.cardTimeoutMs ?? 300_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether a card can open now: a card port and someone to see it. */
  get canShowCards(): boolean {
    return this.options.cards !== undefined && this.options.cardsAvailable?.() !== false;
  }

  /** Opens a card for one connector and waits until it settles (for a held tool_call entry). */
  async connectOne(
    connector: string,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<TargetOutcome> {
    const payload = await this.connect({ action: 'connect', connectors: [connector], force: false }, context);
    const results = payload.results as Array<{ status: string }> | undefined;
    const status = results?.[0]?.status;
    return status === 'connected' || status === 'skipped' ? status : 'not_connected';
  }

  async mcp(
    request: McpRequest,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<Record<string, unknown>> {
    const actions = this.options.mcp;
    if (actions === undefined) {
      return { error: `manage_connections: "${request.action}" is not available in this Toolbridge.` };
    }
    const results: McpActionResult[] = [];
    for (const server of request.servers) results.push(await actions.run(request.action, server, context));
    return { results };
  }

  async status(filter: readonly string[], signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    if (!this.options.client.configured) return NOT_SET_UP_PAYLOAD;
    const listed = await this.options.client.listConnections(signal === undefined ? {} : { signal });
    if (!listed.ok) return failurePayload(listed.failure);
    const rows =
      filter.length === 0
        ? listed.value
        : listed.value.filter((row) => filter.includes(row.connector.toLowerCase()));
    return { connectors: rows.map(statusRow), hint: STATUS_HINT };
  }

  async connect(
    request: Request,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<Record<string, unknown>> {
    if (!this.options.client.configured) return NOT_SET_UP_PAYLOAD;
    const signal = context.signal === undefined ? {} : { signal: context.signal };
    let targets = request.connectors;
    const already: string[] = [];
    if (request.action === 'reconnect' && !request.force) {
      // Only re-link what is not working; a forced reconnect re-links everything named.
      const listed = await this.options.client.listConnections(signal);
      if (!listed.ok) return failurePayload(listed.failure);
      const connected = new Set(
        listed.value.filter((row) => row.connected).map((row) => row.connector.toLowerCase()),
      );
      already.push(...targets.filter((name) => connected.has(name)));
      targets = targets.filter((name) => !connected.has(name));
    }
    let starts: GatewayConnectionStart[] = [];
    if (targets.length > 0) {
      const started = await this.options.client.initiateConnections(targets, {
        reinitiate: request.action === 'reconnect',
        ...signal,
      });
      if (!started.ok) return failurePayload(started.failure);
      starts = started.value;
    }
    const byName = new Map(starts.map((start) => [start.connector.toLowerCase(), start]));
    const rows = [...already.map((name): GatewayConnectionStart => ({ connector: name, status: 'active' }))];
    for (const name of targets) {
      const start = byName.get(name) ?? {
        connector: name,
        status: 'failed' as const,
        message: 'The gateway did not answer for this app.',
      };
      if (start.status === 'failed' && this.options.mcp?.knows(name)) {
        start.message = `"${name}" is a local MCP server, not a connector app: call install (or enable) with {"name": "${name}", "mcp": true}.`;
      }
      rows.push(start);
    }
    if (this.options.cards === undefined || !this.canShowCards) return linkPayload(rows);
    return this.waitOnCard(rows, this.options.cards, context);
  }

  /** Opens the card, polls every link until each target settles or the deadline passes. */
  private async waitOnCard(
    starts: GatewayConnectionStart[],
    cards: ConnectionCardPort,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<Record<string, unknown>> {
    const deadline = this.clock() + this.cardTimeoutMs;
    const rows = new Map<string, ConnectionCardRow>(starts.map((start) => [start.connector, cardRow(start)]));
    const outcomes = new Map<string, TargetOutcome>();
    for (const start of starts) {
      if (start.status === 'active') outcomes.set(start.connector, 'connected');
    }
    const pending = () => starts.filter((start) => !outcomes.has(start.connector));
    if (pending().length === 0) return cardPayload(starts, outcomes);

    const card = cards.open({ agentId: context.agentId, targets: [...rows.values()], expiresAt: deadline });
    const skip = (name: string) => {
      if (outcomes.has(name)) return;
      outcomes.set(name, 'skipped');
      rows.set(name, { ...rows.get(name)!, state: 'skipped' });
      card.update([...rows.values()]);
    };
    const subscription = card.onDidSkip(skip);
    let parkedUntil = 0;
    try {
      while (pending().length > 0 && this.clock() < deadline) {
        if (card.stopped.aborted || context.signal?.aborted) {
          for (const start of pending()) skip(start.connector);
          break;
        }
        const wait = Math.max(this.pollIntervalMs, parkedUntil - this.clock());
        await sleep(Math.min(wait, deadline - this.clock()), [card.stopped, context.signal]);
        if (card.stopped.aborted || context.signal?.aborted) continue;
        for (const start of pending()) {
          if (start.connectionId === undefined || start.status === 'failed') continue;
          const polled = await this.options.client.connectionStatus(start.connectionId);
          if (!polled.ok) {
            // 429 parks every target for the time the gateway asks; other failures just retry next round.
            if (polled.failure.status === 429) {
              parkedUntil = this.clock() + (polled.failure.retryAfterMs ?? this.pollIntervalMs);
              break;
            }
            continue;
          }
          if (outcomes.has(start.connector)) continue;
          const row = polled.value;
          if (row.connected) {
            outcomes.set(start.connector, 'connected');
            rows.set(start.connector, { ...rows.get(start.connector)!, state: 'connected' });
            card.update([...rows.values()]);
          } else if (row.connectionStatus === 'failed' || row.connectionStatus === 'expired') {
            rows.set(start.connector, {
              ...rows.get(start.connector)!,
              state: 'failed',
              message: row.statusReason ?? `The link ${row.connectionStatus}.`,
            });
            card.update([...rows.values()]);
          }
        }
      }
    } finally {
      subscription.dispose();
    }
    const payload = cardPayload(starts, outcomes);
    card.close(
      (payload.results as Array<{ connector: string; status: string }>)
        .map((item) => `${item.connector}: ${item.status.replace('_', ' ')}`)
        .join('\n'),
    );
    return payload;
  }
}

function parseRequest(args: Record<string, unknown>): Request | McpRequest | { error: string } {
  const action = args.action ?? 'status';
  if (typeof action !== 'string' || (!HOSTED_ACTIONS.includes(action) && !MCP_ACTIONS.includes(action))) {
    return {
      error: `manage_connections: unknown action ${JSON.stringify(action)}; use status, connect, reconnect, install, enable or authorize.`,
    };
  }
  const raw = args.connectors;
  const list = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  const targets: Array<{ name: string; mcp: boolean }> = [];
  for (const item of list) {
    const target = parseTarget(item);
    if ('error' in target) return target;
    if (target.name !== '' && !targets.some((seen) => seen.name === target.name)) targets.push(target);
  }
  const mcp = targets.filter((target) => target.mcp).map((target) => target.name);
  const hosted = targets.filter((target) => !target.mcp).map((target) => target.name);
  if (mcp.length > 0 && hosted.length > 0) {
    return {
      error: `manage_connections: one call is either connector apps or MCP servers; call again separately for ${mcp.join(', ')} (mcp: true) and ${hosted.join(', ')}.`,
    };
  }
  if (MCP_ACTIONS.includes(action)) {
    if (hosted.length > 0) {
      return {
        error: `manage_connections: "${action}" is for local MCP servers; pass {"name": "${hosted[0]}", "mcp": true}, or use connect for a connector app.`,
      };
    }
    if (mcp.length === 0)
      return { error: `manage_connections: action "${action}" needs at least one MCP server.` };
    return { action: action as McpAction, servers: mcp };
  }
  if (mcp.length > 0) {
    const hint =
      action === 'status' ? 'the Servers view lists them' : `use install, enable or authorize with mcp: true`;
    return {
      error: `manage_connections: "${action}" is for connector apps, not MCP servers (${mcp.join(', ')}); ${hint}.`,
    };
  }
  if (action !== 'status' && hosted.length === 0) {
    return { error: `manage_connections: action "${action}" needs at least one app in connectors.` };
  }
  return { action: action as HostedAction, connectors: hosted, force: args.force === true };
}

/** One target: a bare name, or `{name, mcp?, alias?, to?}`; transport, URLs and credentials never come from the call. */
function parseTarget(item: unknown): { name: string; mcp: boolean } | { error: string } {
  if (typeof item === 'string') return { name: item.trim().toLowerCase(), mcp: false };
  if (!isPlainObject(item) || typeof item.name !== 'string') {
    return {
      error:
        'manage_connections: connectors must be app names, e.g. ["github"], or {"name": …, "mcp": true}.',
    };
  }
  const unknown = Object.keys(item).filter((key) => !['name', 'mcp', 'alias', 'to'].includes(key));
  if (unknown.length > 0) {
    return {
      error: `manage_connections: unknown target field(s) ${unknown.join(', ')}; a server's command, URL and credentials come from the catalog, never from the call.`,
    };
  }
  if (item.mcp !== undefined && typeof item.mcp !== 'boolean') {
    return { error: 'manage_connections: mcp must be true or false.' };
  }
  const mcp = item.mcp === true;
  if (item.alias !== undefined || item.to !== undefined) {
    if (mcp) return { error: 'manage_connections: an MCP server target takes no alias or to.' };
    if (typeof item.alias === 'string' && !ALIAS.test(item.alias)) {
      return {
        error:
          'manage_connections: an alias is 1–32 lower-case letters, digits or "-", starting with a letter or digit.',
      };
    }
    return {
      error:
        'manage_connections: Toolbridge links one account per app; alias and to (rename) are not supported.',
    };
  }
  return { name: item.name.trim().toLowerCase(), mcp };
}

function statusRow(row: GatewayConnectionRow): Record<string, unknown> {
  return {
    connector: row.connector,
    enabled: row.enabled,
    connected: row.connected,
    ...(row.connectionStatus === undefined ? {} : { connectionStatus: row.connectionStatus }),
    ...(row.statusReason === undefined ? {} : { statusReason: row.statusReason }),
    ...(row.account === undefined ? {} : { account: row.account }),
    disabledTools: row.disabledTools,
  };
}

function cardRow(start: GatewayConnectionStart): ConnectionCardRow {
  const row: ConnectionCardRow = {
    name: start.connector,
    kind: 'connector',
    state: start.status === 'active' ? 'connected' : start.status === 'initiated' ? 'initiated' : 'failed',
  };
  if (start.connectUrl !== undefined) row.connectUrl = start.connectUrl;
  if (start.message !== undefined) row.message = start.message;
  return row;
}

function cardPayload(
  starts: GatewayConnectionStart[],
  outcomes: Map<string, TargetOutcome>,
): Record<string, unknown> {
  return {
    results: starts.map((start) => ({
      connector: start.connector,
      status: outcomes.get(start.connector) ?? 'not_connected',
    })),
    note: CARD_RESULT_NOTE,
  };
}

function linkPayload(starts: GatewayConnectionStart[]): Record<string, unknown> {
  return {
    results: starts.map((start) => ({
      connector: start.connector,
      status: start.status === 'active' ? 'connected' : start.status,
      ...(start.connectUrl === undefined ? {} : { connect_url: start.connectUrl }),
      ...(start.connectionId === undefined ? {} : { connection_id: start.connectionId }),
      ...(start.message === undefined ? {} : { message: start.message }),
    })),
    note: LINK_RESULT_NOTE,
  };
}

function failurePayload(failure: GatewayFailure): Record<string, unknown> {
  if (failure.kind === 'not_set_up') {
    return { status: 'not_set_up', reason: failure.kind, error: failure.message, hint: SIGN_IN_HINT };
  }
  const error =
    failure.kind === 'dark'
      ? `Connectors are not available: ${failure.message}`
      : `The connector gateway request failed: ${failure.message} The user can manage connections in Toolbridge.`;
  return { error, reason: failure.kind };
}

function result(payload: object, isError: boolean): CallToolResult {
  const value: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(payload) }] };
  if (isError) value.isError = true;
  return value;
}

/** Waits, or less when any signal aborts. */
function sleep(ms: number, signals: ReadonlyArray<AbortSignal | undefined>): Promise<void> {
  return new Promise((resolve) => {
    const live = signals.filter((s): s is AbortSignal => s !== undefined);
    const done = () => {
      clearTimeout(timer);
      for (const s of live) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of live) s.addEventListener('abort', done, { once: true });
  });
}
