/**
 * The UI API: everything the renderer can ask of the host, and the events it hears.
 * One interface, two transports (Electron IPC via preload, WebSocket in web mode). Payloads are
 * JSON-safe data only. At run time this contract imports only `base/`: the records a domain owns
 * (an audit line, a policy, a server config) are declared there and re-exported here as types,
 * so the renderer and preload need nothing but `src/api/` and `src/base/`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CardOutcome } from '../approvals/approval-queue.js';
import type {
  ActivityEntry,
  ActivityPage,
  ActivityQuery,
  ApprovalCardView,
  ArgumentSecret,
  CallEntryRef,
  CardDecision,
  ElicitationCardView,
  Policy,
  PolicyRuleView,
  SamplingCardView,
  ToolChangeView,
  ToolPolicyView,
} from '../approvals/types.js';
import type { CommandCallout } from '../base/command-review.js';
import type { JsonObject, JsonValue } from '../base/json.js';
import type { CallEntryOutcome } from '../bridge/types.js';
import type { ToolSearchSettings } from '../catalog/tool-search-config.js';
import type { ListingForm } from '../catalog/types.js';
import type { AccountStatus, AppView, ConnectionCardRow } from '../connectors/manage-connections.js';
import type { McpCatalogEntry } from '../servers/mcp-catalog.js';
import type { ServerConfig, ServerReconnects, ServerStatus } from '../servers/types.js';

export type { CardOutcome } from '../approvals/approval-queue.js';
export type {
  ActivityEntry,
  ActivityPage,
  ActivityQuery,
  ApprovalCardView,
  ApprovalToolFacts,
  ArgumentSecret,
  CallAccount,
  CallEntryRef,
  CardDecision,
  ElicitationCardView,
  Policy,
  PolicyRuleView,
  PolicySource,
  RequestCallView,
  SamplingCardView,
  ToolChangeView,
  ToolDefinitionView,
  ToolPolicyView,
} from '../approvals/types.js';
export { SECRET_MASK } from '../base/secret-mask.js';
export type { ToolSearchSettings } from '../catalog/tool-search-config.js';
export type { ListingForm } from '../catalog/types.js';
export type {
  AccountStatus,
  AppView,
  ConnectionCardRow,
  LinkStatus,
} from '../connectors/manage-connections.js';
export type { McpCatalogInput } from '../servers/mcp-catalog.js';
export type { OAuthClientConfig, ServerConfig, ServerReconnects, ServerStatus } from '../servers/types.js';

/** The Tiers view's card: the agent's disclosure tier, its listing form and what each part costs. */
export interface TierView {
  contextLengthTokens: number;
  tier: 0 | 1 | 2;
  form: ListingForm;
  budgetTokens: number;
  listingTokens: number;
  deferredCount: number;
  /** What the deferred tools' schemas would cost if listed directly. */
  deferredTokens: number;
  /** What the agent's tool list costs now (visible tools + bridge). */
  visibleTokens: number;
  visibleToolNames: string[];
  /** The exact `tool_search` description the model receives. */
  toolSearchDescription: string;
  /** Present while a connector gateway is in scope: its tools are searched there, never listed. */
  connectorTools?: ConnectorToolsView;
}

/** The connector tools an agent can reach through tool_search, as the gateway counts them. */
export interface ConnectorToolsView {
  /** Tools of the enabled apps that said how many they have. */
  count: number;
  /** Enabled apps on the gateway. */
  apps: number;
  /** Enabled apps that did not say (a gateway older than `toolCount`): not in `count`. */
  uncountedApps: number;
  /** Why the gateway could not be asked (not signed in, unreachable); the counts are 0 then. */
  problem?: string;
}

export interface ServerView {
  id: string;
  name: string;
  status: ServerStatus;
  enabled: boolean;
  trusted: boolean;
  /** The config with secret values replaced by "••••". */
  config: ServerConfig;
  toolCount: number;
  lastError?: string;
  /**
   * Why its tools (or some) have no name agents can call: an id holding `__` (kept from older
   * settings; rename the server), a name another server's tool would share, or tools left out
   * because they run only as MCP tasks.
   */
  nameProblem?: string;
  /** Last lines the server wrote to stderr (bounded). */
  stderrTail: string[];
  /** How often it reconnected on its own (lost session, crash, unreachable) and when; absent until the first time. */
  reconnects?: ServerReconnects;
  /** The server's own approval policy (`policies.servers`); absent: its tools inherit the default. */
  policy?: Policy;
}

