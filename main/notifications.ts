import type { CardView } from '../src/api/ui-api.js';

/** The OS notification for a card that just opened: who wants what, in one line. */
export function cardNotification(card: CardView): { title: string; body: string } {
  if (card.kind === 'approval') {
    return { title: 'Approval needed', body: `${card.agentId} wants to call ${card.toolName}` };
  }
  const names = card.targets.map((target) => target.name).join(', ');
  return { title: 'Connection needed', body: `${card.agentId} asks to connect ${names}` };
}

/** Counts open cards from the host's events, for the tray. */
export class OpenCards {
  private readonly ids = new Set<string>();

  opened(id: string): number {
    this.ids.add(id);
    return this.ids.size;
  }

  closed(id: string): number {
    this.ids.delete(id);
    return this.ids.size;
  }

  reset(ids: string[]): number {
    this.ids.clear();
    for (const id of ids) this.ids.add(id);
    return this.ids.size;
  }
}
