/**
 * `manage_connections` (reference §4.6): `status` lists each app's accounts, `connect` and
 * `reconnect` start linking them, `rename` changes an account's alias; install, enable and
 * authorize go to the local MCP server actions. Where Toolbridge can show a connection card the
 * tool blocks until every target is connected, skipped or the card's deadline passes, polling
 * each link about once a second, and its answer never carries a link. Without a card it answers
 * at once with the links for the user. It can never disconnect an account.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Event } from '../base/emitter.js';
import { isPlainObject } from '../base/json.js';
import { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE } from '../catalog/connector-names.js';
import type { GatewayClient, GatewayFailure, GatewayResult } from './gateway-client.js';
import type { ConnectionTarget, GatewayConnectionRow, GatewayConnectionStart } from './gateway-wire.js';

export interface ConnectionCardRow {
  name: string;
  kind: 'connector' | 'mcp';
  /** Which account of the app, when the agent named one (several accounts per app). */
  alias?: string;
  state: 'pending' | 'initiated' | 'connected' | 'skipped' | 'failed';
  connectUrl?: string;
  message?: string;
  /** Connector apps: the app's proper name and logo (filled in by the host for the UI). */
  app?: AppView;
}

/** A connector app as cards name it: its proper name, and its logo where `simple-icons` has one. */
export interface AppView {
  title: string;
  /** One SVG path on a 24×24 view box, and the brand's colour (hex, no `#`). */
  logo?: { path: string; hex: string };
}

export const MANAGE_CONNECTIONS_TOOL: Tool = {
  name: 'manage_connections',
  description:
    'Check or connect the remote apps (connectors) whose tools are named connectors__<app>__<tool>, once the user has set up a connector gateway. ' +
    'action "status" lists each app with its accounts and whether they are connected; "connect" links the apps named in ' +
    '`connectors` (the user approves in Toolbridge); "reconnect" re-links apps that stopped working ' +
    '(with force: true, even ones that look connected). Call it when a tool returns CONNECTION_REQUIRED. ' +
    'An app may have several accounts, each under an alias: connect {"name": "github", "alias": "work"} links one more, ' +
    'rename {"name": "github", "alias": "work", "to": "acme"} renames one (one target per aliased call), and a tool_call ' +
    'entry with "account": "work" runs under it (without account, the default account). ' +
    'For local MCP servers pass targets as {"name": …, "mcp": true}: "install" adds one from the bundled ' +
    'catalog, "enable" turns on a configured one, "authorize" signs in to a remote one (the user approves each).',
  inputSchema: {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['status', 'connect', 'reconnect', 'rename', 'install', 'enable', 'authorize'],
        default: 'status',
      },
      connectors: {
        type: 'array',
        items: {
          anyOf: [
            { type: 'string' },
            {
              type: 'object',
              properties: {
                name: { type: 'string' },
                mcp: { type: 'boolean' },
                alias: {
                  type: 'string',
                  description: 'connect, reconnect, rename: which account of the app.',
                },
                to: { type: 'string', description: 'rename only: the new alias.' },
              },
              required: ['name'],
              additionalProperties: false,
            },
          ],
        },
        description:
          'App names as in connectors__<app>__…, e.g. ["github", "slack"]; one account as {"name": "github", "alias": "work"}; MCP servers as {"name": "memory", "mcp": true}.',
      },
      force: { type: 'boolean', description: 'reconnect only: re-link even apps that look connected.' },
    },
  },
};

export const STATUS_HINT =
  'connected=false means calls to that app return CONNECTION_REQUIRED; call manage_connections with action "connect" to link it. ' +
  'connected describes the default account, which tool_call uses unless an entry names another by its alias ("account": "work").';
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

/** Who a connection card is for: the agent, and the tool_call entry it holds when one waits on it. */
export interface ConnectionContext {
  agentId: string;
  signal?: AbortSignal;
  /** The held tool_call entry (its call record id and input index); the UI shows the card inside that call's card. */
  call?: { id: string; index: number };
  /** The tool that waits for the connection, named on the card. */
  forTool?: string;
}

