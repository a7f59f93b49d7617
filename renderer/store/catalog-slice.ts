import type { Policy, TierView, ToolbridgeApi, ToolView } from '../../src/api/ui-api.js';
import { attempt, type Outcome, type UiError } from './outcome.js';
import type { Slice } from './slice.js';

export interface TierPreview {
  /** Preview for this agent's settings; undefined = the default agent settings. */
  agentId?: string;
  contextLengthTokens: number;
}

export interface CatalogSlice {
  /** Every tool, grouped by server id. */
  tools: Record<string, ToolView[]>;
  toolsLoaded: boolean;
  tierPreview: TierPreview;
  tier: TierView | undefined;
  tierError: UiError | undefined;
  loadTools(): Promise<Outcome<ToolView[]>>;
  setToolEnabled(name: string, enabled: boolean): Promise<Outcome<ToolView>>;
  setToolPinned(name: string, pinned: boolean): Promise<Outcome<ToolView>>;
  /** Accepts a held tool's changed definition; agents see the new one from then on. */
  acceptToolChange(name: string): Promise<Outcome<ToolView>>;
  /** The tool's own approval policy; `null` inherits from its server or the default. */
  setToolPolicy(name: string, policy: Policy | null): Promise<Outcome<ToolView>>;
  /** Changes what the Tiers view previews and asks the host for it. */
  setTierPreview(patch: Partial<TierPreview>): Promise<void>;
  loadTier(): Promise<void>;
}

export const DEFAULT_PREVIEW_CONTEXT_TOKENS = 200_000;

export const createCatalogSlice =
  (api: ToolbridgeApi): Slice<CatalogSlice> =>
  (set, get) => {
    // Slider moves fire many requests; only the newest answer may land.
    let tierRequest = 0;
    const replaceTool = (tool: ToolView) =>
      set((state) => ({
        tools: {
          ...state.tools,
          [tool.serverId]: (state.tools[tool.serverId] ?? []).map((t) => (t.name === tool.name ? tool : t)),
        },
      }));
    return {
      tools: {},
      toolsLoaded: false,
      tierPreview: { contextLengthTokens: DEFAULT_PREVIEW_CONTEXT_TOKENS },
      tier: undefined,
      tierError: undefined,
      async loadTools() {
        const outcome = await attempt(() => api.listTools());
        if (outcome.ok) {
          const tools: Record<string, ToolView[]> = {};
          for (const tool of outcome.value) {
            const list = tools[tool.serverId] ?? [];
            list.push(tool);
            tools[tool.serverId] = list;
          }
          set({ tools, toolsLoaded: true });
        }
        return outcome;
      },
      async setToolEnabled(name, enabled) {
        const outcome = await attempt(() => api.setToolEnabled(name, enabled));
        if (outcome.ok) replaceTool(outcome.value);
        return outcome;
      },
      async setToolPinned(name, pinned) {
        const outcome = await attempt(() => api.setToolPinned(name, pinned));
        if (outcome.ok) replaceTool(outcome.value);
        return outcome;
      },
      async acceptToolChange(name) {
        const outcome = await attempt(() => api.acceptToolChange(name));
        if (outcome.ok) replaceTool(outcome.value);
        return outcome;
      },
      async setToolPolicy(name, policy) {
        const outcome = await attempt(() => api.setToolPolicy(name, policy));
        if (outcome.ok) replaceTool(outcome.value);
        return outcome;
      },
      async setTierPreview(patch) {
        set((state) => ({ tierPreview: { ...state.tierPreview, ...patch } }));
        await get().loadTier();
      },
      async loadTier() {
        const request = ++tierRequest;
        const outcome = await attempt(() => api.getTier(get().tierPreview));
        if (request !== tierRequest) return;
        set(outcome.ok ? { tier: outcome.value, tierError: undefined } : { tierError: outcome.error });
      },
    };
  };
