import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { ApprovalCardView, CardDecision, ConnectionCardView } from '../../src/api/ui-api.js';
import { ArgumentsView, SecretWarning } from '../components/arguments-view.js';
import { EmptyState, ErrorText, ExternalLink, ServerText, ViewHeader } from '../components/common.js';
import { accountPhrase, formatRemaining, formatTime } from '../lib/format.js';
import { selectCardsNewestFirst } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

/**
 * How long a card's keys and buttons wait after it appears, moves (a card above it came or went)
 * or receives focus from a decision: a second Enter, a held key or a double click meant for one
 * card can never decide the card that slid into its place.
 */
export const ARM_DELAY_MS = 1_000;

export function CardsView() {
  const cards = useAppStoreShallow(selectCardsNewestFirst);
  const loaded = useAppStore((s) => s.cardsLoaded);
  const now = useNow(1000);
  const listRef = useRef<HTMLDivElement>(null);
  const armedAt = useArmTimes(cards.map((card) => card.id));
  /** Where the last decided card was, so focus goes to the card that takes its place. */
  const decidedAt = useRef<number | undefined>(undefined);
  const count = cards.length;
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

  return (
    <div className="view">
      <ViewHeader
        title="Cards"
        lede={
          <>
            Calls waiting for you, newest first. The agent is blocked until you decide. Focus a card, then{' '}
            <span className="kbd">Enter</span> approves once and <span className="kbd">Esc</span> denies. A
            card that just appeared, moved or got focus from a decision waits a second before its keys and
            buttons work.
          </>
        }
      />
      {loaded && cards.length === 0 && (
        <EmptyState title="Nothing is waiting" testId="cards-empty">
          When an agent calls a tool whose policy is "ask", its card appears here with the exact arguments.
          Set policies in Settings, or try a call from the Playground.
        </EmptyState>
      )}
      <div className="stack" ref={listRef}>
        {cards.map((card) =>
          card.kind === 'approval' ? (
            <ApprovalCard
              key={card.id}
              card={card}
              now={now}
              armedAt={armedAt.get(card.id) ?? 0}
              onDecided={() => {
                const all = [...(listRef.current?.querySelectorAll('[data-card]') ?? [])];
                decidedAt.current = all.findIndex((element) => element.getAttribute('data-card') === card.id);
              }}
            />
          ) : (
            <ConnectionCard key={card.id} card={card} now={now} />
          ),
        )}
      </div>
    </div>
  );
}

/** True when focus sits on something other than the page or a card of this list itself. */
function focusIsElsewhere(list: HTMLElement): boolean {
  const active = document.activeElement;
  if (active === null || active === document.body) return false;
  return !(list.contains(active) && active.hasAttribute('data-card'));
}

/**
 * When each card's keys and buttons arm: ARM_DELAY_MS after it first showed at its current
 * position. A card that moves (one above it came or went) starts its wait again.
 */
function useArmTimes(ids: readonly string[]): ReadonlyMap<string, number> {
  const seen = useRef(new Map<string, { index: number; armedAt: number }>());
  const key = ids.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the ids or their order change
  return useMemo(() => {
    const now = Date.now();
    const next = new Map<string, { index: number; armedAt: number }>();
    ids.forEach((id, index) => {
      const before = seen.current.get(id);
      next.set(
        id,
        before !== undefined && before.index === index ? before : { index, armedAt: now + ARM_DELAY_MS },
      );
    });
    seen.current = next;
    return new Map([...next].map(([id, { armedAt }]) => [id, armedAt]));
  }, [key]);
}