export interface ConnectionCardPort {
  /** Opens a card for one agent; `expiresAt` is the deadline it shows (epoch ms). */
  open(request: {
    agentId: string;
    targets: ConnectionCardRow[];
    expiresAt: number;
    call?: { id: string; index: number };
    forTool?: string;
  }): ConnectionCardSession;
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

type HostedAction = 'status' | 'connect' | 'reconnect' | 'rename';
export type McpAction = 'install' | 'enable' | 'authorize';
const HOSTED_ACTIONS: readonly string[] = ['status', 'connect', 'reconnect', 'rename'];
const MCP_ACTIONS: readonly string[] = ['install', 'enable', 'authorize'];

interface ConnectRequest {
  action: 'connect' | 'reconnect';
  targets: ConnectionTarget[];
  force: boolean;
}

type HostedRequest =
  | { action: 'status'; connectors: string[] }
  | ConnectRequest
  | { action: 'rename'; connector: string; alias: string; to: string };

/** One parsed entry of `connectors`. */
interface Target {
  name: string;
  mcp: boolean;
  alias?: string;
  to?: string;
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

/** A link's state as `status` reports it: the gateway's, or what the person did on a card. */
export type LinkStatus = GatewayConnectionRow['connectionStatus'] | Exclude<TargetOutcome, 'connected'>;

/** One account as `status` reports it. */
export interface AccountStatus {
  alias: string;
  default: boolean;
  connected: boolean;
  connectionStatus?: LinkStatus;
  statusReason?: string;
}

/** One app as `status` reports it; its own link fields are its default account's. */
export interface AppStatus {
  connector: string;
  enabled: boolean;
  connected: boolean;
  connectionStatus?: LinkStatus;
  statusReason?: string;
  accounts: AccountStatus[];
  disabledTools: string[];
}

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
            : request.action === 'rename'
              ? await manager.rename(request, context.signal)
              : await manager.connect(request, context);
      return result(payload, 'error' in payload);
    },
  };
}

export class ConnectionManager {
  private readonly cardTimeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly clock: () => number;
  /**
   * Links the person skipped (or let time out) on a card, by `connector alias`: the gateway still
   * calls such a link pending ("waiting for the user to allow access"), which would tell the agent
   * to wait for something nobody is going to do. Cleared when a link for it starts again.
   */
  private readonly abandoned = new Map<string, Exclude<TargetOutcome, 'connected'>>();
  /** An account got linked (`connector alias`): every card waiting for the same one counts it connected. */
  private readonly _onDidLink = new Emitter<string>();
  private readonly _onDidChangeConnections = new Emitter<string>();
  /**
   * An app's accounts changed as far as Toolbridge saw (linked, skipped or failed on a card or in
   * the Connections view, renamed): the connector's name, for the UI to list them again.
   */
  readonly onDidChangeConnections: Event<string> = this._onDidChangeConnections.event;
  /** Links the person started in the Connections view, watched by connection id until they settle. */
  private readonly watched = new Set<string>();
  private readonly lifetime = new AbortController();

