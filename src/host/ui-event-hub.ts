import type { AgentRegistry } from '../agents/agent-registry.js';
import { type ServerView, type SettingsView, UI_EVENTS, type UiEventMap } from '../api/ui-api.js';
import type { Approvals } from '../approvals/approvals.js';
import type { RequestCards } from '../approvals/request-cards.js';
import { ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { CallBoard } from './call-board.js';
import type { ConnectionCards } from './connection-cards.js';
import type { HostSettings } from './host-settings.js';

type Listener = (payload: never) => void;

/** UI events by name; a throwing listener is logged and never stops the others. */
export class UiEventHub {
  private readonly listeners = new Map<keyof UiEventMap, Set<Listener>>();

  on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void {
    if (!(UI_EVENTS as readonly string[]).includes(event)) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `Unknown UI event "${String(event)}".`);
    }
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  fire<E extends keyof UiEventMap>(event: E, payload: UiEventMap[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (value: UiEventMap[E]) => void)(payload);
      } catch (error) {
        console.warn(`toolbridge: a "${event}" listener threw:`, error);
      }
    }
  }
}

/** What the UI hears about, each relayed as its event with the view the UI shows. */
export interface UiEventSources {
  servers: Pick<ServerManager, 'onDidChangeStatus' | 'onDidRemove' | 'has'>;
  settings: Pick<HostSettings, 'onDidChange'>;
  agents: Pick<AgentRegistry, 'onDidChangeAgents'>;
  approvals: Pick<Approvals, 'onDidOpenCard' | 'onDidResolveCard' | 'onDidAppendActivity'>;
  connectionCards: Pick<ConnectionCards, 'onDidOpen' | 'onDidUpdate' | 'onDidResolve'> | undefined;
  /** Servers' elicitation and sampling cards; they stand on their own, outside the call board. */
  requestCards: Pick<RequestCards, 'onDidOpen' | 'onDidResolve'> | undefined;
  /** The tool_calls' cards: told of every card opened and resolved, it reports each call's update. */
  calls: Pick<CallBoard, 'cardOpened' | 'cardResolved' | 'onDidUpdateCall'>;
  /** The server row as the UI shows it. */
  serverView(id: string): ServerView;
  settingsView(): Promise<SettingsView>;
}

/**
 * Relays the host's events to the UI hub (cards to the call board too, after the UI heard them):
 * one subscription each, for the caller's store.
 */
export function relayToUi(sources: UiEventSources, events: UiEventHub): Disposable[] {
  const { servers, approvals, connectionCards: cards, calls } = sources;
  return [
    servers.onDidChangeStatus(({ id }) => {
      if (servers.has(id)) events.fire('serverStatusChanged', sources.serverView(id));
    }),
    servers.onDidRemove(({ id }) => events.fire('serverRemoved', { id })),
    sources.settings.onDidChange(() => {
      void sources.settingsView().then((view) => events.fire('settingsChanged', view));
    }),
    sources.agents.onDidChangeAgents((list) => events.fire('agentsChanged', { agents: list })),
    approvals.onDidOpenCard((card) => {
      events.fire('cardOpened', card);
      calls.cardOpened(card);
    }),
    ...(cards === undefined
      ? []
      : [
          cards.onDidOpen((card) => {
            events.fire('cardOpened', card);
            calls.cardOpened(card);
          }),
          cards.onDidUpdate((card) => events.fire('cardUpdated', card)),
          cards.onDidResolve(({ id, outcome }) => {
            events.fire('cardResolved', { id, outcome });
            calls.cardResolved(id, outcome);
          }),
        ]),
    ...(sources.requestCards === undefined
      ? []
      : [
          sources.requestCards.onDidOpen((card) => events.fire('cardOpened', card)),
          sources.requestCards.onDidResolve(({ id, outcome }) =>
            events.fire('cardResolved', { id, outcome }),
          ),
        ]),
    approvals.onDidResolveCard(({ id, outcome }) => {
      events.fire('cardResolved', { id, outcome });
      calls.cardResolved(id, outcome);
    }),
    calls.onDidUpdateCall((call) => events.fire('callUpdated', call)),
    approvals.onDidAppendActivity((entry) => events.fire('activityAppended', entry)),
  ];
}
