import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PlaygroundSearchResult, ToolbridgeApi } from '../../src/api/ui-api.js';
import type { JsonObject } from '../../src/base/json.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface PlaygroundSlice {
  searchResult: PlaygroundSearchResult | undefined;
  described: JsonObject | undefined;
  callResult: CallToolResult | undefined;
  /** Blank queries are dropped; the rest go to the host in one `tool_search`. */
  runSearch(queries: string[], limit?: number): Promise<Outcome<PlaygroundSearchResult>>;
  describeTools(names: string[]): Promise<Outcome<JsonObject>>;
  /** Goes through approvals like an agent's call: an `ask` tool opens a card first. */
  callTool(name: string, args: JsonObject): Promise<Outcome<CallToolResult>>;
}

export const createPlaygroundSlice =
  (api: ToolbridgeApi): Slice<PlaygroundSlice> =>
  (set) => ({
    searchResult: undefined,
    described: undefined,
    callResult: undefined,
    async runSearch(queries, limit) {
      const kept = queries.map((q) => q.trim()).filter((q) => q !== '');
      const outcome = await attempt(() => api.search(kept, limit));
      if (outcome.ok) set({ searchResult: outcome.value });
      return outcome;
    },
    async describeTools(names) {
      const outcome = await attempt(() => api.describe(names));
      if (outcome.ok) set({ described: outcome.value });
      return outcome;
    },
    async callTool(name, args) {
      set({ callResult: undefined });
      const outcome = await attempt(() => api.call(name, args));
      if (outcome.ok) set({ callResult: outcome.value });
      return outcome;
    },
  });
