import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { ApprovalCardView, CardDecision, ConnectionCardView } from '../../src/api/ui-api.js';
import { ArgumentsView, SecretWarning } from '../components/arguments-view.js';
import { EmptyState, ErrorText, ExternalLink, ServerText, ViewHeader } from '../components/common.js';
import { accountPhrase, formatRemaining, formatTime } from '../lib/format.js';
import { selectCardsNewestFirst } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

export function CardsView() {
  const cards = useAppStoreShallow(selectCardsNewestFirst);
  const loaded = useAppStore((s) => s.cardsLoaded);
  const now = useNow(1000);
  const listRef = useRef<HTMLDivElement>(null);
  const newestId = cards[0]?.id;

  // Keep a card focused so Enter/Esc work at once; move focus to a new card only if none has it.
  useEffect(() => {
    if (newestId === undefined) return;
    const list = listRef.current;
    if (list === null || list.contains(document.activeElement)) return;
    list.querySelector<HTMLElement>('[data-card]')?.focus();
  }, [newestId]);

  return (
    <div className="view">
      <ViewHeader
        title="Cards"
        lede={
          <>
            Calls waiting for you, newest first. The agent is blocked until you decide. Focus a card, then{' '}
            <span className="kbd">Enter</span> approves once and <span className="kbd">Esc</span> denies.
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
            <ApprovalCard key={card.id} card={card} now={now} />
          ) : (
            <ConnectionCard key={card.id} card={card} now={now} />
          ),
        )}
      </div>
    </div>
  );
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function ApprovalCard(props: { card: ApprovalCardView; now: number }) {
  const { card } = props;
  const resolveCard = useAppStore((s) => s.resolveCard);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decide = async (decision: CardDecision) => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    const outcome = await resolveCard(card.id, decision);
    setBusy(false);
    if (!outcome.ok && outcome.error.code !== 'NOT_FOUND') setError(outcome.error.message);
  };
  const deny = () =>
    decide(message.trim() === '' ? { action: 'deny' } : { action: 'deny', message: message.trim() });
  const account = card.account === undefined ? undefined : accountPhrase(card.account);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Only when the card itself has focus: typing a deny message must not approve.
    if (event.target !== event.currentTarget) return;
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
        </p>
        <SecretWarning secrets={card.secrets} testId="card-secret-warning" />
        <h3 className="section-title">Arguments</h3>
        <ArgumentsView value={card.arguments} secrets={card.secrets} testId="card-arguments" />
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
            disabled={busy}
            data-testid="card-approve"
            onClick={() => void decide({ action: 'approve' })}
          >
            Approve once
          </button>
          <button
            type="button"
            disabled={busy}
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
                void deny();
              }
            }}
          />
          <button
            type="button"
            className="danger"
            disabled={busy}
            data-testid="card-deny"
            onClick={() => void deny()}
          >
            Deny
          </button>
          <button
            type="button"
            className="ghost"
            disabled={busy}
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
