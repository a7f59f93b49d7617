import type { AgentConnectionInfo, AgentView, ToolbridgeApi } from '../../src/api/ui-api.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface AgentsSlice {
  agents: AgentView[];
  agentsLoaded: boolean;
  /** Endpoint, token and client configs, fetched when an agent is opened. */
  connections: Record<string, AgentConnectionInfo>;
  loadAgents(): Promise<Outcome<AgentView[]>>;
  createAgent(name: string, contextLengthTokens?: number): Promise<Outcome<AgentView>>;
  updateAgent(
    id: string,
    patch: { name?: string; contextLengthTokens?: number },
  ): Promise<Outcome<AgentView>>;
  revokeAgent(id: string): Promise<Outcome<void>>;
  loadConnection(id: string): Promise<Outcome<AgentConnectionInfo>>;
  /** From `agentsChanged`. */
  agentsChanged(agents: AgentView[]): void;
}

export const createAgentsSlice =
  (api: ToolbridgeApi): Slice<AgentsSlice> =>
  (set) => {
    const upsert = (agent: AgentView) =>
      set((state) => ({
        agents: state.agents.some((a) => a.id === agent.id)
          ? state.agents.map((a) => (a.id === agent.id ? agent : a))
          : [...state.agents, agent],
      }));
    return {
      agents: [],
      agentsLoaded: false,
      connections: {},
      async loadAgents() {
        const outcome = await attempt(() => api.listAgents());
        if (outcome.ok) set({ agents: outcome.value, agentsLoaded: true });
        return outcome;
      },
      async createAgent(name, contextLengthTokens) {
        const outcome = await attempt(() => api.createAgent(name, contextLengthTokens));
        if (outcome.ok) upsert(outcome.value);
        return outcome;
      },
      async updateAgent(id, patch) {
        const outcome = await attempt(() => api.updateAgent(id, patch));
        if (outcome.ok) upsert(outcome.value);
        return outcome;
      },
      async revokeAgent(id) {
        const outcome = await attempt(() => api.revokeAgent(id));
        if (outcome.ok) {
          set((state) => {
            const { [id]: _revoked, ...connections } = state.connections;
            return { agents: state.agents.filter((a) => a.id !== id), connections };
          });
        }
        return outcome;
      },
      async loadConnection(id) {
        const outcome = await attempt(() => api.getAgentConnection(id));
        if (outcome.ok) set((state) => ({ connections: { ...state.connections, [id]: outcome.value } }));
        return outcome;
      },
      agentsChanged(agents) {
        const ids = new Set(agents.map((a) => a.id));
        set((state) => ({
          agents,
          connections: Object.fromEntries(Object.entries(state.connections).filter(([id]) => ids.has(id))),
        }));
      },
    };
  };
