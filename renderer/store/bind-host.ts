import { type ToolbridgeApi, UI_EVENTS, type UiEventMap } from '../../src/api/ui-api.js';
import type { AppStore } from './index.js';

/** Catalog changes come in bursts while servers start; reload once per burst. */
const CATALOG_RELOAD_DELAY_MS = 150;

/**
 * Subscribes once to every host event and routes it to the slice that owns it. The handler
 * table is typed over `UiEventMap`, so a new event without a handler fails the type check.
 * Returns the unsubscribe (tests, hot reload).
 */
export function bindHost(api: ToolbridgeApi, store: AppStore): () => void {
  const state = store.getState;
  let catalogTimer: ReturnType<typeof setTimeout> | undefined;
  const handlers: { [E in keyof UiEventMap]: (payload: UiEventMap[E]) => void } = {
    serverStatusChanged: (view) => state().serverChanged(view),
    serverRemoved: ({ id }) => state().serverRemoved(id),
    catalogChanged: () => {
      clearTimeout(catalogTimer);
      catalogTimer = setTimeout(() => {
        void state().loadTools();
        void state().loadTier();
        // Whether an "always allow" still matches its tool's definition can change with the catalog.
        void state().loadPolicyRules();
      }, CATALOG_RELOAD_DELAY_MS);
    },
    cardOpened: (card) => state().cardChanged(card),
    cardUpdated: (card) => state().cardChanged(card),
    cardResolved: ({ id }) => state().cardClosed(id),
    callUpdated: (call) => state().callChanged(call),
    activityAppended: (entry) => state().activityAppended(entry),
    agentsChanged: ({ agents }) => state().agentsChanged(agents),
    settingsChanged: (settings) => {
      state().settingsChanged(settings);
      // Rules ("Always allow" on a card) and server policies live in the settings too.
      void state().loadPolicyRules();
      void state().loadServers();
      // The gateway's URL, switch or sign-in may have changed, and with them what Tiers counts at
      // the gateway: a sign-in changes no catalog input, so no catalogChanged reloads the tier.
      state().connectionsChanged();
      void state().loadTier();
    },
    connectionsChanged: () => state().connectionsChanged(),
  };
  const unsubscribes = UI_EVENTS.map((event) =>
    api.on(event, handlers[event] as (payload: UiEventMap[typeof event]) => void),
  );
  return () => {
    clearTimeout(catalogTimer);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}

/**
 * Loads everything the views show, at start and after a reconnect (events sent while the socket
 * was down are lost). One notice for all failures, not one per call.
 */
export async function loadAll(store: AppStore): Promise<void> {
  const state = store.getState();
  const outcomes = await Promise.all([
    state.loadServers(),
    state.loadTools(),
    state.loadCards(),
    state.loadCalls(),
    state.loadActivity(),
    state.loadSettings(),
    state.loadAgents(),
    state.loadPolicyRules(),
  ]);
  await state.loadTier();
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed !== undefined && !failed.ok) {
    state.notify('error', `Could not load everything from Toolbridge: ${failed.error.message}`);
  }
}