export interface ToolView {
  /** Agent-facing name, e.g. `mcp__everything__echo`. */
  name: string;
  serverId: string;
  toolName: string;
  description: string;
  inputSchema?: JsonObject;
  enabled: boolean;
  pinned: boolean;
  /** Hidden behind the bridge (false for pinned tools). */
  deferred: boolean;
  /** For a pinned tool whose name is not a valid direct tool name: the name the agent sees. */
  directName?: string;
  readOnlyHint?: boolean;
  /** Its approval policy: its own setting, and what a call gets now and why. */
  policy: ToolPolicyView;
  /** Present while the tool is held: its server changed it since the person last reviewed it. */
  change?: ToolChangeView;
  /** What its description hides (e.g. "zero-width characters"); such a tool asks until its own policy is set. */
  suspicious?: string[];
}

export interface ConnectionCardView {
  kind: 'connection';
  id: string;
  agentId: string;
  targets: ConnectionCardRow[];
  /** Set when a tool_call entry waits on it: the UI shows its rows inside that call's card. */
  call?: CallEntryRef;
  /** The tool that waits for the connection (a held tool_call entry). */
  forTool?: string;
  createdAt: string;
  expiresAt: string;
}

export type CardView = ApprovalCardView | ConnectionCardView | ElicitationCardView | SamplingCardView;

/**
 * Where one entry of a tool_call is: not reached yet (`queued`), judged by a policy (`checking`),
 * waiting for the person on its approval card (`waiting`, `cardId`) or for an account to be
 * connected (`account`, `connectionCardId`), `running`, or how it ended.
 */
export type CallEntryState =
  | 'queued'
  | 'checking'
  | 'waiting'
  | 'account'
  | 'running'
  | CallEntryOutcome['state'];

export interface CallEntryView {
  /** Its place in the tool_call's input. */
  index: number;
  /** The real tool name (`mcp__…`, `connectors__…`), as the agent sent it. */
  name: string;
  /** The server, or the connector app. */
  serverId: string;
  /** The connector account alias the entry named; absent: the app's default account. */
  account?: string;
  /** Connector entries: the app, with its logo where there is one. */
  app?: AppView;
  /** The arguments as the agent sent them; `secrets` marks the values the UI masks. */
  arguments: JsonObject;
  secrets: ArgumentSecret[];
  state: CallEntryState;
  /** While `waiting`: the approval card that decides it. */
  cardId?: string;
  /** While `account`: the connection card it waits on. */
  connectionCardId?: string;
  /** What was decided on its card, when one opened. */
  decision?: CardOutcome;
  /** Once it ended: its result or refusal in one line. */
  summary?: string;
  /** How long it ran, from its start (after any card) to its end. */
  durationMs?: number;
}

/**
 * One tool_call as the person sees it: one card, every entry in input order with its state. Only
 * calls that needed the person (an entry opened a card) are shown; finished ones stay in the
 * recent history.
 */
export interface CallView {
  id: string;
  agentId: string;
  createdAt: string;
  /** Set once every entry has ended. */
  finishedAt?: string;
  /** "Approve the rest" or "Deny the rest": applies to each later entry as its card opens. */
  rest?: 'approve' | 'deny';
  entries: CallEntryView[];
}

export interface AgentView {
  id: string;
  name: string;
  contextLengthTokens: number;
  createdAt: string;
}

export interface AgentConnectionInfo {
  endpointUrl: string;
  token: string;
  /** Copy-paste configs keyed by client: `claude-desktop`, `cursor`, `vscode`. */
  configs: Record<string, string>;
}

export interface SettingsView {
  toolSearch: ToolSearchSettings;
  defaultPolicy: Policy;
  cardTimeoutMs: number;
  callTimeoutMs: number;
  /** The longest a call may run however often its server reports progress (each report restarts `callTimeoutMs`). */
  maxCallTimeoutMs: number;
  /** Elicitation opens a card while a window is open, even when the agent could answer it. */
  preferElicitationCards: boolean;
  /** The most one tool result may send an agent, in bytes; more is cut with a note. */
  maxResultBytes: number;
  redactionPatterns: string[];
  dataDir: string;
  secretStoreKind: 'os-encrypted' | 'file-0600' | 'memory';
  connectors: ConnectorSettingsView;
}

