import type {
  ActivityEntry,
  ApprovalCardView,
  CardView,
  ServerView,
  ToolView,
} from '../../src/api/ui-api.js';
import type { AppState } from './index.js';

/** Derived values: computed here from what the host sent, never stored. */

export const selectServerList = (state: AppState): ServerView[] =>
  Object.values(state.servers).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

/** One shared empty list: a fresh `[]` per call would look like a change on every render. */
const NO_TOOLS: ToolView[] = [];

export const selectToolsOf =
  (serverId: string) =>
  (state: AppState): ToolView[] =>
    state.tools[serverId] ?? NO_TOOLS;

export const selectAllTools = (state: AppState): ToolView[] => Object.values(state.tools).flat();

/** One tool by its agent-facing name (the stored object, so a component re-renders only when it changes). */
export const selectToolByName =
  (name: string) =>
  (state: AppState): ToolView | undefined => {
    for (const list of Object.values(state.tools)) {
      const found = list.find((tool) => tool.name === name);
      if (found !== undefined) return found;
    }
    return undefined;
  };

export const selectPinnedCount = (state: AppState): number =>
  selectAllTools(state).filter((t) => t.pinned).length;

export const selectCardsNewestFirst = (state: AppState): CardView[] =>
  Object.values(state.cards).sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  );

export const selectPendingCardCount = (state: AppState): number => Object.keys(state.cards).length;

export const selectApprovalCards = (state: AppState): ApprovalCardView[] =>
  selectCardsNewestFirst(state).filter((card): card is ApprovalCardView => card.kind === 'approval');

export const selectServerCounts = (
  state: AppState,
): { connected: number; failing: number; total: number } => {
  const servers = Object.values(state.servers);
  return {
    connected: servers.filter((s) => s.status === 'connected').length,
    failing: servers.filter((s) => s.status === 'error' || s.status === 'needs-auth').length,
    total: servers.length,
  };
};

/** The page has lost the host: what it shows is the last known state, and nothing it sends arrives. */
export const selectHostLost = (state: AppState): boolean =>
  state.connection === 'reconnecting' || state.connection === 'signed-out';

export const selectSelectedActivity = (state: AppState): ActivityEntry | undefined =>
  state.activity.find((entry) => entry.id === state.selectedActivityId);

/** Distinct values seen in the loaded activity, for the filter menus (memoise on `state.activity`). */
export const activityFacets = (
  activity: ActivityEntry[],
): { tools: string[]; servers: string[]; agents: string[] } => ({
  tools: [...new Set(activity.map((e) => e.toolName))].sort(),
  servers: [...new Set(activity.map((e) => e.serverId))].sort(),
  agents: [...new Set(activity.map((e) => e.agentId))].sort(),
});

export const TIER_LABELS = {
  0: 'Tier 0 · every tool listed directly',
  1: 'Tier 1 · search bridge with a listing',
  2: 'Tier 2 · search bridge, listing collapsed',
} as const;

export const selectTierLabel = (state: AppState): string | undefined =>
  state.tier === undefined ? undefined : TIER_LABELS[state.tier.tier];
