import { useEffect, useMemo, useRef, useState } from 'react';
import type { CallView, CardView, ConnectionCardView } from '../../src/api/ui-api.js';
import { EmptyState, ViewHeader } from '../components/common.js';
import { formatRemaining, formatTime } from '../lib/format.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { ApprovalCard, ARM_DELAY_MS, useStopAgent } from './approval-card.js';
import { CallCard, entryOutcomeText } from './call-card.js';
import { ConnectionRows } from './connection-rows.js';
import { ElicitationCard, SamplingCard } from './request-cards.js';

export { ARM_DELAY_MS } from './approval-card.js';

/** How long a finished call stays in place as the confirmation before it moves to Recent. */
export const CONFIRMATION_MS = 4_000;
/** How many finished calls Recent lists. */
const RECENT_SHOWN = 20;

type Item = { kind: 'call'; call: CallView } | { kind: 'card'; card: CardView };

/**
 * Cards, newest first: each tool_call that needs the person as one card with all its entries,
 * and cards outside any call (manage_connections, a pinned tool's call). Finished calls confirm
 * what happened for a moment, then move to Recent, so nothing that was asked vanishes silently.
 */
export function CardsView() {
  const { cards, calls, loaded } = useAppStoreShallow((s) => ({
    cards: s.cards,
    calls: s.calls,
    loaded: s.cardsLoaded,
  }));
  const now = useNow(1000);
  const listRef = useRef<HTMLDivElement>(null);
  const { items, recent } = useMemo(() => arrange(cards, calls, now), [cards, calls, now]);
  // Each place in the list arms on its own: the approval card shown there, else the item itself.
  const armedAt = useArmTimes(items.map(slotKey));
  /** Where the last decided card was, so focus goes to the card that takes its place. */
  const decidedAt = useRef<number | undefined>(undefined);
  const count = items.reduce((sum, item) => sum + (slotKey(item).startsWith('card:') ? 1 : 0), 0);
  const previousCount = useRef(0);

  useEffect(() => {
    const list = listRef.current;
    const before = previousCount.current;
    previousCount.current = count;
    if (list === null || count === 0) return;
    const cardsInList = [...list.querySelectorAll<HTMLElement>('[data-card]')];
    const decided = decidedAt.current;
    if (decided !== undefined && count < before) {
      // A decision: the next card gets focus, but its keys arm only after ARM_DELAY_MS.
      decidedAt.current = undefined;
      if (!focusIsElsewhere(list)) cardsInList[Math.min(decided, cardsInList.length - 1)]?.focus();
      return;
    }
    // A new card takes focus only when nothing else could be read or typed in: never from
    // another card, a text box or anything else that has focus.
    if (before === 0 && !focusIsElsewhere(list)) cardsInList[0]?.focus();
  }, [count]);

  const onDecided = (id: string) => () => {
    const all = [...(listRef.current?.querySelectorAll('[data-card]') ?? [])];
    decidedAt.current = all.findIndex((element) => element.getAttribute('data-card') === id);
  };

  return (
    <div className="view">
      <ViewHeader
        title="Cards"
        lede={
          <>
            Calls waiting for you, newest first, one card per tool_call. The agent is blocked until you
            decide. Focus a card, then <span className="kbd">Enter</span> approves once and{' '}
            <span className="kbd">Esc</span> denies. A card that just appeared, moved or got focus from a
            decision waits a second before its keys and buttons work.
          </>
        }
      />
      {loaded && items.length === 0 && (
        <EmptyState title="Nothing is waiting" testId="cards-empty">
          When an agent calls a tool whose policy is "ask", its card appears here with the exact arguments.
          Set policies in Settings, or try a call from the Playground.
        </EmptyState>
      )}
      <div className="stack" ref={listRef}>
        {items.map((item) => {
          const key = slotKey(item);
          const armed = armedAt.get(key) ?? 0;
          if (item.kind === 'call') {
            const waiting = item.call.entries.find((entry) => entry.cardId !== undefined)?.cardId;
            return (
              <CallCard
                key={item.call.id}
                call={item.call}
                cards={cards}
                now={now}
                armedAt={armed}
                onDecided={onDecided(waiting ?? item.call.id)}
              />
            );
          }
          const { card } = item;
          return card.kind === 'approval' ? (
            <ApprovalCard
              key={card.id}
              card={card}
              now={now}
              armedAt={armed}
              onDecided={onDecided(card.id)}
            />
          ) : card.kind === 'elicitation' ? (
            <ElicitationCard key={card.id} card={card} now={now} armedAt={armed} />
          ) : card.kind === 'sampling' ? (
            <SamplingCard key={card.id} card={card} now={now} armedAt={armed} />
          ) : (
            <ConnectionCard key={card.id} card={card} now={now} />
          );
        })}
      </div>
      <Recent calls={recent} />
    </div>
  );
}