/** Hosted connectors as the UI sees them; the gateway token itself is never sent back. */
export interface ConnectorSettingsView {
  gatewayUrl?: string;
  enabled: boolean;
  /** A gateway token is stored. */
  signedIn: boolean;
}

/** What `updateSettings` may change; `gatewayUrl: null` removes the URL. */
export type SettingsPatch = Partial<Omit<SettingsView, 'dataDir' | 'secretStoreKind' | 'connectors'>> & {
  connectors?: { gatewayUrl?: string | null; enabled?: boolean };
};

/** What became of one query word, as the Playground shows it (the engine's `WordFate`). */
export interface QueryWordView {
  word: string;
  fate: 'kept' | 'dropped' | 'unknown';
  /** A code: `scored`, `corrected`, `related-words`, `common-english`, `cited-by-answers`, `over-term-budget`, `not-in-catalog`, `filler`, `name-as-data`, `address`, `repeated`, `absent-service`. */
  reason: string;
  /** In plain words. */
  why: string;
  correctedTo?: string;
  /** Related words also scored for it: each as its source spells it, its weight and where it came from. */
  expandedTo?: Array<{ word: string; weight: number; source: string }>;
}

/** One connector app as the Connections view lists it, with every account (the default first). */
export interface ConnectorAppView {
  /** The connector id, as in `connectors__<connector>__…`. */
  connector: string;
  /** Its proper name and logo. */
  app: AppView;
  enabled: boolean;
  /** Whether its default account is connected. */
  connected: boolean;
  /** `connectionStatus` `initiated`: waiting for the person to allow access; `skipped` / `not_connected`: from a card. */
  accounts: AccountStatus[];
  /** Tools (slugs) the gateway does not let this app's account use. */
  disabledTools: string[];
}

/**
 * The Connections view: the gateway's apps, or why there are none. `state` says which:
 * `ready` (the gateway answered), `not_configured` (no gateway URL), `disabled` (switched off in
 * Settings), `signed_out` (no gateway token), `sign_in_expired` (the gateway refused the token)
 * or `unreachable`; `message` says it in words.
 */
export interface ConnectionsView {
  state: 'ready' | 'not_configured' | 'disabled' | 'signed_out' | 'sign_in_expired' | 'unreachable';
  message?: string;
  apps: ConnectorAppView[];
}

/** One tool of a connector app, with its approval policy (its own setting, and what a call gets now). */
export interface ConnectorToolView {
  /** The agent-facing name, `connectors__<connector>__<tool>`; policies are keyed by it. */
  name: string;
  connector: string;
  toolName: string;
  description: string;
  policy: ToolPolicyView;
  /** The gateway does not let this account use it (`disabledTools`). */
  blocked: boolean;
}

/** An app's tools; `listed: false` when the gateway cannot list them (`message` says why). */
export interface ConnectorAppToolsView {
  connector: string;
  listed: boolean;
  message?: string;
  tools: ConnectorToolView[];
}

export interface SearchExplanationView {
  query: string;
  gateToken?: string;
  answerableTerms: string[];
  /** Every query word in order, and its fate. */
  words: QueryWordView[];
  corrections?: Array<{ from: string; to: string }>;
  /** Words read as an app no installed tool mentions (they empty the result), and why. */
  unknownWords?: Array<{ word: string; why: string }>;
  matches: Array<{ name: string; score: number; terms: Record<string, number> }>;
}

export interface PlaygroundSearchResult {
  /** Exactly what `tool_search` returns to an agent. */
  response: JsonObject;
  explanations: SearchExplanationView[];
}

/** One server a pasted config would add, as the person reviews it. Secret values are not included. */
export interface ImportedServerReview {
  id: string;
  name?: string;
  transport: ServerConfig['transport'];
  /** Imported turned off (a value only the original client could fill in, or off there). */
  enabled: boolean;
  command?: string;
  args?: string[];
  envNames?: string[];
  cwd?: string;
  url?: string;
  headerNames?: string[];
  /** Shell call-outs and the like, from the same detector as the command form. */
  callouts: CommandCallout[];
}

/**
 * One server of the bundled install catalog (resources/mcp-catalog), as Servers → Add from
 * catalog shows it, `{dataDir}` filled in. Installing it is `addServer` with the config the panel
 * builds from it, after the same review as the command form.
 */
export interface CatalogServerView extends Omit<McpCatalogEntry, 'bin'> {
  /** The program: the Node running Toolbridge. */
  command: string;
  /** Its first argument: the package's script in Toolbridge's own install (nothing is downloaded). */
  script: string;
  /** Environment Toolbridge adds itself (the desktop app's ELECTRON_RUN_AS_NODE), shown in the review. */
  fixedEnv: Record<string, string>;
}

