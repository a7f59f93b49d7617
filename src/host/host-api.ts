import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AgentRegistry, DEFAULT_CONTEXT_LENGTH_TOKENS } from '../agents/agent-registry.js';
import { clientConfigs } from '../agents/client-configs.js';
import {
  type ActivityPage,
  type ActivityQuery,
  type AgentConnectionInfo,
  type AgentView,
  type CardDecision,
  type CardView,
  type ImportReview,
  type PlaygroundSearchResult,
  type Policy,
  type PolicyRuleView,
  type SearchExplanationView,
  type ServerView,
  type SettingsPatch,
  type SettingsView,
  type TierView,
  type ToolbridgeApi,
  type ToolDefinitionView,
  type ToolView,
  UI_EVENTS,
  type UiEventMap,
} from '../api/ui-api.js';
import type { Approvals } from '../approvals/approvals.js';
import { approvalHash, connectorApprovalHash } from '../approvals/definition-hash.js';
import type { PolicyRule } from '../approvals/policy.js';
import { policyRuleId, policyRuleViews, type RuleTarget, toolPolicyView } from '../approvals/policy-view.js';
import { agentFacingName, type ToolKey } from '../approvals/tool-key.js';
import { POLICIES } from '../approvals/types.js';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import type { Disposable } from '../base/lifecycle.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, type SecretStore } from '../base/secret-store.js';
import { tierView } from '../bridge/bridge-tools.js';
import { resolveLimit } from '../bridge/tool-search.js';
import type { AgentSurface } from '../bridge/types.js';
import { TOOL_CALL_NAME } from '../catalog/naming.js';
import type { CatalogEntry, ToolDefinition } from '../catalog/types.js';
import type { SearchExplanation } from '../search/types.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ServerConfig } from '../servers/types.js';
import type { ConnectorSettings } from '../store/settings-schema.js';
import type { ConnectionCards } from './connection-cards.js';
import type { HostCatalog } from './host-catalog.js';
import type { HostSettings } from './host-settings.js';
import type { ServerSignIn } from './server-sign-in.js';
import { type ServersService, serverView } from './servers-service.js';
import type { UiPresence } from './ui-presence.js';

/** The agent id the playground's calls carry (audit log, cards). */
export const PLAYGROUND_AGENT_ID = 'playground';

/** What HostApi drives; the Host hands over its parts. */
export interface HostParts {
  dataDir: string;
  settings: HostSettings;
  secrets: SecretStore;
  servers: ServerManager;
  catalog: HostCatalog;
  approvals: Approvals;
  agents: AgentRegistry;
  events: UiEventHub;
  /** The run-only default policy from `--policy`; cleared when the user sets one. */
  policyOverride: { value: Policy | undefined };
  /** How a client starts our CLI (Claude Desktop snippet). */
  cli: { command: string; args: string[] };
  /** Open connection cards (`manage_connections`); undefined where no UI can show them. */
  connectionCards: ConnectionCards | undefined;
  /** Open UIs (web pages, the desktop window): cards open only while one is attached. */
  uiPresence: UiPresence;
  /** Opens a card's sign-in link for the person (desktop); undefined lets the UI open it. */
  openUrl: ((url: string) => void) | undefined;
  /** Sign-in to remote servers. */
  signIn: ServerSignIn;
  /** Masks held secrets and secret shapes; applied to every error message the UI API answers. */
  redact: (text: string) => string;
  /** The servers' one service (the UI API and manage_connections both call it). */
  serverService: ServersService;
  endpointUrl(): string | undefined;
  /** Rebuilds the catalog and tells agents whose tool list changed (after a reviewed change). */
  catalogChanged(): void;
  surfaceFor(agentId: string, contextLengthTokens?: number): AgentSurface;
}

type Listener = (payload: never) => void;

/** UI events by name; a throwing listener is logged and never stops the others. */
export class UiEventHub {
  private readonly listeners = new Map<keyof UiEventMap, Set<Listener>>();

  on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void {
    if (!(UI_EVENTS as readonly string[]).includes(event)) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `Unknown UI event "${String(event)}".`);
    }
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  fire<E extends keyof UiEventMap>(event: E, payload: UiEventMap[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (value: UiEventMap[E]) => void)(payload);
      } catch (error) {
        console.warn(`toolbridge: a "${event}" listener threw:`, error);
      }
    }
  }
}

