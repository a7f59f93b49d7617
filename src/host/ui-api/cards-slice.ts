import { ToolbridgeError } from '../../base/errors.js';
import type { UiApiSlice } from '../host-parts.js';

/** Cards: approval cards (the gate's queue) and connection cards (manage_connections), answered by the person. */
export const cardsSlice: UiApiSlice<
  'approvals' | 'connectionCards' | 'openUrl',
  'listCards' | 'resolveCard' | 'resolveConnectionTarget'
> = ({ approvals, connectionCards: cards, openUrl }) => ({
  listCards: async () => [...approvals.listCards(), ...(cards?.list() ?? [])],

  resolveCard: async (id, decision) => {
    if (cards?.has(id)) {
      // A connection card only stops (or is dismissed); its targets are decided one by one.
      if (decision.action !== 'stop' && decision.action !== 'deny') {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          'A connection card has no approve: connect or skip each target, or stop the card.',
        );
      }
      cards.stop(id);
      return;
    }
    approvals.resolveCard(id, decision);
  },

  resolveConnectionTarget: async (cardId, target, action) => {
    if (cards === undefined || !cards.has(cardId)) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This connection card is no longer open: it was finished, stopped or timed out.',
      );
    }
    if (action === 'skip') return cards.skip(cardId, target);
    if (action !== 'connect')
      throw new ToolbridgeError('INVALID_ARGUMENT', 'action must be "connect" or "skip".');
    const row = cards.target(cardId, target);
    if (row.kind === 'mcp' && row.connectUrl === undefined) return cards.confirm(cardId, target);
    if (row.connectUrl === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        `"${target}" has no sign-in link yet; wait a moment and try again.`,
      );
    }
    // The card's poller sees the account once it is linked; nothing else changes here.
    openUrl?.(row.connectUrl);
  },
});