export interface ImportReview {
  /** Pass to confirmImport; random, single use. */
  id: string;
  format: 'claude-desktop' | 'cursor' | 'vscode';
  servers: ImportedServerReview[];
  notes: string[];
  expiresAt: string;
}

export interface ToolbridgeApi {
  // Servers
  listServers(): Promise<ServerView[]>;
  addServer(config: ServerConfig): Promise<ServerView>;
  updateServer(id: string, config: ServerConfig): Promise<ServerView>;
  removeServer(id: string): Promise<void>;
  setServerEnabled(id: string, enabled: boolean): Promise<ServerView>;
  restartServer(id: string): Promise<ServerView>;
  /**
   * Starts signing in to a remote server (status `needs-auth`) and answers with the page to open
   * in the browser; once the person has signed in there, the server reconnects.
   */
  authorizeServer(id: string): Promise<{ authorizationUrl: string }>;
  /**
   * Reads pasted JSON from Claude Desktop, Cursor or VS Code and answers what it would add, per
   * server, for the person to review. Nothing is added or started.
   */
  reviewImport(configText: string): Promise<ImportReview>;
  /** The bundled install catalog; install one with `addServer` after the review. */
  listCatalogServers(): Promise<CatalogServerView[]>;
  /** Adds and starts exactly the servers of that review (once, within 10 minutes); returns them. */
  confirmImport(reviewId: string): Promise<ServerView[]>;

  // Catalog
  listTools(serverId?: string): Promise<ToolView[]>;
  setToolEnabled(name: string, enabled: boolean): Promise<ToolView>;
  setToolPinned(name: string, pinned: boolean): Promise<ToolView>;
  /**
   * Accepts a held tool's changed definition (`ToolView.change`): agents see and may call the new
   * one from now on. An "Always allow" saved for the old definition does not carry over.
   */
  acceptToolChange(name: string): Promise<ToolView>;
  getTier(options: { agentId?: string; contextLengthTokens?: number }): Promise<TierView>;

  // Playground (calls go through approvals like any agent's)
  search(queries: string[], limit?: number): Promise<PlaygroundSearchResult>;
  describe(names: string[]): Promise<JsonObject>;
  call(name: string, args: JsonObject): Promise<CallToolResult>;

  // Policies (each change is written to the audit log and applies to the next call)
  /** Sets a server's policy for its tools without their own; `null` clears it (inherit the default). */
  setServerPolicy(serverId: string, policy: Policy | null): Promise<ServerView>;
  /** Sets a tool's own policy (by its agent-facing name); `null` clears it (inherit). */
  setToolPolicy(name: string, policy: Policy | null): Promise<ToolView>;
  /** The saved rules (`policies.rules`), such as "Always allow" from cards. */
  listPolicyRules(): Promise<PolicyRuleView[]>;
  /** Removes a saved rule by its id; answers with the rules left. */
  removePolicyRule(id: string): Promise<PolicyRuleView[]>;

  // Cards
  listCards(): Promise<CardView[]>;
  resolveCard(id: string, decision: CardDecision): Promise<void>;
  resolveConnectionTarget(cardId: string, target: string, action: 'connect' | 'skip'): Promise<void>;
  /** The tool_calls that needed the person: those still running, then the recent finished ones. */
  listCalls(): Promise<CallView[]>;
  /**
   * "Approve the rest" / "Deny the rest" on a tool_call's card: decides the entry waiting now and
   * each later entry of the call as its card opens. An entry is approved this way only while its
   * arguments are exactly the ones the card showed and hold no secret; otherwise it asks.
   */
  decideRest(callId: string, decision: 'approve' | 'deny'): Promise<void>;
  /** Stops every open card of one agent (each of its tool_calls stops); answers how many calls. */
  stopAgent(agentId: string): Promise<{ calls: number }>;

  // Activity
  queryActivity(query: ActivityQuery): Promise<ActivityPage>;
  exportActivity(format: 'jsonl' | 'csv', query?: ActivityQuery): Promise<string>;

  // Agents
  listAgents(): Promise<AgentView[]>;
  createAgent(name: string, contextLengthTokens?: number): Promise<AgentView>;
  updateAgent(id: string, patch: { name?: string; contextLengthTokens?: number }): Promise<AgentView>;
  revokeAgent(id: string): Promise<void>;
  getAgentConnection(id: string): Promise<AgentConnectionInfo>;