/**
 * The UI API (src/api/ui-api.ts) over the running host. Both transports (Electron IPC, the web
 * UI's WebSocket) call this one object by method name.
 */
export class HostApi implements ToolbridgeApi {
  constructor(private readonly host: HostParts) {}

  /** Not a UI method: the dispatcher masks error messages with it before they leave the host. */
  redactText(text: string): string {
    return this.host.redact(text);
  }

  on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void {
    return this.host.events.on(event, listener);
  }

  // Servers ------------------------------------------------------------------------------------

  async listServers(): Promise<ServerView[]> {
    return this.host.serverService.listServers();
  }

  async addServer(config: ServerConfig): Promise<ServerView> {
    return this.host.serverService.addServer(config);
  }

  async updateServer(id: string, config: ServerConfig): Promise<ServerView> {
    return this.host.serverService.updateServer(id, config);
  }

  async removeServer(id: string): Promise<void> {
    return this.host.serverService.removeServer(id);
  }

  async setServerEnabled(id: string, enabled: boolean): Promise<ServerView> {
    return this.host.serverService.setServerEnabled(id, enabled);
  }

  async restartServer(id: string): Promise<ServerView> {
    return this.host.serverService.restartServer(id);
  }

  async authorizeServer(id: string): Promise<{ authorizationUrl: string }> {
    return this.host.serverService.authorizeServer(id);
  }

  async reviewImport(configText: string): Promise<ImportReview> {
    return this.host.serverService.reviewImport(configText);
  }

  async confirmImport(reviewId: string): Promise<ServerView[]> {
    return this.host.serverService.confirmImport(reviewId);
  }

  // Catalog ------------------------------------------------------------------------------------

