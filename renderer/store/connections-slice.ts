import type {
  ConnectionsView,
  ConnectorAppToolsView,
  ConnectorToolView,
  Policy,
  ToolbridgeApi,
} from '../../src/api/ui-api.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

/** The Connections view's data: the gateway's apps (or why there are none) and each opened app's tools. */
export interface ConnectionsSlice {
  /** Undefined until the view first asks; the host answers a state, never throws, for a missing gateway. */
  appConnections: ConnectionsView | undefined;
  /** Tools by connector, for the apps whose tools were opened. */
  connectorTools: Record<string, ConnectorAppToolsView>;
  loadConnections(): Promise<Outcome<ConnectionsView>>;
  /** Starts linking; `waiting` carries the page to open. */
  connectApp(
    connector: string,
    options?: { alias?: string; reconnect?: boolean },
  ): Promise<Outcome<{ status: 'connected' | 'waiting'; connectUrl?: string }>>;
  renameConnectorAccount(connector: string, alias: string, to: string): Promise<Outcome<ConnectionsView>>;
  loadConnectorTools(connector: string): Promise<Outcome<ConnectorAppToolsView>>;
  setConnectorToolPolicy(name: string, policy: Policy | null): Promise<Outcome<ConnectorToolView>>;
  /** From `connectionsChanged` and `settingsChanged`: list again, once the view has asked. */
  connectionsChanged(): void;
}

export const createConnectionsSlice =
  (api: ToolbridgeApi): Slice<ConnectionsSlice> =>
  (set, get) => {
    // A slow answer must not overwrite a newer one (events come in bursts while a card settles).
    let request = 0;
    const keep = async (call: () => Promise<ConnectionsView>): Promise<Outcome<ConnectionsView>> => {
      const mine = ++request;
      const outcome = await attempt(call);
      if (outcome.ok && mine === request) set({ appConnections: outcome.value });
      return outcome;
    };
    return {
      appConnections: undefined,
      connectorTools: {},
      loadConnections: () => keep(() => api.listConnections()),
      connectApp: (connector, options) => attempt(() => api.connectApp(connector, options)),
      renameConnectorAccount: (connector, alias, to) =>
        keep(() => api.renameConnectorAccount(connector, alias, to)),
      async loadConnectorTools(connector) {
        const outcome = await attempt(() => api.listConnectorTools(connector));
        if (outcome.ok)
          set((state) => ({ connectorTools: { ...state.connectorTools, [connector]: outcome.value } }));
        return outcome;
      },
      async setConnectorToolPolicy(name, policy) {
        const outcome = await attempt(() => api.setConnectorToolPolicy(name, policy));
        if (!outcome.ok) return outcome;
        const tool = outcome.value;
        set((state) => {
          const listed = state.connectorTools[tool.connector];
          if (listed === undefined) return {};
          const tools = listed.tools.map((held) => (held.name === tool.name ? tool : held));
          return { connectorTools: { ...state.connectorTools, [tool.connector]: { ...listed, tools } } };
        });
        return outcome;
      },
      connectionsChanged() {
        if (get().appConnections !== undefined) void get().loadConnections();
      },
    };
  };