  // Settings
  getSettings(): Promise<SettingsView>;
  updateSettings(patch: SettingsPatch): Promise<SettingsView>;
  /** Stores the connector gateway token (write-only: no method reads it back). */
  signInConnectorGateway(token: string): Promise<SettingsView>;
  signOutConnectorGateway(): Promise<SettingsView>;

  // Connections (connector apps and their accounts, from the gateway)
  /** The gateway's apps and accounts, or the state that explains why there are none (never throws for it). */
  listConnections(): Promise<ConnectionsView>;
  /**
   * Starts linking an app's default account, or the account under `alias` (a new one when the
   * alias is new); `reconnect` links it again even when it looks connected. Answers with the
   * page to open in the browser (`waiting`), or `connected` when nothing is left to do.
   */
  connectApp(
    connector: string,
    options?: { alias?: string; reconnect?: boolean },
  ): Promise<{ status: 'connected' | 'waiting'; connectUrl?: string }>;
  /** Renames one account's alias (only the label changes); answers with the apps listed again. */
  renameConnectorAccount(connector: string, alias: string, to: string): Promise<ConnectionsView>;
  /** One app's tools with their approval policies. */
  listConnectorTools(connector: string): Promise<ConnectorAppToolsView>;
  /** Sets a connector tool's own policy (by its agent-facing name); `null` clears it (inherit). */
  setConnectorToolPolicy(name: string, policy: Policy | null): Promise<ConnectorToolView>;

  on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void;
}

/** Event name → payload. Past tense: these already happened. */
export interface UiEventMap {
  serverStatusChanged: ServerView;
  serverRemoved: { id: string };
  catalogChanged: { toolCount: number };
  cardOpened: CardView;
  cardUpdated: CardView;
  cardResolved: { id: string; outcome: string };
  callUpdated: CallView;
  activityAppended: ActivityEntry;
  agentsChanged: { agents: AgentView[] };
  settingsChanged: SettingsView;
  /** An app's accounts changed (linked, skipped, failed, renamed): list the connections again. */
  connectionsChanged: { connector: string };
}

/** Every method name, for transports that forward calls by name (IPC, WebSocket). */
export const UI_METHODS = [
  'listServers',
  'addServer',
  'updateServer',
  'removeServer',
  'setServerEnabled',
  'restartServer',
  'authorizeServer',
  'reviewImport',
  'confirmImport',
  'listCatalogServers',
  'listTools',
  'setToolEnabled',
  'setToolPinned',
  'acceptToolChange',
  'getTier',
  'setServerPolicy',
  'setToolPolicy',
  'listPolicyRules',
  'removePolicyRule',
  'search',
  'describe',
  'call',
  'listCards',
  'resolveCard',
  'resolveConnectionTarget',
  'listCalls',
  'decideRest',
  'stopAgent',
  'queryActivity',
  'exportActivity',
  'listAgents',
  'createAgent',
  'updateAgent',
  'revokeAgent',
  'getAgentConnection',
  'getSettings',
  'updateSettings',
  'signInConnectorGateway',
  'signOutConnectorGateway',
  'listConnections',
  'connectApp',
  'renameConnectorAccount',
  'listConnectorTools',
  'setConnectorToolPolicy',
] as const satisfies ReadonlyArray<Exclude<keyof ToolbridgeApi, 'on'>>;

export type UiMethod = (typeof UI_METHODS)[number];

export const UI_EVENTS = [
  'serverStatusChanged',
  'serverRemoved',
  'catalogChanged',
  'cardOpened',
  'cardUpdated',
  'cardResolved',
  'callUpdated',
  'activityAppended',
  'agentsChanged',
  'settingsChanged',
  'connectionsChanged',
] as const satisfies ReadonlyArray<keyof UiEventMap>;

/** A reply as it crosses IPC or the socket: a thrown class would not survive. */
export type UiReply =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; message: string; data?: JsonValue } };

/** WebSocket frames (web mode). The client sends requests; the host answers by id and pushes events. */
export interface UiSocketRequest {
  id: number;
  method: UiMethod;
  params: unknown[];
}

export type UiEvent = (typeof UI_EVENTS)[number];

export type UiSocketMessage =
  | { type: 'reply'; id: number | null; reply: UiReply }
  | { type: 'event'; event: UiEvent; payload: unknown };