  async listTools(serverId?: string): Promise<ToolView[]> {
    return this.host.catalog.entries
      .filter((entry) => serverId === undefined || entry.serverId === serverId)
      .map((entry) => this.#toolView(entry.name));
  }

  async setToolEnabled(name: string, enabled: boolean): Promise<ToolView> {
    return this.#setToolChoice(name, { enabled });
  }

  async setToolPinned(name: string, pinned: boolean): Promise<ToolView> {
    return this.#setToolChoice(name, { pinned });
  }

  async acceptToolChange(name: string): Promise<ToolView> {
    const entry = this.#requireTool(name);
    const { catalog, approvals } = this.host;
    const definition = catalog.definition(name);
    if (catalog.heldAgainst(name) === undefined || definition === undefined) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Tool "${name}" has no changed definition waiting for review.`,
      );
    }
    await approvals.reviews.accept({ serverId: entry.serverId, toolName: entry.toolName }, definition);
    this.host.catalogChanged();
    return this.#toolView(name);
  }

  async getTier(options: { agentId?: string; contextLengthTokens?: number }): Promise<TierView> {
    let contextLength = options.contextLengthTokens;
    if (contextLength === undefined && options.agentId !== undefined) {
      const agent = this.host.agents.get(options.agentId);
      if (agent === undefined) throw new ToolbridgeError('NOT_FOUND', `No agent "${options.agentId}".`);
      contextLength = agent.contextLengthTokens;
    }
    contextLength ??= DEFAULT_CONTEXT_LENGTH_TOKENS;
    if (!Number.isFinite(contextLength) || contextLength < 0) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'contextLengthTokens must be a positive number of tokens.',
      );
    }
    const plan = this.host.catalog.plan(contextLength);
    return tierView(plan, this.host.catalog.surface(contextLength).listTools(), contextLength);
  }

  // Policies -----------------------------------------------------------------------------------

  async setServerPolicy(serverId: string, policy: Policy | null): Promise<ServerView> {
    const value = policyArgument(policy);
    this.host.serverService.requireServer(serverId);
    await this.#setPolicy('server', serverId, value, serverId);
    return serverView(this.host, serverId);
  }

  async setToolPolicy(name: string, policy: Policy | null): Promise<ToolView> {
    const value = policyArgument(policy);
    const entry = this.#requireTool(name);
    await this.#setPolicy('tool', name, value, entry.serverId);
    return this.#toolView(name);
  }

  async listPolicyRules(): Promise<PolicyRuleView[]> {
    return policyRuleViews(this.host.settings.current.policies.rules, (key) => this.#ruleTarget(key));
  }

  async removePolicyRule(id: string): Promise<PolicyRuleView[]> {
    if (typeof id !== 'string' || id === '') {
      throw new ToolbridgeError('INVALID_ARGUMENT', 'Send the id of a rule from listPolicyRules.');
    }
    const rule = this.host.settings.current.policies.rules.find((held) => policyRuleId(held) === id);
    if (rule === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        `No saved rule has the id "${id}"; it may have been removed already. Reload the list of rules.`,
      );
    }
    const [view] = policyRuleViews([rule], (key) => this.#ruleTarget(key));
    await this.host.settings.update((draft) => {
      draft.policies.rules = draft.policies.rules.filter((held) => policyRuleId(held) !== id);
      return draft;
    });
    // The gate's copy of an "always allow" from this session must go too, or it would still allow.
    if (rule.policy === 'allow' && rule.toolName !== undefined) {
      this.host.approvals.forgetAlwaysAllow({
        serverId: rule.serverId,
        toolName: rule.toolName,
        ...(rule.account === undefined ? {} : { account: rule.account }),
      });
    }
    await this.host.approvals.recordPolicyChange({
      serverId: rule.serverId,
      toolName: view?.name ?? '',
      change: { setting: 'rule', removed: ruleData(rule) },
      message: `Removed a saved rule: ${view?.description ?? ''}`,
    });
    return this.listPolicyRules();
  }

  // Playground ---------------------------------------------------------------------------------

  async search(queries: string[], limit?: number): Promise<PlaygroundSearchResult> {
    const { catalog, settings } = this.host;
    const surface = catalog.surface(DEFAULT_CONTEXT_LENGTH_TOKENS);
    const response = (await surface.toolSearch(
      limit === undefined ? { queries } : { queries, limit },
    )) as unknown as JsonObject;
    if ('error' in response) return { response, explanations: [] };
    const { searchDefaultLimit, maxSearchLimit } = settings.current.toolSearch;
    const resolved = resolveLimit(limit, { defaultLimit: searchDefaultLimit, maxLimit: maxSearchLimit });
    const explanations = (response.queries as string[]).map((query) =>
      explanationView(query, catalog.index().search(query, { limit: resolved, explain: true }).explanation),
    );
    return { response, explanations };
  }

  async describe(names: string[]): Promise<JsonObject> {
    const surface = this.host.catalog.surface(DEFAULT_CONTEXT_LENGTH_TOKENS);
    return (await surface.toolDescribe({ names })) as unknown as JsonObject;
  }

  /** Runs a tool the way an agent would (through tool_call when it defers), approvals included. */
  async call(name: string, args: JsonObject): Promise<CallToolResult> {
    const entry = this.host.catalog.entry(name);
    if (entry === undefined)
      throw new ToolbridgeError('NOT_FOUND', `No tool "${name}". List the tools to see the names.`);
    const plan = this.host.catalog.plan(DEFAULT_CONTEXT_LENGTH_TOKENS);
    const surface = this.host.surfaceFor(PLAYGROUND_AGENT_ID, DEFAULT_CONTEXT_LENGTH_TOKENS);
    const context = { agentId: PLAYGROUND_AGENT_ID };
    const direct = plan.directNames.toDirect(name);
    if (direct !== undefined) return surface.callTool(direct, args, context);
    // Deferred, or known but out of reach (turned off): the bridge answers as it would an agent.
    if (plan.activated)
      return surface.callTool(TOOL_CALL_NAME, { calls: [{ name, arguments: args }] }, context);
    throw new ToolbridgeError(
      'NOT_FOUND',
      `'${name}' is not available to agents right now: it is turned off or its server is down.`,
    );
  }

  // Cards and activity -------------------------------------------------------------------------

  async listCards(): Promise<CardView[]> {
    return [...this.host.approvals.listCards(), ...(this.host.connectionCards?.list() ?? [])];
  }

  async resolveCard(id: string, decision: CardDecision): Promise<void> {
    const cards = this.host.connectionCards;
    if (cards?.has(id)) {
      // A connection card only stops (or is dismissed); its targets are decided one by one.
      if (decision.action !== 'stop' && decision.action !== 'deny') {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          'A connection card has no approve: connect or skip each target, or stop the card.',
        );
      }
      cards.stop(id);
      return;
    }
    this.host.approvals.resolveCard(id, decision);
  }

  async resolveConnectionTarget(cardId: string, target: string, action: 'connect' | 'skip'): Promise<void> {
    const cards = this.host.connectionCards;
    if (cards === undefined || !cards.has(cardId)) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This connection card is no longer open: it was finished, stopped or timed out.',
      );
    }
    if (action === 'skip') return cards.skip(cardId, target);
    if (action !== 'connect')
      throw new ToolbridgeError('INVALID_ARGUMENT', 'action must be "connect" or "skip".');
    const row = cards.target(cardId, target);
    if (row.kind === 'mcp' && row.connectUrl === undefined) return cards.confirm(cardId, target);
    if (row.connectUrl === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        `"${target}" has no sign-in link yet; wait a moment and try again.`,
      );
    }
    // The card's poller sees the account once it is linked; nothing else changes here.
    this.host.openUrl?.(row.connectUrl);
  }

  async queryActivity(query: ActivityQuery): Promise<ActivityPage> {
    return this.host.approvals.queryActivity(query);
  }

  async exportActivity(format: 'jsonl' | 'csv', query?: ActivityQuery): Promise<string> {
    return this.host.approvals.exportActivity(format, query);
  }

  // Agents -------------------------------------------------------------------------------------

  async listAgents(): Promise<AgentView[]> {
    return this.host.agents.list();
  }

  async createAgent(name: string, contextLengthTokens?: number): Promise<AgentView> {
    return (await this.host.agents.create(name, contextLengthTokens)).agent;
  }

  async updateAgent(id: string, patch: { name?: string; contextLengthTokens?: number }): Promise<AgentView> {
    return this.host.agents.update(id, patch);
  }

  async revokeAgent(id: string): Promise<void> {
    await this.host.agents.revoke(id);
  }

  async getAgentConnection(id: string): Promise<AgentConnectionInfo> {
    const endpointUrl = this.host.endpointUrl();
    if (endpointUrl === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'The agent endpoint is not running in this process; start toolbridge serve.',
      );
    }
    const token = await this.host.agents.token(id);
    return { endpointUrl, token, configs: clientConfigs({ endpointUrl, token, cli: this.host.cli }) };
  }

  // Settings -----------------------------------------------------------------------------------

  async getSettings(): Promise<SettingsView> {
    return settingsView(this.host);
  }

  async updateSettings(patch: SettingsPatch): Promise<SettingsView> {
    const allowed = [
      'toolSearch',
      'defaultPolicy',
      'cardTimeoutMs',
      'callTimeoutMs',
      'maxResultBytes',
      'redactionPatterns',
      'connectors',
    ];
    const unknown = Object.keys(patch).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Unknown setting(s): ${unknown.join(', ')}. Settings you can change: ${allowed.join(', ')}.`,
      );
    }
    await this.host.settings.update((draft) => {
      if (patch.toolSearch !== undefined) draft.toolSearch = { ...draft.toolSearch, ...patch.toolSearch };
      if (patch.defaultPolicy !== undefined) draft.policies.default = patch.defaultPolicy;
      if (patch.cardTimeoutMs !== undefined) draft.cardTimeoutMs = patch.cardTimeoutMs;
      if (patch.callTimeoutMs !== undefined) draft.callTimeoutMs = patch.callTimeoutMs;
      if (patch.maxResultBytes !== undefined) draft.maxResultBytes = patch.maxResultBytes;
      if (patch.redactionPatterns !== undefined) draft.redactionPatterns = patch.redactionPatterns;
      if (patch.connectors !== undefined)
        draft.connectors = patchConnectors(draft.connectors, patch.connectors);
      return draft;
    });
    // The user's own choice replaces the run-only `--policy`.
    if (patch.defaultPolicy !== undefined) this.host.policyOverride.value = undefined;
    return settingsView(this.host);
  }

  /** Not a UI method: a transport calls it while a page or window is open (see UiPresence). */
  attachUi(): Disposable {
    return this.host.uiPresence.attach();
  }

  async signInConnectorGateway(token: string): Promise<SettingsView> {
    const trimmed = typeof token === 'string' ? token.trim() : '';
    if (trimmed === '') {
      throw new ToolbridgeError('INVALID_ARGUMENT', 'Paste the connector gateway token to sign in.');
    }
    await this.host.secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, trimmed);
    return this.#connectorsChanged();
  }

  async signOutConnectorGateway(): Promise<SettingsView> {
    await this.host.secrets.delete(CONNECTOR_GATEWAY_TOKEN_KEY);
    return this.#connectorsChanged();
  }

  // Helpers -------------------------------------------------------------------------------------

  /** The token is not a setting, so its change is announced here (the gateway client reads it per request). */
  async #connectorsChanged(): Promise<SettingsView> {
    const view = await settingsView(this.host);
    this.host.events.fire('settingsChanged', view);
    return view;
  }

  #toolView(name: string): ToolView {
    const { catalog, settings, approvals, policyOverride } = this.host;
    const entry = this.#requireTool(name);
    const current = settings.current;
    const choice = current.tools[name] ?? {};
    const decision = approvals.decide({
      serverId: entry.serverId,
      toolName: entry.toolName,
      definitionHash: approvalHash(entry, (name) => catalog.definitionHash(name)),
      annotations: entry.annotations,
    });
    const plan = catalog.plan(DEFAULT_CONTEXT_LENGTH_TOKENS);
    const view: ToolView = {
      name,
      serverId: entry.serverId,
      toolName: entry.toolName,
      description: entry.description,
      enabled: choice.enabled !== false,
      pinned: choice.pinned === true,
      deferred: plan.deferred.some((deferred) => deferred.name === name),
      policy: toolPolicyView(
        entry,
        decision,
        current.policies.tools[name],
        policyOverride.value !== undefined,
      ),
    };
    if (entry.inputSchema !== undefined) view.inputSchema = entry.inputSchema;
    const directName = plan.directNames.toDirect(name);
    if (directName !== undefined && directName !== name) view.directName = directName;
    if (entry.annotations?.readOnlyHint !== undefined) view.readOnlyHint = entry.annotations.readOnlyHint;
    const reviewed = catalog.heldAgainst(name);
    const definition = catalog.definition(name);
    if (reviewed !== undefined && definition !== undefined) {
      view.change = {
        reviewed: definitionView(reviewed.definition),
        reviewedAt: reviewed.reviewedAt,
        current: definitionView(definition),
      };
    }
    return view;
  }

  async #setToolChoice(name: string, choice: { enabled?: boolean; pinned?: boolean }): Promise<ToolView> {
    this.#requireTool(name);
    await this.host.settings.update((draft) => {
      draft.tools[name] = { ...draft.tools[name], ...choice };
      return draft;
    });
    return this.#toolView(name);
  }

  /** Sets or clears one entry of `policies.servers` or `policies.tools` and audits it; a no-op writes nothing. */
  async #setPolicy(
    setting: 'server' | 'tool',
    key: string,
    value: Policy | null,
    serverId: string,
  ): Promise<void> {
    const map = setting === 'server' ? 'servers' : 'tools';
    const previous = this.host.settings.current.policies[map][key];
    if (previous === (value ?? undefined)) return;
    await this.host.settings.update((draft) => {
      if (value === null) delete draft.policies[map][key];
      else draft.policies[map][key] = value;
      return draft;
    });
    const what = setting === 'server' ? `server "${key}"` : key;
    const then =
      setting === 'server' ? 'its tools follow the default' : 'it follows its server or the default';
    await this.host.approvals.recordPolicyChange({
      serverId,
      toolName: setting === 'server' ? '' : key,
      change: { setting, policy: value ?? 'inherit', previous: previous ?? 'inherit' },
      message:
        value === null
          ? `Cleared the policy of ${what} (was ${previous}); ${then}.`
          : `Set the policy of ${what} to ${value} (was ${previous ?? 'inherit'}).`,
    });
  }

  #requireTool(name: string): CatalogEntry {
    const entry = typeof name === 'string' ? this.host.catalog.entry(name) : undefined;
    if (entry === undefined) {
      throw new ToolbridgeError('NOT_FOUND', `No tool "${String(name)}". List the tools to see the names.`);
    }
    return entry;
  }

  /** The catalog's tool for a rule's (server, tool) key, with the hash an approval binds to. */
  /**
   * The tool a rule is about, as it is listed now. Connector tools live on the gateway, not in the
   * catalog, and their approvals bind to the name alone, so a rule holding that name's hash is
   * about that connector tool.
   */
  #ruleTarget(rule: ToolKey & Pick<PolicyRule, 'definitionHash'>): RuleTarget | undefined {
    const { catalog } = this.host;
    const entry = [agentFacingName('mcp', rule), agentFacingName('connectors', rule)]
      .map((name) => catalog.entry(name))
      .find((found) => found?.serverId === rule.serverId && found.toolName === rule.toolName);
    if (entry !== undefined)
      return {
        name: entry.name,
        definitionHash: approvalHash(entry, (name) => catalog.definitionHash(name)),
      };
    const name = agentFacingName('connectors', rule);
    const hash = connectorApprovalHash(name);
    return rule.definitionHash === hash ? { name, definitionHash: hash } : undefined;
  }
}

