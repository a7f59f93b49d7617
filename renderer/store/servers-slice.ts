import type {
  CatalogServerView,
  ImportReview,
  Policy,
  ServerConfig,
  ServerView,
  ToolbridgeApi,
} from '../../src/api/ui-api.js';
import type { CatalogSlice } from './catalog-slice.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface ServersSlice {
  /** Servers by id, as the host last reported them. */
  servers: Record<string, ServerView>;
  serversLoaded: boolean;
  loadServers(): Promise<Outcome<ServerView[]>>;
  addServer(config: ServerConfig): Promise<Outcome<ServerView>>;
  updateServer(id: string, config: ServerConfig): Promise<Outcome<ServerView>>;
  /** What a pasted config would add, for review; nothing is added or started. */
  reviewImport(configText: string): Promise<Outcome<ImportReview>>;
  /** Adds and starts exactly the servers of a review the person read. */
  confirmImport(reviewId: string): Promise<Outcome<ServerView[]>>;
  /** The bundled install catalog (installing one is addServer, after the review). */
  listCatalogServers(): Promise<Outcome<CatalogServerView[]>>;
  removeServer(id: string): Promise<Outcome<void>>;
  setServerEnabled(id: string, enabled: boolean): Promise<Outcome<ServerView>>;
  restartServer(id: string): Promise<Outcome<ServerView>>;
  /** The server's approval policy for its tools without their own; `null` inherits the default. */
  setServerPolicy(id: string, policy: Policy | null): Promise<Outcome<ServerView>>;
  /** Starts a remote server's sign-in; the answer is the page to open in the browser. */
  authorizeServer(id: string): Promise<Outcome<{ authorizationUrl: string }>>;
  /** From the host's `serverStatusChanged` event. */
  serverChanged(view: ServerView): void;
  /** From the host's `serverRemoved` event. */
  serverRemoved(id: string): void;
}

export const createServersSlice =
  (api: ToolbridgeApi): Slice<ServersSlice, CatalogSlice> =>
  (set, get) => {
    /** Runs a call that answers with one server and keeps that answer. */
    const withServer = async (call: () => Promise<ServerView>): Promise<Outcome<ServerView>> => {
      const outcome = await attempt(call);
      if (outcome.ok) get().serverChanged(outcome.value);
      return outcome;
    };
    return {
      servers: {},
      serversLoaded: false,
      async loadServers() {
        const outcome = await attempt(() => api.listServers());
        if (outcome.ok) {
          set({ servers: Object.fromEntries(outcome.value.map((s) => [s.id, s])), serversLoaded: true });
        }
        return outcome;
      },
      addServer: (config) => withServer(() => api.addServer(config)),
      updateServer: (id, config) => withServer(() => api.updateServer(id, config)),
      setServerEnabled: (id, enabled) => withServer(() => api.setServerEnabled(id, enabled)),
      restartServer: (id) => withServer(() => api.restartServer(id)),
      async setServerPolicy(id, policy) {
        const outcome = await withServer(() => api.setServerPolicy(id, policy));
        // Every tool of the server that inherits now shows another effective policy.
        if (outcome.ok) await get().loadTools();
        return outcome;
      },
      authorizeServer: (id) => attempt(() => api.authorizeServer(id)),
      reviewImport: (configText) => attempt(() => api.reviewImport(configText)),
      listCatalogServers: () => attempt(() => api.listCatalogServers()),
      async confirmImport(reviewId) {
        const outcome = await attempt(() => api.confirmImport(reviewId));
        if (outcome.ok) for (const view of outcome.value) get().serverChanged(view);
        return outcome;
      },
      async removeServer(id) {
        const outcome = await attempt(() => api.removeServer(id));
        if (outcome.ok) get().serverRemoved(id);
        return outcome;
      },
      serverChanged(view) {
        set((state) => ({ servers: { ...state.servers, [view.id]: view } }));
      },
      serverRemoved(id) {
        set((state) => {
          const { [id]: _gone, ...servers } = state.servers;
          const { [id]: _tools, ...tools } = state.tools;
          return { servers, tools };
        });
      },
    };
  };
