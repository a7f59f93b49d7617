import path from 'node:path';
import type { AgentEndpoint } from '../agents/agent-endpoint.js';
import { AgentRegistry } from '../agents/agent-registry.js';
import { defaultCliCommand } from '../agents/client-configs.js';
import type { ListenerLimits, LoopbackServer } from '../agents/loopback-server.js';
import type { SurfaceProvider } from '../agents/mcp-session.js';
import { UpstreamRelay } from '../agents/upstream-relay.js';
import type { Policy } from '../api/ui-api.js';
import { Approvals, approvalSettingsReader } from '../approvals/approvals.js';
import { REVIEWS_FILE_NAME } from '../approvals/definition-reviews.js';
import { realCallExecutor } from '../approvals/real-call.js';
import { createRedactor, SharedRedactor } from '../approvals/redaction.js';
import { RequestCards } from '../approvals/request-cards.js';
import type { Event } from '../base/emitter.js';
import { type AsyncDisposable, DisposableStore, toDisposable } from '../base/lifecycle.js';
import type { SecretStore } from '../base/secret-store.js';
import type { AgentSurface, ToolExecutor } from '../bridge/types.js';
import { mcpToolName } from '../catalog/naming.js';
import { openServerLeases } from '../servers/lease-files.js';
import { ServerManager, type ServerManagerOptions } from '../servers/server-manager.js';
import { resolveServerSecrets } from '../servers/server-secrets.js';
import { ensurePrivateDir } from '../store/atomic-file.js';
import { openFileSecretStore } from '../store/file-secret-store.js';
import { jsonFile } from '../store/json-file.js';
import { WatchedSecretStore } from '../store/watched-secret-store.js';
import { openAgentListener } from './agent-listener.js';
import { AgentSurfaces } from './agent-surfaces.js';
import { describeApp } from './app-logos.js';
import { CallBoard, MAX_RECENT_CALLS } from './call-board.js';
import { CatalogChanges, watchCatalogInputs } from './catalog-changes.js';
import { ClientRequests } from './client-requests.js';
import { ConnectionCards } from './connection-cards.js';
import { ConnectorToolCount } from './connector-tool-count.js';
import { DataDirLock } from './data-dir-lock.js';
import { createHostApi, type HostApi } from './host-api.js';
import { HostCatalog } from './host-catalog.js';
import { HostConnectors } from './host-connectors.js';
import type { HostParts } from './host-parts.js';
import {
  agentRecordStore,
  alwaysAllowSaver,
  type HostSettings,
  openReadOnlySettings,
  openSettings,
  settingsSnapshot,
} from './host-settings.js';
import { HostUpstream, withNamespacedResources } from './host-upstream.js';
import { HostMcpActions } from './mcp-server-actions.js';
import { ServerSignIn, type ServerSignInOptions } from './server-sign-in.js';
import { ServersService, serverView } from './servers-service.js';
import { settingsView } from './ui-api/settings-slice.js';
import { relayToUi, UiEventHub } from './ui-event-hub.js';
import { UiPresence } from './ui-presence.js';

