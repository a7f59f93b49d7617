import type { ConnectionState } from '../api/ws-client.js';
import type { Slice } from './slice.js';

export const VIEWS = [
  'servers',
  'connections',
  'tiers',
  'cards',
  'playground',
  'activity',
  'agents',
  'settings',
] as const;
export type ViewId = (typeof VIEWS)[number];

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface UiSlice {
  view: ViewId;
  connection: ConnectionState;
  notices: Notice[];
  setView(view: ViewId): void;
  setConnection(state: ConnectionState): void;
  notify(kind: Notice['kind'], text: string): void;
  dismissNotice(id: number): void;
}

/** Notices beyond this push the oldest out, so a failing loop cannot bury the screen. */
const MAX_NOTICES = 4;

export const createUiSlice =
  (initialConnection: ConnectionState): Slice<UiSlice> =>
  (set) => {
    let nextNotice = 1;
    return {
      view: 'servers',
      connection: initialConnection,
      notices: [],
      setView(view) {
        set({ view });
      },
      setConnection(connection) {
        set({ connection });
      },
      notify(kind, text) {
        set((state) => ({
          notices: [...state.notices, { id: nextNotice++, kind, text }].slice(-MAX_NOTICES),
        }));
      },
      dismissNotice(id) {
        set((state) => ({ notices: state.notices.filter((n) => n.id !== id) }));
      },
    };
  };