/** False until `at` (a Date.now() time), then true; re-renders once when it turns. */
function useArmed(at: number): boolean {
  const [, setTick] = useState(0);
  const armed = Date.now() >= at;
  useEffect(() => {
    const wait = at - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), wait);
    return () => clearTimeout(timer);
  }, [at]);
  return armed;
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function ApprovalCard(props: {
  card: ApprovalCardView;
  now: number;
  armedAt: number;
  onDecided: () => void;
}) {
  const { card } = props;
  const resolveCard = useAppStore((s) => s.resolveCard);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Focus given by a decision on another card also waits (see CardsView).
  const [focusArmedAt, setFocusArmedAt] = useState(0);
  const armed = useArmed(Math.max(props.armedAt, focusArmedAt));
  const decided = useRef(false);
  const pointerDown = useRef(false);
  /** `typedHere`: Enter in this card's own message box, which cannot be aimed at another card. */
  const decide = async (decision: CardDecision, typedHere = false) => {
    if (busy || (!armed && !typedHere) || decided.current) return;
    decided.current = true;
    setBusy(true);
    setError(undefined);
    props.onDecided();
    const outcome = await resolveCard(card.id, decision);
    setBusy(false);
    if (!outcome.ok && outcome.error.code !== 'NOT_FOUND') {
      decided.current = false;
      setError(outcome.error.message);
    }
  };
  const deny = (typedHere = false) =>
    decide(
      message.trim() === '' ? { action: 'deny' } : { action: 'deny', message: message.trim() },
      typedHere,
    );
  const account = card.account === undefined ? undefined : accountPhrase(card.account);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Only when the card itself has focus: typing a deny message must not approve.
    if (event.target !== event.currentTarget) return;
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    // A held key repeats; one press decides at most one card, and only an armed one.
    if (event.repeat || !armed) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      void decide({ action: 'approve' });
    } else if (event.key === 'Escape') {
      event.preventDefault();
      void deny();
    }
  };
  return (
    <section
      className="panel card"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the card is a keyboard target (Enter approves, Esc denies)
      tabIndex={0}
      data-card={card.id}
      data-testid={`card-${card.id}`}
      data-armed={armed}
      onFocus={(event) => {
        // Focus that arrives without a click (a decision moved it here) waits before keys work.
        if (event.target === event.currentTarget && !pointerDown.current)
          setFocusArmedAt(Date.now() + ARM_DELAY_MS);
      }}
      onPointerDown={() => {
        pointerDown.current = true;
      }}
      onPointerUp={() => {
        pointerDown.current = false;
      }}
      aria-label={`Approve ${card.toolName}${account === undefined ? '' : ` as ${account}`} for ${card.agentId}?`}
      onKeyDown={onKeyDown}
    >
      <div className="panel-body">
        <div className="card-title">
          <span className="badge accent plain">{card.agentId}</span>
          <span className="muted">wants to call</span>
          <span className="tool" data-testid="card-tool">
            {card.toolName}
          </span>
          <span className="muted small">on {card.serverId}</span>
          {account !== undefined && (
            <span className="badge plain" data-testid="card-account">
              as {account}
            </span>
          )}
        </div>
        <p className="faint small mt-s">
          Opened {formatTime(card.createdAt)} · expires {formatRemaining(card.expiresAt, props.now)}
          {!armed && (
            <>
              {' '}
              <span className="badge plain small arming" data-testid="card-arming">
                ready in a moment
              </span>
            </>
          )}
        </p>
        <SecretWarning secrets={card.secrets} testId="card-secret-warning" />
        <h3 className="section-title">Arguments</h3>
        <ArgumentsView value={card.arguments} secrets={card.secrets} testId="card-arguments" />
        {card.validation.ok && card.validation.notEnforced !== undefined && (
          <div className="callout warn mt-m" data-testid="card-not-enforced">
            Toolbridge could not check these arguments against the schema's pattern(s){' '}
            {card.validation.notEnforced.map((pattern, index) => (
              <span key={pattern}>
                {index > 0 && ', '}
                <ServerText text={pattern} inline />
              </span>
            ))}
            : its linear-time engine cannot run lookarounds or backreferences, and the backtracking one could
            freeze Toolbridge. The server still judges them.
          </div>
        )}
        {!card.validation.ok && (
          <div className="callout warn mt-m" data-testid="card-validation">
            These arguments do not match the tool's schema
            {card.validation.path !== undefined && (
              <>
                {' '}
                at <span className="mono">{card.validation.path}</span>
              </>
            )}
            : <ServerText text={card.validation.message} inline />
          </div>
        )}
        <div className="card-actions">
          <button
            type="button"
            className="primary"
            disabled={busy || !armed}
            data-testid="card-approve"
            onClick={() => void decide({ action: 'approve' })}
          >
            Approve once
          </button>
          <button
            type="button"
            disabled={busy || !armed}
            data-testid="card-always"
            onClick={() => void decide({ action: 'always' })}
          >
            Always allow
          </button>
          <input
            className="deny-message"
            placeholder="Message for the agent (optional)"
            aria-label="Message for the agent when denying"
            data-testid="card-deny-message"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (!e.repeat) void deny(true);
              }
            }}
          />
          <button
            type="button"
            className="danger"
            disabled={busy || !armed}
            data-testid="card-deny"
            onClick={() => void deny()}
          >
            Deny
          </button>
          <button
            type="button"
            className="ghost"
            disabled={busy || !armed}
            data-testid="card-stop"
            title="Deny this call and interrupt everything this agent has not started yet"
            onClick={() => void decide({ action: 'stop' })}
          >
            Stop agent
          </button>
        </div>
        {error !== undefined && <ErrorText testId="card-error">{error}</ErrorText>}
      </div>
    </section>
  );
}

