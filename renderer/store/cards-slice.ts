import type { CardDecision, CardView, ToolbridgeApi } from '../../src/api/ui-api.js';
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
}

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
  });