export interface HostOptions {
  /** The data folder (settings, secrets, audit log); created 0700 when missing. */
  dataDir: string;
  /**
   * Port of the agent endpoint (and the web UI mounted beside it); 0 picks a free one.
   * @defaultValue `0`
   */
  port?: number;
  /**
   * Address to bind. Anything but loopback needs `unsafeAllowNonLoopback`.
   * @defaultValue `'127.0.0.1'`
   */
  bindAddress?: string;
  /** Lets `bindAddress` be a non-loopback address: anyone on that network could then reach it. */
  unsafeAllowNonLoopback?: boolean;
  /** The listener's timeouts and connection cap. @defaultValue `DEFAULT_LISTENER_LIMITS` */
  listenerLimits?: Partial<ListenerLimits>;
  /**
   * Open the HTTP listener. `toolbridge mcp` serves one agent over stdio instead.
   * @defaultValue `true`
   */
  listen?: boolean;
  /** The default agent's token for this run only (`--agent-token`); never stored. */
  agentToken?: string;
  /** The default approval policy for this run only (`--policy`); settings keep theirs. */
  policyOverride?: Policy;
  /** @defaultValue the 0600 file store in `dataDir` */
  secretStore?: SecretStore;
  /**
   * Never write settings (and take no lock): `toolbridge mcp` next to a running app.
   * @defaultValue `false`
   */
  readOnlySettings?: boolean;
  /** Connection tuning (timeouts, backoff) for tests and embedders. */
  serverOptions?: Omit<ServerManagerOptions, 'resolveConfig' | 'redact' | 'leases'>;
  /**
   * How an MCP client starts the toolbridge CLI, for the Claude Desktop config snippet.
   * @defaultValue this Node and the package's `bin/toolbridge.js`
   */
  cli?: { command: string; args: string[] };
  /** Where warnings go. @defaultValue stderr */
  log?: (line: string) => void;
  /**
   * Opens a sign-in link when the person presses "connect" on a connection card (the desktop app
   * passes its vetted URL opener). Without it the UI opens the card's link itself.
   */
  openUrl?: (url: string) => void;
  /** Tuning of remote servers' sign-in (clock, refresh margin) for tests. */
  signIn?: ServerSignInOptions;
}

/** The port `serve` and the desktop app listen on: fixed, so client configs keep working across restarts. */
export const DEFAULT_HOST_PORT = 7345;

/** The agent id of the one agent `toolbridge mcp` serves over stdio. */
export const STDIO_AGENT_ID = 'stdio';

/**
 * How long close() waits for calls in progress to answer before it closes the endpoint: enough for
 * refused ones, short so a tool still running on a server does not hold up shutdown (mcp has 2 s).
 */
const CLOSE_ANSWER_GRACE_MS = 500;

/** Everything createHost builds, one bag: what the UI API drives, plus the listener and the store. */
type HostComponents = Omit<HostParts, 'endpointUrl' | 'surfaceFor' | 'catalogChanged'> & {
  relay: UpstreamRelay;
  store: DisposableStore;
  http: LoopbackServer | undefined;
  endpoint: AgentEndpoint | undefined;
  agentSurfaces: AgentSurfaces;
  changes: CatalogChanges;
};

/**
 * The composition root: settings, secrets, servers, the catalog rebuilt from live tools,
 * approvals around every real call, agents and their endpoint. `close()` shuts it all down,
 * server child processes included, in reverse order of creation.
 */
export class Host implements AsyncDisposable {
  /** What some agent lists changed: the HTTP endpoint and every stdio endpoint listen here. */
  readonly onDidChangeAgentTools: Event<void>;
  /** Resolves once every enabled server has connected or failed its first attempt. */
  readonly ready: Promise<void>;
  readonly api: HostApi;
  private closing: Promise<void> | undefined;

  readonly dataDir: string;
  readonly settings: HostSettings;
  readonly secrets: SecretStore;
  readonly servers: ServerManager;
  readonly catalog: HostCatalog;
  readonly approvals: Approvals;
  readonly agents: AgentRegistry;
  /** The loopback listener; mount more routes on it (the web UI does). Undefined with `listen: false`. */
  readonly http: LoopbackServer | undefined;
  readonly endpoint: AgentEndpoint | undefined;
  readonly connectionCards: ConnectionCards | undefined;
  /** Each tool_call that needed the person, as one card (and the recent ones). */
  readonly calls: CallBoard;
  readonly requestCards: RequestCards | undefined;
  readonly policyOverride: { value: Policy | undefined };
  readonly events: UiEventHub;
  /** Sign-in to remote servers (OAuth), one client per HTTP/SSE server. */
  readonly signIn: ServerSignIn;
  private readonly store: DisposableStore;
  private readonly agentSurfaces: AgentSurfaces;
  private readonly changes: CatalogChanges;
  /** The servers' resources, prompts, completions and logs, for every agent endpoint (HTTP and stdio). */
  readonly relay: UpstreamRelay;