/** The parts of a definition the person reviews, as the UI shows them. */
function definitionView(definition: ToolDefinition): ToolDefinitionView {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(inputSchema === undefined ? {} : { inputSchema }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations: annotations as JsonObject }),
  };
}

const POLICY_VALUES: readonly unknown[] = POLICIES;

/** A policy sent by the UI: one of the three, or null to clear the setting. */
function policyArgument(value: unknown): Policy | null {
  if (value === null || POLICY_VALUES.includes(value)) return value as Policy | null;
  throw new ToolbridgeError(
    'INVALID_ARGUMENT',
    `A policy must be "allow", "ask" or "deny", or null to inherit; got ${JSON.stringify(value) ?? String(value)}.`,
  );
}

/** A rule as JSON data for the audit log. */
function ruleData(rule: PolicyRule): JsonObject {
  return JSON.parse(JSON.stringify(rule)) as JsonObject;
}

/** The settings the UI edits, with the effective default policy (a `--policy` run override wins). */
export async function settingsView(
  host: Pick<HostParts, 'settings' | 'policyOverride' | 'dataDir' | 'secrets'>,
): Promise<SettingsView> {
  const current = host.settings.current;
  const signedIn = (await host.secrets.get(CONNECTOR_GATEWAY_TOKEN_KEY)) !== undefined;
  return {
    toolSearch: current.toolSearch,
    defaultPolicy: host.policyOverride.value ?? current.policies.default,
    cardTimeoutMs: current.cardTimeoutMs,
    callTimeoutMs: current.callTimeoutMs,
    maxResultBytes: current.maxResultBytes,
    redactionPatterns: current.redactionPatterns,
    dataDir: host.dataDir,
    secretStoreKind: host.secrets.kind,
    connectors: {
      ...(current.connectors.gatewayUrl === undefined ? {} : { gatewayUrl: current.connectors.gatewayUrl }),
      enabled: current.connectors.enabled,
      signedIn,
    },
  };
}