/** The list in order, and the finished calls for Recent. */
function arrange(
  cards: Readonly<Record<string, CardView>>,
  calls: Readonly<Record<string, CallView>>,
  now: number,
): { items: Item[]; recent: CallView[] } {
  const items: Item[] = [];
  const recent: CallView[] = [];
  for (const call of Object.values(calls)) {
    const finishedAt = call.finishedAt === undefined ? undefined : Date.parse(call.finishedAt);
    if (finishedAt !== undefined && finishedAt + CONFIRMATION_MS <= now) recent.push(call);
    else items.push({ kind: 'call', call });
  }
  for (const card of Object.values(cards)) {
    // A card of a call shows inside that call's card.
    const call = 'call' in card ? card.call : undefined;
    if (call === undefined || !(call.id in calls)) items.push({ kind: 'card', card });
  }
  const createdAt = (item: Item) => (item.kind === 'call' ? item.call.createdAt : item.card.createdAt);
  const id = (item: Item) => (item.kind === 'call' ? item.call.id : item.card.id);
  items.sort((a, b) => createdAt(b).localeCompare(createdAt(a)) || id(b).localeCompare(id(a)));
  recent.sort((a, b) => b.finishedAt!.localeCompare(a.finishedAt!));
  return { items, recent: recent.slice(0, RECENT_SHOWN) };
}

/** The key an item's place arms under: its approval card's id while one waits there, else its shape. */
function slotKey(item: Item): string {
  if (item.kind === 'card') return `card:${item.card.id}`;
  const waiting = item.call.entries.find((entry) => entry.cardId !== undefined)?.cardId;
  if (waiting !== undefined) return `card:${waiting}`;
  // Its shape: a state change can change its height, which moves everything below it.
  return `call:${item.call.id}:${item.call.entries.map((entry) => entry.state).join(',')}`;
}

/** True when focus sits on something other than the page or a card of this list itself. */
function focusIsElsewhere(list: HTMLElement): boolean {
  const active = document.activeElement;
  if (active === null || active === document.body) return false;
  return !(list.contains(active) && active.hasAttribute('data-card'));
}

/**
 * When each place's keys and buttons arm: ARM_DELAY_MS after it first showed where it is now. A
 * place moves when anything above it changes (a card came or went, or one turned into its
 * confirmation and shrank), and then starts its wait again.
 */
function useArmTimes(keys: readonly string[]): ReadonlyMap<string, number> {
  const seen = useRef(new Map<string, { above: string; armedAt: number }>());
  const joined = keys.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the keys or their order change
  return useMemo(() => {
    const now = Date.now();
    const next = new Map<string, { above: string; armedAt: number }>();
    keys.forEach((key, index) => {
      const above = keys.slice(0, index).join('\n');
      const before = seen.current.get(key);
      next.set(
        key,
        before !== undefined && before.above === above ? before : { above, armedAt: now + ARM_DELAY_MS },
      );
    });
    seen.current = next;
    return new Map([...next].map(([key, { armedAt }]) => [key, armedAt]));
  }, [joined]);
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** A connection card outside any tool_call (manage_connections connect, install, authorize). */
function ConnectionCard(props: { card: ConnectionCardView; now: number }) {
  const { card } = props;
  const stopAgent = useStopAgent();
  const resolveCard = useAppStore((s) => s.resolveCard);
  const apps = card.targets.length === 1 ? 'an app or server' : 'apps or servers';
  return (
    <section className="panel card connection" data-testid={`card-${card.id}`}>
      <div className="panel-body">
        <div className="card-title">
          <span className="badge accent plain">{card.agentId}</span>
          <span className="muted">
            needs {apps} connected{card.forTool === undefined ? '' : ` for ${card.forTool}`}
          </span>
        </div>
        <p className="faint small mt-s">
          Opened {formatTime(card.createdAt)} · expires {formatRemaining(card.expiresAt, props.now)}
        </p>
        <div className="mt-m">
          <ConnectionRows card={card} />
        </div>
        <div className="card-actions">
          <button
            type="button"
            className="ghost"
            data-testid="card-stop"
            onClick={() => void resolveCard(card.id, { action: 'stop' })}
          >
            Stop this call
          </button>
          <button
            type="button"
            className="ghost"
            data-testid="card-stop-agent"
            onClick={() => void stopAgent(card.agentId)}
          >
            Stop agent
          </button>
        </div>
      </div>
    </section>
  );
}

/** Cards → Recent: the calls that needed the person, after they ended, with what happened to each entry. */
function Recent(props: { calls: CallView[] }) {
  if (props.calls.length === 0) return null;
  return (
    <section className="mt-l" data-testid="recent-calls">
      <h2 className="section-title">Recent</h2>
      <p className="faint small">
        Calls you were asked about, after they ended: decided, expired, stopped, or their agent went away. The
        Activity view has every call.
      </p>
      <div className="panel mt-s">
        {props.calls.map((call) => (
          <div className="panel-body recent-call" key={call.id} data-testid="recent-call">
            <div className="card-title">
              <span className="badge accent plain">{call.agentId}</span>
              <span className="faint small">{formatTime(call.finishedAt ?? call.createdAt)}</span>
            </div>
            <ol className="call-entries">
              {call.entries.map((entry) => (
                <li key={entry.index} className="small" data-testid="recent-entry">
                  <span className="mono">{entry.name}</span>{' '}
                  <span className="muted">{entryOutcomeText(entry) ?? entry.state}</span>
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
    </section>
  );
}