  /** @internal use createHost */
  constructor(parts: HostComponents) {
    this.dataDir = parts.dataDir;
    this.settings = parts.settings;
    this.secrets = parts.secrets;
    this.servers = parts.servers;
    this.catalog = parts.catalog;
    this.approvals = parts.approvals;
    this.agents = parts.agents;
    this.http = parts.http;
    this.endpoint = parts.endpoint;
    this.connectionCards = parts.connectionCards;
    this.calls = parts.calls;
    this.requestCards = parts.requestCards;
    this.policyOverride = parts.policyOverride;
    this.events = parts.events;
    this.signIn = parts.signIn;
    this.store = parts.store;
    this.agentSurfaces = parts.agentSurfaces;
    this.changes = parts.changes;
    this.onDidChangeAgentTools = parts.changes.onDidChangeAgentTools;
    this.relay = parts.relay;
    this.api = createHostApi({
      ...parts,
      endpointUrl: () => this.endpointUrl,
      catalogChanged: () => this.catalogChanged(),
      surfaceFor: (agentId, contextLengthTokens) => this.surfaceFor(agentId, contextLengthTokens),
    });
    this.ready = parts.servers.startAll();
    this.changes.settle();
  }

  /** `http://127.0.0.1:<port>/mcp`, or undefined when not listening. */
  get endpointUrl(): string | undefined {
    return this.http === undefined ? undefined : `${this.http.url}/mcp`;
  }

  /** Tools and calls for one agent as of now. */
  surfaceFor(agentId: string, contextLengthTokens?: number): AgentSurface {
    return this.agentSurfaces.surfaceFor(agentId, contextLengthTokens);
  }

  readonly surfaces: SurfaceProvider = (agentId) => this.surfaceFor(agentId);

  /** Registers an agent the registry does not hold (the stdio agent) with its context length. */
  watchAgent(agentId: string, contextLengthTokens: number): void {
    this.agentSurfaces.watch(agentId, contextLengthTokens);
    this.changes.settle();
  }

  /** Called on every change that may alter what agents list; coalesces bursts. */
  catalogChanged(): void {
    this.changes.changed();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.changes.dispose();
      // Fail the calls waiting on cards while the endpoint can still send the agents their
      // INTERRUPTED answer; closing the listener first would cut those requests instead.
      await this.approvals.queue.close();
      await this.requestCards?.close();
      await this.agentSurfaces.callsSettled(CLOSE_ANSWER_GRACE_MS);
      await this.store.close();
    })();
    return this.closing;
  }
}

