import { DEFAULT_CONTEXT_LENGTH_TOKENS } from '../../agents/agent-registry.js';
import type { ToolView } from '../../api/ui-api.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { UiApiSlice } from '../host-parts.js';
import { tierView } from './tier-view.js';
import { requireTool, type ToolViewParts, toolView } from './tool-view.js';

/** The catalog's tools: listing, the person's on/off and pin choices, and the tier an agent gets. */
export const toolsSlice: UiApiSlice<
  keyof ToolViewParts | 'agents' | 'connectorToolCount',
  'listTools' | 'setToolEnabled' | 'setToolPinned' | 'getTier'
> = (parts) => {
  const { catalog, settings, agents, connectorToolCount } = parts;

  const setToolChoice = async (
    name: string,
    choice: { enabled?: boolean; pinned?: boolean },
  ): Promise<ToolView> => {
    requireTool(catalog, name);
    await settings.update((draft) => {
      draft.tools[name] = { ...draft.tools[name], ...choice };
      return draft;
    });
    return toolView(parts, name);
  };

  return {
    listTools: async (serverId) =>
      catalog.entries
        .filter((entry) => serverId === undefined || entry.serverId === serverId)
        .map((entry) => toolView(parts, entry.name)),

    setToolEnabled: async (name, enabled) => setToolChoice(name, { enabled }),

    setToolPinned: async (name, pinned) => setToolChoice(name, { pinned }),

    getTier: async (options) => {
      let contextLength = options.contextLengthTokens;
      if (contextLength === undefined && options.agentId !== undefined) {
        const agent = agents.get(options.agentId);
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
      const plan = catalog.plan(contextLength);
      const tools = catalog.surface(contextLength).listTools();
      return tierView(plan, tools, contextLength, await connectorToolCount.current());
    },
  };
};
