import type { ActivityEntry, ActivityQuery, ToolbridgeApi } from '../../src/api/ui-api.js';
import { compileActivityFilter } from '../../src/base/activity-filter.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface ActivitySlice {
  /** Entries newest first: the pages loaded so far plus live ones. */
  activity: ActivityEntry[];
  activityCursor: string | undefined;
  activityFilter: ActivityQuery;
  activityLoaded: boolean;
  selectedActivityId: string | undefined;
  /** Replaces the filter and loads its first page. */
  loadActivity(filter?: ActivityQuery): Promise<Outcome<void>>;
  loadMoreActivity(): Promise<Outcome<void>>;
  exportActivity(format: 'jsonl' | 'csv'): Promise<Outcome<string>>;
  selectActivity(id: string | undefined): void;
  /** From `activityAppended`. */
  activityAppended(entry: ActivityEntry): void;
}

const PAGE_SIZE = 100;
/** Live entries beyond this drop off the end; older ones stay in the audit log. */
const MAX_KEPT = 2000;

export const createActivitySlice =
  (api: ToolbridgeApi): Slice<ActivitySlice> =>
  (set, get) => ({
    activity: [],
    activityCursor: undefined,
    activityFilter: {},
    activityLoaded: false,
    selectedActivityId: undefined,
    async loadActivity(filter = get().activityFilter) {
      set({ activityFilter: filter });
      const outcome = await attempt(() => api.queryActivity({ ...filter, limit: PAGE_SIZE }));
      if (!outcome.ok) return outcome;
      if (get().activityFilter !== filter) return { ok: true, value: undefined };
      set({
        activity: outcome.value.entries,
        activityCursor: outcome.value.nextCursor,
        activityLoaded: true,
      });
      return { ok: true, value: undefined };
    },
    async loadMoreActivity() {
      const { activityFilter: filter, activityCursor: cursor } = get();
      if (cursor === undefined) return { ok: true, value: undefined };
      const outcome = await attempt(() => api.queryActivity({ ...filter, cursor, limit: PAGE_SIZE }));
      if (!outcome.ok) return outcome;
      set((state) => ({
        activity: [...state.activity, ...outcome.value.entries],
        activityCursor: outcome.value.nextCursor,
      }));
      return { ok: true, value: undefined };
    },
    exportActivity: (format) => attempt(() => api.exportActivity(format, get().activityFilter)),
    selectActivity(id) {
      set({ selectedActivityId: id });
    },
    activityAppended(entry) {
      if (!matchesFilter(entry, get().activityFilter)) return;
      set((state) => ({ activity: [entry, ...state.activity].slice(0, MAX_KEPT) }));
    },
  });

/** The same filter the host applies (one rule, in base), for entries that arrive live. */
export function matchesFilter(entry: ActivityEntry, filter: ActivityQuery): boolean {
  const compiled = compileActivityFilter(filter);
  return compiled.ok && compiled.matches(entry);
}