/** Applies the UI's connector patch; the settings check validates the URL on write. */
function patchConnectors(
  current: ConnectorSettings,
  patch: NonNullable<SettingsPatch['connectors']>,
): ConnectorSettings {
  if (!isPlainObject(patch)) {
    throw new ToolbridgeError('INVALID_ARGUMENT', 'connectors must be an object: { gatewayUrl, enabled }.');
  }
  const next: ConnectorSettings = { ...current };
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.gatewayUrl === null || patch.gatewayUrl?.trim() === '') delete next.gatewayUrl;
  else if (patch.gatewayUrl !== undefined) next.gatewayUrl = patch.gatewayUrl.trim();
  return next;
}

function explanationView(query: string, explanation: SearchExplanation | undefined): SearchExplanationView {
  if (explanation === undefined) return { query, answerableTerms: [], matches: [] };
  const view: SearchExplanationView = {
    query,
    answerableTerms: explanation.answerableTerms,
    matches: explanation.matches.map(({ name, score, terms }) => ({ name, score, terms })),
  };
  if (explanation.gateToken !== undefined) view.gateToken = explanation.gateToken;
  if (explanation.corrections.length > 0) view.corrections = explanation.corrections;
  if (explanation.unknownWords.length > 0) {
    view.unknownWords = explanation.unknownWords.map((word) => ({
      word,
      why: explanation.whyUnknown[word] ?? 'no tool mentions it',
    }));
  }
  return view;
}