  constructor(private readonly options: ManageConnectionsOptions) {
    this.cardTimeoutMs = options.cardTimeoutMs ?? 300_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether a card can open now: a card port and someone to see it. */
  get canShowCards(): boolean {
    return this.options.cards !== undefined && this.options.cardsAvailable?.() !== false;
  }

  /** Opens a card for one account (the default one without an alias) and waits until it settles (for a held tool_call entry). */
  async connectOne(target: ConnectionTarget, context: ConnectionContext): Promise<TargetOutcome> {
    const payload = await this.connect({ action: 'connect', targets: [target], force: false }, context);
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
    return { connectors: rows.map((row) => statusRow(row, this.abandoned)), hint: STATUS_HINT };
  }

  /** Every app and its accounts as `status` reports them (skipped links said so), for the Connections view. */
  async apps(signal?: AbortSignal): Promise<GatewayResult<AppStatus[]>> {
    const listed = await this.options.client.listConnections(signal === undefined ? {} : { signal });
    if (!listed.ok) return listed;
    return { ok: true, value: listed.value.map((row) => statusRow(row, this.abandoned)) };
  }

  /**
   * Starts linking one account for the person (the Connections view) with the request `connect`
   * sends, and answers at once with the gateway's start (its page to open). The link is then
   * watched like a card's: once it is connected every card waiting for the same account counts it
   * connected, and `onDidChangeConnections` tells the view.
   */
  async linkForPerson(
    target: ConnectionTarget,
    reinitiate: boolean,
  ): Promise<GatewayResult<GatewayConnectionStart | undefined>> {
    this.abandoned.delete(linkKey(target.connector, target.alias));
    const started = await this.options.client.initiateConnections([target], { reinitiate });
    if (!started.ok) return started;
    const start = started.value.find((row) => row.connector.toLowerCase() === target.connector);
    if (start?.status === 'active') this._onDidLink.fire(linkKey(target.connector, target.alias));
    if (start?.status === 'initiated' && start.connectionId !== undefined)
      this.watch(target, start.connectionId);
    this._onDidChangeConnections.fire(target.connector);
    return { ok: true, value: start };
  }

  /** Stops watching links; the host calls it when it closes or rebuilds the gateway's parts. */
  dispose(): void {
    this.lifetime.abort();
  }

  /** Polls one link started from the view until it connects, fails or the card timeout passes. */
  private watch(target: ConnectionTarget, connectionId: string): void {
    if (this.watched.has(connectionId)) return;
    this.watched.add(connectionId);
    const deadline = this.clock() + this.cardTimeoutMs;
    const signal = this.lifetime.signal;
    void (async () => {
      let wait = this.pollIntervalMs;
      while (!signal.aborted && this.clock() < deadline) {
        await sleep(wait, [signal]);
        if (signal.aborted) break;
        const polled = await this.options.client
          .connectionStatus(connectionId, { signal })
          .catch(() => undefined);
        if (polled === undefined || !polled.ok) {
          wait =
            polled?.ok === false && polled.failure.status === 429
              ? (polled.failure.retryAfterMs ?? this.pollIntervalMs)
              : this.pollIntervalMs;
          continue;
        }
        wait = this.pollIntervalMs;
        const status = polled.value.connectionStatus;
        if (polled.value.connected) this._onDidLink.fire(linkKey(target.connector, target.alias));
        if (polled.value.connected || status === 'failed' || status === 'expired') {
          this._onDidChangeConnections.fire(target.connector);
          break;
        }
      }
      this.watched.delete(connectionId);
    })();
  }

  async connect(request: ConnectRequest, context: ConnectionContext): Promise<Record<string, unknown>> {
    if (!this.options.client.configured) return NOT_SET_UP_PAYLOAD;
    const signal = context.signal === undefined ? {} : { signal: context.signal };
    let targets = request.targets;
    const rows: GatewayConnectionStart[] = [];
    if (request.action === 'reconnect' && !request.force) {
      // Only re-link what is not working; a forced reconnect re-links everything named.
      const listed = await this.options.client.listConnections(signal);
      if (!listed.ok) return failurePayload(listed.failure);
      const left: ConnectionTarget[] = [];
      for (const target of targets) {
        const row = findRow(listed.value, target.connector);
        const account =
          target.alias === undefined ? undefined : row?.accounts.find((item) => item.alias === target.alias);
        if (target.alias !== undefined && account === undefined) {
          return {
            error: `${unknownAccount(target.connector, target.alias, row)} Call connect to link a new account under this alias.`,
          };
        }
        if ((account ?? row)?.connected) rows.push({ ...target, status: 'active' });
        else left.push(target);
      }
      targets = left;
    }
    let starts: GatewayConnectionStart[] = [];
    for (const target of targets) this.abandoned.delete(linkKey(target.connector, target.alias));
    if (targets.length > 0) {
      const started = await this.options.client.initiateConnections(targets, {
        reinitiate: request.action === 'reconnect',
        ...signal,
      });
      if (!started.ok) return failurePayload(started.failure);
      starts = started.value;
    }
    const byName = new Map(starts.map((start) => [start.connector.toLowerCase(), start]));
    for (const target of targets) {
      const name = target.connector;
      // `alias` in these rows is the one the call named; the gateway's name for a default account stays out.
      const { alias: _named, ...start } = byName.get(name) ?? {
        connector: name,
        status: 'failed' as const,
        message: 'The gateway did not answer for this app.',
      };
      if (start.status === 'failed' && this.options.mcp?.knows(name)) {
        start.message = `"${name}" is a local MCP server, not a connector app: call install (or enable) with {"name": "${name}", "mcp": true}.`;
      }
      rows.push(target.alias === undefined ? start : { ...start, alias: target.alias });
    }
    if (this.options.cards === undefined || !this.canShowCards) return linkPayload(rows);
    return this.waitOnCard(rows, this.options.cards, context);
  }

  /** Renames one account: checked against the list first, so a refusal names the aliases there are. */
  async rename(
    request: { connector: string; alias: string; to: string },
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    if (!this.options.client.configured) return NOT_SET_UP_PAYLOAD;
    const { connector, alias, to } = request;
    const options = signal === undefined ? {} : { signal };
    const listed = await this.options.client.listConnections(options);
    if (!listed.ok) return failurePayload(listed.failure);
    const row = findRow(listed.value, connector);
    if (row === undefined) {
      const local = this.options.mcp?.knows(connector)
        ? ' It is a local MCP server; those have no accounts.'
        : '';
      return {
        error: `manage_connections: there is no connector app "${connector}" on the gateway.${local}`,
      };
    }
    if (!row.accounts.some((account) => account.alias === alias)) {
      return { error: unknownAccount(connector, alias, row) };
    }
    if (alias !== to && row.accounts.some((account) => account.alias === to)) {
      return {
        error: `manage_connections: ${connector} already has an account "${to}"; pick another alias.`,
      };
    }
    const renamed = await this.options.client.renameAccount(row.connector, alias, to, options);
    if (!renamed.ok) {
      return renamed.failure.kind === 'dark' && renamed.failure.status === 404
        ? {
            error: 'manage_connections: this connector gateway cannot rename accounts.',
            reason: 'unsupported',
          }
        : failurePayload(renamed.failure);
    }
    if ('error' in renamed.value) {
      const refusal = renamed.value.error;
      return {
        error: `manage_connections: the gateway did not rename ${connector} account "${alias}": ${refusal.message || refusal.code}`,
        code: refusal.code,
      };
    }
    this._onDidChangeConnections.fire(connector);
    return {
      results: [{ connector, alias: to, renamed_from: alias, status: 'renamed' }],
      note: `tool_call entries pick this account with "account": "${to}".`,
    };
  }

  /** Opens the card, polls every link until each target settles or the deadline passes. */
  private async waitOnCard(
    starts: GatewayConnectionStart[],
    cards: ConnectionCardPort,
    context: ConnectionContext,
  ): Promise<Record<string, unknown>> {
    const deadline = this.clock() + this.cardTimeoutMs;
    const rows = new Map<string, ConnectionCardRow>(starts.map((start) => [start.connector, cardRow(start)]));
    const outcomes = new Map<string, TargetOutcome>();
    for (const start of starts) {
      if (start.status === 'active') outcomes.set(start.connector, 'connected');
    }
    const pending = () => starts.filter((start) => !outcomes.has(start.connector));
    if (pending().length === 0) return cardPayload(starts, outcomes);

    const card = cards.open({
      agentId: context.agentId,
      targets: [...rows.values()],
      expiresAt: deadline,
      ...(context.call === undefined ? {} : { call: context.call }),
      ...(context.forTool === undefined ? {} : { forTool: context.forTool }),
    });
    const skip = (name: string) => {
      if (outcomes.has(name)) return;
      outcomes.set(name, 'skipped');
      rows.set(name, { ...rows.get(name)!, state: 'skipped' });
      card.update([...rows.values()]);
      this.abandoned.set(linkKey(name, rows.get(name)?.alias), 'skipped');
      this._onDidChangeConnections.fire(name);
    };
    const connected = (name: string) => {
      outcomes.set(name, 'connected');
      rows.set(name, { ...rows.get(name)!, state: 'connected' });
      card.update([...rows.values()]);
      this._onDidChangeConnections.fire(name);
    };
    const subscription = card.onDidSkip(skip);
    // Linked on another card (one link serves every call that waits for the same account).
    const linked = this._onDidLink.event((key) => {
      for (const start of pending())
        if (linkKey(start.connector, start.alias) === key) connected(start.connector);
    });
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
            connected(start.connector);
            this._onDidLink.fire(linkKey(start.connector, start.alias));
          } else if (row.connectionStatus === 'failed' || row.connectionStatus === 'expired') {
            rows.set(start.connector, {
              ...rows.get(start.connector)!,
              state: 'failed',
              message: row.statusReason ?? `The link ${row.connectionStatus}.`,
            });
            card.update([...rows.values()]);
            this._onDidChangeConnections.fire(start.connector);
          }
        }
      }
    } finally {
      subscription.dispose();
      linked.dispose();
    }
    for (const start of starts) {
      const outcome = outcomes.get(start.connector) ?? 'not_connected';
      if (outcome !== 'connected') this.abandoned.set(linkKey(start.connector, start.alias), outcome);
    }
    const payload = cardPayload(starts, outcomes);
    card.close(
      starts
        .map(
          (start) =>
            `${label(start)}: ${(outcomes.get(start.connector) ?? 'not_connected').replace('_', ' ')}`,
        )
        .join('\n'),
    );
    return payload;
  }
}

