import type { Slice } from './slice.js';

/** The first-run checklist, in order: connect an agent, see search work, decide what asks. */
export const FIRST_RUN_STEPS = ['copy-config', 'try-search', 'choose-approvals'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];

export interface FirstRunState {
  done: FirstRunStep[];
  dismissed: boolean;
}

export interface FirstRunSlice {
  firstRun: FirstRunState;
  /** Ticks a step off (kept in the browser's storage, so the list stays done across reloads). */
  markFirstRun(step: FirstRunStep): void;
  dismissFirstRun(): void;
}

/** Where the checklist is kept: `localStorage` in the app, nothing in tests. */
export type FirstRunStorage = Pick<Storage, 'getItem' | 'setItem'>;

const KEY = 'toolbridge.first-run';

/** The stored checklist, forgiving: anything unreadable starts it afresh. */
export function readFirstRun(text: string | null): FirstRunState {
  try {
    const value: unknown = JSON.parse(text ?? 'null');
    if (typeof value !== 'object' || value === null) return { done: [], dismissed: false };
    const { done, dismissed } = value as { done?: unknown; dismissed?: unknown };
    return {
      done: FIRST_RUN_STEPS.filter((step) => Array.isArray(done) && done.includes(step)),
      dismissed: dismissed === true,
    };
  } catch {
    return { done: [], dismissed: false };
  }
}

/** The checklist shows until every step is done or the person dismisses it. */
export function showFirstRun(state: FirstRunState): boolean {
  return !state.dismissed && state.done.length < FIRST_RUN_STEPS.length;
}

export const createFirstRunSlice =
  (storage: FirstRunStorage | undefined): Slice<FirstRunSlice> =>
  (set, get) => {
    const save = (firstRun: FirstRunState) => {
      set({ firstRun });
      try {
        storage?.setItem(KEY, JSON.stringify(firstRun));
      } catch {
        // Storage full or blocked: the list still works for this page.
      }
    };
    let stored: string | null = null;
    try {
      stored = storage?.getItem(KEY) ?? null;
    } catch {
      stored = null;
    }
    return {
      firstRun: readFirstRun(stored),
      markFirstRun(step) {
        const { firstRun } = get();
        if (!firstRun.done.includes(step)) {
          save({ ...firstRun, done: FIRST_RUN_STEPS.filter((s) => s === step || firstRun.done.includes(s)) });
        }
      },
      dismissFirstRun() {
        save({ ...get().firstRun, dismissed: true });
      },
    };
  };
