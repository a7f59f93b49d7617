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
  if (card.kind === 'elicitation') {
    return { title: 'Input needed', body: `Server ${card.serverId} asks: ${card.message}` };
  }
  if (card.kind === 'sampling') {
    return {
      title: 'Model use needs approval',
      body: `Server ${card.serverId} asks ${card.agentId}'s model for a reply`,
    };
  }
  const names = card.targets
    .map((target) => (target.kind === 'connector' ? (target.app?.title ?? target.name) : target.name))
    .join(', ');
  const purpose = card.forTool === undefined ? '' : ` for ${card.forTool}`;
  return { title: 'Connection needed', body: `${card.agentId} needs ${names} connected${purpose}` };
}

/** How many wait, in the words the tray and the banner share: "2 calls wait for you". */
export function waitingCount(count: number): string {
  if (count === 0) return 'nothing waiting';
  return `${count} ${count === 1 ? 'call waits' : 'calls wait'} for you`;
}

/** The banner's line for everything waiting: who asked for what when one card waits, else the count. */
export function waitingLine(cards: readonly CardView[]): string {
  if (cards.length === 1) return `${cardNotice(cards[0]!).body}: waiting for you`;
  const line = waitingCount(cards.length);
  return line[0]!.toUpperCase() + line.slice(1);
}