function parseRequest(args: Record<string, unknown>): HostedRequest | McpRequest | { error: string } {
  const action = args.action ?? 'status';
  if (typeof action !== 'string' || (!HOSTED_ACTIONS.includes(action) && !MCP_ACTIONS.includes(action))) {
    return {
      error: `manage_connections: unknown action ${JSON.stringify(action)}; use status, connect, reconnect, rename, install, enable or authorize.`,
    };
  }
  const raw = args.connectors;
  const list = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  const targets: Target[] = [];
  for (const item of list) {
    const target = parseTarget(item);
    if ('error' in target) return target;
    const seen = targets.some((other) => other.name === target.name && other.alias === target.alias);
    if (target.name !== '' && !seen) targets.push(target);
  }
  const mcp = targets.filter((target) => target.mcp).map((target) => target.name);
  const hosted = targets.filter((target) => !target.mcp);
  const hostedNames = hosted.map((target) => target.name);
  if (mcp.length > 0 && hosted.length > 0) {
    return {
      error: `manage_connections: one call is either connector apps or MCP servers; call again separately for ${mcp.join(', ')} (mcp: true) and ${hostedNames.join(', ')}.`,
    };
  }
  if (MCP_ACTIONS.includes(action)) {
    if (hosted.length > 0) {
      return {
        error: `manage_connections: "${action}" is for local MCP servers; pass {"name": "${hostedNames[0]}", "mcp": true}, or use connect for a connector app.`,
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
  return hostedRequest(action as HostedAction, hosted, args.force === true);
}

/** The alias rules of reference §4.6: rename takes one {name, alias, to}; an aliased call takes one target. */
function hostedRequest(
  action: HostedAction,
  targets: Target[],
  force: boolean,
): HostedRequest | { error: string } {
  const fail = (message: string) => ({ error: `manage_connections: ${message}` });
  if (action === 'rename') {
    const [target] = targets;
    if (targets.length !== 1 || target?.alias === undefined || target.to === undefined) {
      return fail(
        'rename takes exactly one target {"name": …, "alias": …, "to": …}: the app, the account\'s alias and its new alias.',
      );
    }
    return { action, connector: target.name, alias: target.alias, to: target.to };
  }
  if (targets.some((target) => target.to !== undefined)) return fail('"to" is only for rename.');
  const aliased = targets.some((target) => target.alias !== undefined);
  if (action === 'status') {
    if (aliased) return fail('status lists every account of each app; leave alias out.');
    return { action, connectors: targets.map((target) => target.name) };
  }
  if (targets.length === 0) return fail(`action "${action}" needs at least one app in connectors.`);
  if (aliased && targets.length > 1) {
    return fail(
      'a call that names an alias takes one target only; call again for each other app or account.',
    );
  }
  return {
    action,
    targets: targets.map((target) =>
      target.alias === undefined
        ? { connector: target.name }
        : { connector: target.name, alias: target.alias },
    ),
    force,
  };
}

/** One target: a bare name, or `{name, mcp?, alias?, to?}`; transport, URLs and credentials never come from the call. */
function parseTarget(item: unknown): Target | { error: string } {
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
  const target: Target = { name: item.name.trim().toLowerCase(), mcp: item.mcp === true };
  if (target.mcp && (item.alias !== undefined || item.to !== undefined)) {
    return { error: 'manage_connections: an MCP server target takes no alias or to.' };
  }
  for (const key of ['alias', 'to'] as const) {
    const value = item[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !ACCOUNT_ALIAS.test(value)) {
      return {
        error: `manage_connections: ${key} ${JSON.stringify(value)} is not valid: ${ACCOUNT_ALIAS_RULE}.`,
      };
    }
    target[key] = value;
  }
  return target;
}

function findRow(rows: readonly GatewayConnectionRow[], connector: string): GatewayConnectionRow | undefined {
  return rows.find((row) => row.connector.toLowerCase() === connector);
}

function unknownAccount(connector: string, alias: string, row: GatewayConnectionRow | undefined): string {
  const aliases = row?.accounts.map((account) => account.alias) ?? [];
  return `manage_connections: ${connector} has no account "${alias}"; ${
    aliases.length === 0 ? 'it has no account yet.' : `its accounts: ${aliases.join(', ')}.`
  }`;
}

/** A target's label in card summaries: `github` or `github (work)`. */
function label(start: GatewayConnectionStart): string {
  return start.alias === undefined ? start.connector : `${start.connector} (${start.alias})`;
}

function linkKey(connector: string, alias: string | undefined): string {
  return `${connector.toLowerCase()} ${alias ?? ''}`;
}

const ABANDONED_REASONS: Record<Exclude<TargetOutcome, 'connected'>, string> = {
  skipped:
    'The user chose not to connect it in Toolbridge (Skip on the connection card). Do not ask again unless the user wants it; connect asks again.',
  not_connected:
    'Nobody connected it before the connection card timed out. Ask the user whether to try again with connect.',
};

/**
 * One app as `status` reports it. A link still pending at the gateway that the person skipped
 * (or let time out) on a card is reported as that, not as waiting for them.
 */
function statusRow(
  row: GatewayConnectionRow,
  abandoned: ReadonlyMap<string, Exclude<TargetOutcome, 'connected'>>,
): AppStatus {
  // A connect without an alias links the default account: its outcome stands for that account too.
  const outcomeOf = (alias: string | undefined, isDefault: boolean) =>
    (alias === undefined ? undefined : abandoned.get(linkKey(row.connector, alias))) ??
    (isDefault ? abandoned.get(linkKey(row.connector, undefined)) : undefined);
  const state = (
    item: { connected: boolean; connectionStatus?: LinkStatus; statusReason?: string },
    outcome: Exclude<TargetOutcome, 'connected'> | undefined,
  ): Pick<AccountStatus, 'connectionStatus' | 'statusReason'> =>
    outcome !== undefined && !item.connected && item.connectionStatus === 'initiated'
      ? { connectionStatus: outcome, statusReason: ABANDONED_REASONS[outcome] }
      : {
          ...(item.connectionStatus === undefined ? {} : { connectionStatus: item.connectionStatus }),
          ...(item.statusReason === undefined ? {} : { statusReason: item.statusReason }),
        };
  return {
    connector: row.connector,
    enabled: row.enabled,
    connected: row.connected,
    ...state(row, outcomeOf(undefined, true)),
    accounts: row.accounts.map((account) => ({
      alias: account.alias,
      default: account.default,
      connected: account.connected,
      ...state(account, outcomeOf(account.alias, account.default)),
    })),
    disabledTools: row.disabledTools,
  };
}

function cardRow(start: GatewayConnectionStart): ConnectionCardRow {
  const row: ConnectionCardRow = {
    name: start.connector,
    kind: 'connector',
    state: start.status === 'active' ? 'connected' : start.status === 'initiated' ? 'initiated' : 'failed',
  };
  if (start.alias !== undefined) row.alias = start.alias;
  if (start.connectUrl !== undefined) row.connectUrl = start.connectUrl;
  if (start.message !== undefined) row.message = start.message;
  return row;
}

/** The target's identity in an answer: the app, and the account when the call named one. */
function who(start: GatewayConnectionStart): { connector: string; alias?: string } {
  return start.alias === undefined
    ? { connector: start.connector }
    : { connector: start.connector, alias: start.alias };
}

function cardPayload(
  starts: GatewayConnectionStart[],
  outcomes: Map<string, TargetOutcome>,
): Record<string, unknown> {
  return {
    results: starts.map((start) => ({
      ...who(start),
      status: outcomes.get(start.connector) ?? 'not_connected',
    })),
    note: CARD_RESULT_NOTE,
  };
}

function linkPayload(starts: GatewayConnectionStart[]): Record<string, unknown> {
  return {
    results: starts.map((start) => ({
      ...who(start),
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