/** Opens the data folder and starts everything; see HostOptions. Await `host.ready` for the servers. */
export async function createHost(options: HostOptions): Promise<Host> {
  const writeLog = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Every line goes through the one redactor (held secrets by value) once it exists.
  let redactLine = (line: string): string => line;
  const log = (line: string): void => writeLog(redactLine(line));
  const dataDir = options.dataDir;
  const readOnly = options.readOnlySettings === true;
  const store = new DisposableStore();
  try {
    const dirWarning = readOnly ? undefined : await ensurePrivateDir(dataDir);
    if (dirWarning) log(`toolbridge: ${dirWarning}`);
    const lock = readOnly ? undefined : store.add(await DataDirLock.acquire(dataDir));

    const secrets = await WatchedSecretStore.open(
      options.secretStore ?? (await openFileSecretStore(dataDir, log)),
    );
    const settings = readOnly ? await openReadOnlySettings(dataDir) : await openSettings(dataDir, secrets);
    store.add(toDisposable(() => settings.dispose()));
    for (const warning of settings.warnings) log(`toolbridge: ${warning}`);
    const snapshot = store.add(settingsSnapshot(settings));

    const policyOverride: { value: Policy | undefined } = { value: options.policyOverride };
    // One redactor for every sink: the settings' patterns plus every secret the store holds, by
    // value. Settings validation refuses patterns that do not compile, so building cannot throw.
    const redactor = new SharedRedactor(() =>
      createRedactor(snapshot.current.redactionPatterns, { knownSecrets: secrets.held() }),
    );
    redactLine = (line) => redactor.current.redactText(line);
    store.add(settings.onDidChange(() => redactor.rebuild()));
    store.add(secrets.onDidChange(() => redactor.rebuild()));
    const leases = await openServerLeases(dataDir, readOnly, jsonFile, log);
    store.add(leases);
    // Filled in once the agent endpoint listens: the OAuth client never fetches it.
    const ownPorts: number[] = [];
    const signIn = store.add(
      new ServerSignIn({
        secrets,
        dataDir,
        ownPorts: () => ownPorts,
        reconnect: async (id) => {
          if (servers.has(id)) await servers.restart(id);
        },
        log,
        ...(options.signIn === undefined ? {} : { options: options.signIn }),
      }),
    );
    // Cards need a UI, which mounts on the listener; without one, sign-in links go to the agent
    // and servers' elicitation goes to the agent or is declined.
    const listening = options.listen !== false;
    const uiPresence = new UiPresence();
    const requestCards = listening ? store.add(new RequestCards()) : undefined;
    const servers = store.add(
      new ServerManager({
        leases: leases.leases,
        fetchFor: (config) => signIn.fetchFor(config),
        scopeNeeded: (config) => signIn.scopeNeeded(config),
        clientRequests: new ClientRequests({
          cards: requestCards,
          uiPresent: () => uiPresence.present,
          preferCards: () => snapshot.current.preferElicitationCards,
          cardTimeoutMs: () => snapshot.current.cardTimeoutMs,
          toolName: mcpToolName,
        }),
        ...options.serverOptions,
        callTimeoutMs: snapshot.current.callTimeoutMs,
        maxCallTimeoutMs: snapshot.current.maxCallTimeoutMs,
        resolveConfig: (config) => resolveServerSecrets(config, secrets),
        redact: (text) => redactor.current.redactText(text),
      }),
    );
    const approvals = store.add(
      await Approvals.open({
        dataDir,
        reviewsFile: jsonFile(path.join(dataDir, REVIEWS_FILE_NAME), { readOnly }),
        redactor: () => redactor.current,
        settings: approvalSettingsReader(
          () => snapshot.current,
          () => policyOverride.value,
        ),
        // Marks the audit lines of calls the person saw, so Recent can be restored from them.
        shownCall: (callId) => calls.isShown(callId),
        // "Always allow" is kept in the settings, bound to the tool's definition hash.
        ...(readOnly ? {} : { onAlwaysAllow: alwaysAllowSaver(settings) }),
      }),
    );

    // One card per tool_call: the bridge records each call's entries here, the cards attach to them.
    const calls = store.add(
      new CallBoard({
        findSecrets: (args) => redactor.current.findSecrets(args),
        redactText: (text) => redactor.current.redactText(text),
        describeApp,
        resolveCard: (id, decision) => approvals.resolveCard(id, decision),
      }),
    );
    // Recent starts where the last run left it, from the audit log.
    calls.restore(await approvals.audit.shownCalls(MAX_RECENT_CALLS));
    // The catalog and executor read the connectors only when used, after they exist below.
    const executor: ToolExecutor = {
      ...realCallExecutor({
        gate: approvals,
        local: withNamespacedResources(servers.toolExecutor(() => snapshot.current)),
        connectors: () => connectors.current().gateway?.backend,
        definitionHash: (name) => catalog.definitionHash(name),
      }),
      beginCall: (agentId, entries) => calls.begin(agentId, entries),
    };
    const catalog: HostCatalog = new HostCatalog(
      () => ({
        servers: servers.snapshot(),
        settings: snapshot.current,
        connectors: connectors.current(),
        reviews: approvals.reviews,
      }),
      executor,
    );

    const serverService = new ServersService({ servers, catalog, settings, signIn });
    const connectionCards = listening ? store.add(new ConnectionCards(describeApp)) : undefined;
    const connectors = new HostConnectors({
      settings: () => snapshot.current,
      secrets,
      uiPresent: () => uiPresence.present,
      mcp: new HostMcpActions({
        servers: serverService,
        dataDir,
        cards: connectionCards,
        uiPresent: () => uiPresence.present,
        cardTimeoutMs: () => snapshot.current.cardTimeoutMs,
      }),
      ...(connectionCards === undefined ? {} : { cards: connectionCards }),
    });
    store.add(connectors);

    const connectorToolCount = new ConnectorToolCount(() => connectors.current().gateway?.client);
    // Signing in or out of the gateway changes what it counts.
    store.add(secrets.onDidChange(() => connectorToolCount.forget()));

    const agents = await AgentRegistry.open(agentRecordStore(settings), secrets);
    store.add(agents);
    const agentSurfaces = new AgentSurfaces(catalog, agents, () => servers.notifyRootsChanged());
    if (!readOnly && (listening || options.agentToken !== undefined)) {
      await agents.ensureDefault(options.agentToken);
    }

    const upstream = store.add(
      new HostUpstream({
        servers,
        denied: (serverId) => snapshot.current.policies.servers[serverId] === 'deny',
        log,
      }),
    );
    // After the listener above that updates `current`, which `denied` reads.
    store.add(settings.onDidChange(() => upstream.recheckOffering()));
    const relay = store.add(new UpstreamRelay(upstream));
    const events = new UiEventHub();
    const changes = new CatalogChanges(catalog, agentSurfaces, events);
    // Servers are added before the host exists and started by it, so every status event is seen.
    for (const config of settings.current.servers) await servers.add(config, { start: false });

    const listener = listening
      ? await openAgentListener(
          { ...options, log },
          {
            agents,
            surfaces: (agentId) => agentSurfaces.surfaceFor(agentId),
            relay,
            onDidChangeAgentTools: changes.onDidChangeAgentTools,
            store,
          },
        )
      : undefined;
    if (listener !== undefined) ownPorts.push(listener.http.port);

    const host = new Host({
      dataDir,
      store,
      settings,
      secrets,
      servers,
      catalog,
      approvals,
      agents,
      http: listener?.http,
      endpoint: listener?.endpoint,
      connectionCards,
      connectors,
      calls,
      connectorToolCount,
      requestCards,
      uiPresence,
      policyOverride,
      events,
      cli: options.cli ?? defaultCliCommand(),
      openUrl: options.openUrl,
      signIn,
      redact: (text) => redactor.current.redactText(text),
      serverService,
      agentSurfaces,
      changes,
      relay,
    });
    const subscriptions = [
      ...watchCatalogInputs({ servers, settings, agents, reviews: approvals.reviews }, changes),
      servers.onDidRemove(({ id }) => signIn.forget(id)),
      connectors.onDidChangeConnections((connector) => events.fire('connectionsChanged', { connector })),
      ...relayToUi(
        {
          servers,
          settings,
          agents,
          approvals,
          connectionCards,
          requestCards: host.requestCards,
          calls,
          serverView: (id) => serverView(host, id),
          settingsView: () => settingsView(host),
        },
        events,
      ),
    ];
    for (const subscription of subscriptions) store.add(subscription);
    if (lock !== undefined && host.endpointUrl !== undefined) await lock.setEndpoint(host.endpointUrl);
    return host;
  } catch (error) {
    await store.close();
    throw error;
  }
}
