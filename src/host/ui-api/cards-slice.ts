import type { CardDecision } from '../../api/ui-api.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { UiApiSlice } from '../host-parts.js';

/**
 * Cards: approval cards (the gate's queue), elicitation and sampling cards (servers' requests) and
 * connection cards (manage_connections), answered by the person, and the tool_calls they belong
 * to (one card per call, the recent ones kept).
 */
export const cardsSlice: UiApiSlice<
  'approvals' | 'requestCards' | 'connectionCards' | 'openUrl' | 'calls',
  'listCards' | 'resolveCard' | 'resolveConnectionTarget' | 'listCalls' | 'decideRest' | 'stopAgent'
> = ({ approvals, requestCards, connectionCards: cards, openUrl, calls }) => {
  const listCards = async () => [
    ...approvals.listCards(),
    ...(requestCards?.list() ?? []),
    ...(cards?.list() ?? []),
  ];
  const resolveCard = async (id: string, decision: CardDecision) => {
    if (requestCards?.has(id)) return requestCards.resolve(id, decision);
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
  };
  return {
    listCards,
    resolveCard,

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

    listCalls: async () => calls.list(),

    decideRest: async (callId, decision) => {
      if (decision !== 'approve' && decision !== 'deny') {
        throw new ToolbridgeError('INVALID_ARGUMENT', 'decision must be "approve" or "deny".');
      }
      calls.decideRest(callId, decision);
    },

    stopAgent: async (agentId) => {
      // A server's elicitation or sampling card closes with the call it came with.
      const open = [...approvals.listCards(), ...(cards?.list() ?? [])].filter(
        (card) => card.agentId === agentId,
      );
      // Every tool_call of the agent stops once; a card outside any recorded call counts as one.
      const stopped = new Set(open.map((card) => card.call?.id ?? card.id));
      for (const card of open) {
        try {
          await resolveCard(card.id, { action: 'stop' });
        } catch (error) {
          // Stopping its call already closed it (a sibling card), or it ended meanwhile.
          if (!ToolbridgeError.is(error) || error.code !== 'NOT_FOUND') throw error;
        }
      }
      return { calls: stopped.size };
    },
  };
};