const TARGET_STATE_BADGE: Record<ConnectionCardView['targets'][number]['state'], string> = {
  pending: 'info',
  initiated: 'info',
  connected: 'ok',
  skipped: 'plain',
  failed: 'bad',
};

function ConnectionCard(props: { card: ConnectionCardView; now: number }) {
  const { card } = props;
  const { resolveConnectionTarget, resolveCard } = useAppStoreShallow((s) => ({
    resolveConnectionTarget: s.resolveConnectionTarget,
    resolveCard: s.resolveCard,
  }));
  const [error, setError] = useState<string>();
  const act = async (target: string, action: 'connect' | 'skip') => {
    const outcome = await resolveConnectionTarget(card.id, target, action);
    setError(outcome.ok ? undefined : outcome.error.message);
  };
  // Opened from the click itself, so the browser allows the new tab (the desktop app hands it
  // to the system browser); the host's poller sees the account once it is linked.
  const connect = (target: ConnectionCardView['targets'][number]) => {
    if (target.connectUrl === undefined) return void act(target.name, 'connect');
    window.open(target.connectUrl, '_blank', 'noopener,noreferrer');
  };
  return (
    <section className="panel card connection" data-testid={`card-${card.id}`}>
      <div className="panel-body">
        <div className="card-title">
          <span className="badge accent plain">{card.agentId}</span>
          <span className="muted">
            asks to connect {card.targets.length === 1 ? 'an account' : 'accounts'}
          </span>
        </div>
        <p className="faint small mt-s">
          Opened {formatTime(card.createdAt)} · expires {formatRemaining(card.expiresAt, props.now)}
        </p>
        <div className="mt-m">
          {card.targets.map((target) => (
            <div className="target-row" key={target.name} data-testid={`card-target-${target.name}`}>
              <span className={`badge ${TARGET_STATE_BADGE[target.state]}`}>{target.state}</span>
              <div className="grow">
                <strong>{target.name}</strong>
                {target.alias !== undefined && <span className="muted"> ({target.alias})</span>}{' '}
                <span className="faint small">{target.kind}</span>
                {target.message !== undefined && <ServerText text={target.message} className="muted small" />}
                {target.connectUrl !== undefined && (
                  <div className="small">
                    <ExternalLink href={target.connectUrl}>Open the sign-in page</ExternalLink>
                  </div>
                )}
              </div>
              {target.state !== 'connected' && target.state !== 'skipped' && (
                <button
                  type="button"
                  className="small primary"
                  data-testid={`card-connect-${target.name}`}
                  onClick={() => connect(target)}
                >
                  {target.kind === 'mcp' && target.connectUrl === undefined ? 'Approve' : 'Connect'}
                </button>
              )}
              {target.state !== 'connected' && target.state !== 'skipped' && (
                <button
                  type="button"
                  className="small"
                  data-testid={`card-skip-${target.name}`}
                  onClick={() => void act(target.name, 'skip')}
                >
                  Skip
                </button>
              )}
            </div>
          ))}
        </div>
        <div className="card-actions">
          <button
            type="button"
            className="ghost"
            onClick={() => void resolveCard(card.id, { action: 'stop' })}
          >
            Stop agent
          </button>
        </div>
        {error !== undefined && <ErrorText>{error}</ErrorText>}
      </div>
    </section>
  );
}
