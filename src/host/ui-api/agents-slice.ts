import { clientConfigs } from '../../agents/client-configs.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { UiApiSlice } from '../host-parts.js';

/** Agents: their records and tokens, and the copy-paste config for each client. */
export const agentsSlice: UiApiSlice<
  'agents' | 'endpointUrl' | 'cli',
  'listAgents' | 'createAgent' | 'updateAgent' | 'revokeAgent' | 'getAgentConnection'
> = (parts) => {
  const { agents } = parts;
  return {
    listAgents: async () => agents.list(),
    createAgent: async (name, contextLengthTokens) => (await agents.create(name, contextLengthTokens)).agent,
    updateAgent: async (id, patch) => agents.update(id, patch),
    revokeAgent: async (id) => {
      await agents.revoke(id);
    },
    getAgentConnection: async (id) => {
      const endpointUrl = parts.endpointUrl();
      if (endpointUrl === undefined) {
        throw new ToolbridgeError(
          'NOT_FOUND',
          'The agent endpoint is not running in this process; start toolbridge serve.',
        );
      }
      const token = await agents.token(id);
      return { endpointUrl, token, configs: clientConfigs({ endpointUrl, token, cli: parts.cli }) };
    },
  };
};
