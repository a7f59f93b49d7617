import { Emitter, type Event } from '../base/emitter.js';
import type { Disposable } from '../base/lifecycle.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, type SecretStore } from '../base/secret-store.js';
import type { ConnectorBackend, ConnectorLegs, DirectTool } from '../bridge/types.js';
import { ConnectionHold } from '../connectors/connection-hold.js';
import { ConnectorExecutor } from '../connectors/connector-executor.js';
import { gatewayConnectorLegs } from '../connectors/connector-legs.js';
import { GatewayClient } from '../connectors/gateway-client.js';
import {
  type ConnectionCardPort,
  ConnectionManager,
  type McpServerActions,
  manageConnectionsTool,
} from '../connectors/manage-connections.js';
import { connectorGatewayUrl } from '../connectors/settings.js';
import type { Settings } from './settings-document.js';

/** What an agent session gets for connections. */
export interface ConnectorParts {
  /**
   * Always listed: the MCP actions (install, enable, authorize) need no gateway, and without one
   * the hosted actions say that connector accounts are not set up.
   */
  manageConnections: DirectTool;
  /** The one manager behind it, which the Connections view drives too. */
  manager: ConnectionManager;
  /** The gateway client it uses (the view lists an app's tools with it). */
  client: GatewayClient;
  /** Present while a connector gateway is configured: only then are `connectors__` names in scope. */
  gateway?: { legs: ConnectorLegs; backend: ConnectorBackend; client: GatewayClient };
}

export interface HostConnectorsOptions {
  settings: () => Settings;
  secrets: Pick<SecretStore, 'get'>;
  /** Where connection cards open; absent (no UI) means answers carry sign-in links instead. */
  cards?: ConnectionCardPort;
  /** Whether a UI is connected to show a card now; without one, answers carry links. @defaultValue () => true */
  uiPresent?: () => boolean;
  /** install / enable / authorize for local MCP servers. */
  mcp?: McpServerActions;
}

/**
 * `manage_connections` and the hosted connectors, built from the settings: one gateway client
 * shared by the tool, the search legs and the executor while a gateway URL is set. Rebuilt only
 * when the URL or the card timeout changes; the token is read from the secret store on every
 * request, so signing in takes effect at once.
 */
export class HostConnectors implements Disposable {
  private key: string | undefined;
  private parts: ConnectorParts | undefined;
  private forwarding: Disposable | undefined;
  private readonly _onDidChangeConnections = new Emitter<string>();
  /** Some app's accounts changed (see ConnectionManager.onDidChangeConnections), whichever manager is current. */
  readonly onDidChangeConnections: Event<string> = this._onDidChangeConnections.event;

  constructor(private readonly options: HostConnectorsOptions) {}

  dispose(): void {
    this.forwarding?.dispose();
    this.parts?.manager.dispose();
    this._onDidChangeConnections.dispose();
  }

  current(): ConnectorParts {
    const settings = this.options.settings();
    const baseUrl = connectorGatewayUrl(settings.connectors);
    const key = `${baseUrl ?? ''} ${settings.cardTimeoutMs}`;
    if (this.parts === undefined || key !== this.key) {
      this.key = key;
      this.forwarding?.dispose();
      this.parts?.manager.dispose();
      this.parts = this.build(baseUrl, settings.cardTimeoutMs);
      this.forwarding = this.parts.manager.onDidChangeConnections((connector) =>
        this._onDidChangeConnections.fire(connector),
      );
    }
    return this.parts;
  }

  private build(baseUrl: string | undefined, cardTimeoutMs: number): ConnectorParts {
    const { secrets, cards } = this.options;
    const uiPresent = this.options.uiPresent ?? (() => true);
    const client = new GatewayClient({ baseUrl, token: () => secrets.get(CONNECTOR_GATEWAY_TOKEN_KEY) });
    const manager = new ConnectionManager({
      client,
      cardTimeoutMs,
      ...(cards === undefined ? {} : { cards, cardsAvailable: uiPresent }),
      ...(this.options.mcp === undefined ? {} : { mcp: this.options.mcp }),
    });
    const manageConnections = manageConnectionsTool(manager);
    if (baseUrl === undefined) return { manageConnections, manager, client };
    const executor = new ConnectorExecutor({
      client,
      surface: () => (manager.canShowCards ? 'card' : 'link'),
    });
    return {
      manageConnections,
      manager,
      client,
      gateway: {
        legs: gatewayConnectorLegs(client),
        // A CONNECTION_REQUIRED entry waits behind a connection card while a UI can show one.
        backend: new ConnectionHold(executor, manager),
        client,
      },
    };
  }
}
