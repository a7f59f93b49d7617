import type { CallView, CardDecision, CardView, ToolbridgeApi } from '../../src/api/ui-api.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface CardsSlice {
  /** Open cards by id. */
  cards: Record<string, CardView>;
  cardsLoaded: boolean;
  loadCards(): Promise<Outcome<CardView[]>>;
  resolveCard(id: string, decision: CardDecision): Promise<Outcome<void>>;
  resolveConnectionTarget(cardId: string, target: string, action: 'connect' | 'skip'): Promise<Outcome<void>>;
  /** From `cardOpened` and `cardUpdated`. */
  cardChanged(card: CardView): void;
  /** From `cardResolved`, or after our own decision went through. */
  cardClosed(id: string): void;
  /** Tool_calls that needed the person, running and recent, by id (each shows as one card). */
  calls: Record<string, CallView>;
  loadCalls(): Promise<Outcome<CallView[]>>;
  /** From `callUpdated`. */
  callChanged(call: CallView): void;
  decideRest(callId: string, decision: 'approve' | 'deny'): Promise<Outcome<void>>;
  stopAgent(agentId: string): Promise<Outcome<{ calls: number }>>;
}

/** How many finished calls the renderer keeps for Cards → Recent (the host keeps as many). */
const MAX_KEPT_CALLS = 50;

export const createCardsSlice =
  (api: ToolbridgeApi): Slice<CardsSlice> =>
  (set, get) => ({
    cards: {},
    cardsLoaded: false,
    async loadCards() {
      const outcome = await attempt(() => api.listCards());
      if (outcome.ok)
        set({ cards: Object.fromEntries(outcome.value.map((c) => [c.id, c])), cardsLoaded: true });
      return outcome;
    },
    async resolveCard(id, decision) {
      const outcome = await attempt(() => api.resolveCard(id, decision));
      // A card that is already gone (answered elsewhere, expired) should leave the screen too.
      if (outcome.ok || outcome.error.code === 'NOT_FOUND') get().cardClosed(id);
      return outcome;
    },
    resolveConnectionTarget: (cardId, target, action) =>
      attempt(() => api.resolveConnectionTarget(cardId, target, action)),
    cardChanged(card) {
      set((state) => ({ cards: { ...state.cards, [card.id]: card } }));
    },
    cardClosed(id) {
      set((state) => {
        if (!(id in state.cards)) return state;
        const { [id]: _closed, ...cards } = state.cards;
        return { cards };
      });
    },
    calls: {},
    async loadCalls() {
      const outcome = await attempt(() => api.listCalls());
      if (outcome.ok) set({ calls: Object.fromEntries(outcome.value.map((call) => [call.id, call])) });
      return outcome;
    },
    callChanged(call) {
      set((state) => {
        const calls = { ...state.calls, [call.id]: call };
        const finished = Object.values(calls)
          .filter((kept) => kept.finishedAt !== undefined)
          .sort((a, b) => b.finishedAt!.localeCompare(a.finishedAt!));
        for (const old of finished.slice(MAX_KEPT_CALLS)) delete calls[old.id];
        return { calls };
      });
    },
    decideRest: (callId, decision) => attempt(() => api.decideRest(callId, decision)),
    stopAgent: (agentId) => attempt(() => api.stopAgent(agentId)),
  });
