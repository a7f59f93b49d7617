import type { AgentRegistry } from '../agents/agent-registry.js';
import type { Policy, ToolbridgeApi, UiMethod } from '../api/ui-api.js';
import type { Approvals } from '../approvals/approvals.js';
import type { RequestCards } from '../approvals/request-cards.js';
import type { SecretStore } from '../base/secret-store.js';
import type { AgentSurface } from '../bridge/types.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { CallBoard } from './call-board.js';
import type { ConnectionCards } from './connection-cards.js';
import type { ConnectorToolCount } from './connector-tool-count.js';
import type { HostCatalog } from './host-catalog.js';
import type { HostConnectors } from './host-connectors.js';
import type { HostSettings } from './host-settings.js';
import type { ServerSignIn } from './server-sign-in.js';
import type { ServersService } from './servers-service.js';
import type { UiEventHub } from './ui-event-hub.js';
import type { UiPresence } from './ui-presence.js';

/** What the UI API drives; the Host hands over its parts, and each slice takes the few it needs. */
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
  /** The connector gateway's parts (manage_connections' manager, the client), rebuilt as settings change. */
  connectors: HostConnectors;
  /** Open connection cards (`manage_connections`); undefined where no UI can show them. */
  connectionCards: ConnectionCards | undefined;
  /** Each tool_call that needed the person, as one card, and the recent ones. */
  calls: CallBoard;
  /** How many connector tools the gateway offers (the Tiers view). */
  connectorToolCount: ConnectorToolCount;
  /** Open elicitation and sampling cards (servers' requests); undefined where no UI can show them. */
  requestCards: RequestCards | undefined;
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

/**
 * One domain's part of the UI API (the zustand slices pattern, host side): a factory over the
 * parts `P` it needs, returning the UI methods `M` it answers.
 */
export type UiApiSlice<P extends keyof HostParts, M extends UiMethod> = (
  parts: Pick<HostParts, P>,
) => Pick<ToolbridgeApi, M>;
