/**
 * What a waiting card says in one line: the same words in the desktop's OS notification, the
 * browser's notification and the banner of the web UI.
 */
import type { CardView } from './ui-api.js';

export interface CardNotice {
  title: string;
  body: string;
}

/** Who wants what: the agent and the tool, or the apps to connect and for which tool. */
export function cardNotice(card: CardView): CardNotice {
  if (card.kind === 'approval') {
    return { title: 'Approval needed', body: `${card.agentId} wants to call ${card.toolName}` };
  }
  const names = card.targets
    .map((target) => (target.kind === 'connector' ? (target.app?.title ?? target.name) : target.name))
    .join(', ');
  const purpose = card.forTool === undefined ? '' : ` for ${card.forTool}`;
  return { title: 'Connection needed', body: `${card.agentId} needs ${names} connected${purpose}` };
}

/** The line for everything waiting: "2 calls wait for you" (and who asked, when one card waits). */
export function waitingLine(cards: readonly CardView[]): string {
  if (cards.length === 0) return 'Nothing is waiting';
  if (cards.length === 1) return `${cardNotice(cards[0]!).body}: waiting for you`;
  return `${cards.length} cards wait for you`;
}
