import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { ApprovalCardView, CardDecision } from '../../src/api/ui-api.js';
import { ArgumentsView, SecretWarning } from '../components/arguments-view.js';
import { CopyButton, ErrorText, ServerText } from '../components/common.js';
import { accountPhrase, formatRemaining, formatTime, prettyJson } from '../lib/format.js';
import { useAppStore } from '../store/store-context.js';

/**
 * How long a card's keys and buttons wait after it appears, moves (a card above it came or went)
 * or receives focus from a decision: a second Enter, a held key or a double click meant for one
 * card can never decide the card that slid into its place.
 */
export const ARM_DELAY_MS = 1_000;

/** False until `at` (a Date.now() time), then true; re-renders once when it turns. */
export function useArmed(at: number): boolean {
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

/** Stops every open card of one agent and says how many of its calls that stopped. */
/** When a card opened and when it expires, with "ready in a moment" until its keys arm. */
export function CardTimes(props: {
  card: { createdAt: string; expiresAt: string };
  now: number;
  armed: boolean;
}) {
  return (
    <p className="faint small mt-s">
      Opened {formatTime(props.card.createdAt)} · expires {formatRemaining(props.card.expiresAt, props.now)}
      {!props.armed && (
        <>
          {' '}
          <span className="badge plain small arming" data-testid="card-arming">
            ready in a moment
          </span>
        </>
      )}
    </p>
  );
}

export function useStopAgent(): (agentId: string) => Promise<void> {
  const stopAgent = useAppStore((s) => s.stopAgent);
  const notify = useAppStore((s) => s.notify);
  return async (agentId) => {
    const outcome = await stopAgent(agentId);
    if (!outcome.ok) return notify('error', `Could not stop ${agentId}: ${outcome.error.message}`);
    const { calls } = outcome.value;
    notify(
      'info',
      calls === 0
        ? `${agentId} had nothing waiting.`
        : `Stopped ${agentId}: ${calls} ${calls === 1 ? 'call' : 'calls'} interrupted, nothing of it left waiting or queued.`,
    );
  };
}

/**
 * One approval: the exact call and everything a safe decision needs (the tool's own words and
 * hints, where it runs, the account, the argument check, secrets about to be sent). Inside a
 * tool_call's card, `entry` says which entry it is and `onRest` decides the ones after it too.
 */
export function ApprovalCard(props: {
  card: ApprovalCardView;
  now: number;
  armedAt: number;
  onDecided: () => void;
  entry?: { label: string; onRest?: (decision: 'approve' | 'deny') => Promise<void> };
}) {
  const { card } = props;
  const resolveCard = useAppStore((s) => s.resolveCard);
  const stopAgent = useStopAgent();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Focus given by a decision on another card also waits (see CardsView).
  const [focusArmedAt, setFocusArmedAt] = useState(0);
  const armed = useArmed(Math.max(props.armedAt, focusArmedAt));
  const decided = useRef(false);
  const pointerDown = useRef(false);
  /** `typedHere`: Enter in this card's own message box, which cannot be aimed at another card. */
  const act = async (run: () => Promise<{ ok: boolean; message?: string }>, typedHere = false) => {
    if (busy || (!armed && !typedHere) || decided.current) return;
    decided.current = true;
    setBusy(true);
    setError(undefined);
    props.onDecided();
    const outcome = await run();
    setBusy(false);
    if (!outcome.ok) {
      decided.current = false;
      setError(outcome.message);
    }
  };
  const decide = (decision: CardDecision, typedHere = false) =>
    act(async () => {
      const outcome = await resolveCard(card.id, decision);
      return outcome.ok || outcome.error.code === 'NOT_FOUND'
        ? { ok: true }
        : { ok: false, message: outcome.error.message };
    }, typedHere);
  const deny = (typedHere = false) =>
    decide(
      message.trim() === '' ? { action: 'deny' } : { action: 'deny', message: message.trim() },
      typedHere,
    );
  const rest = props.entry?.onRest;
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
          {props.entry !== undefined && (
            <span className="badge plain" data-testid="card-entry">
              {props.entry.label}
            </span>
          )}
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
        <CardTimes card={card} now={props.now} armed={armed} />
        <ToolFacts card={card} />
        <SecretWarning secrets={card.secrets} testId="card-secret-warning" />
        <div className="row mt-m">
          <h3 className="section-title grow">Arguments</h3>
          <CopyButton text={prettyJson(card.arguments)} label="Copy arguments" testId="card-copy-arguments" />
        </div>
        <ArgumentsView value={card.arguments} secrets={card.secrets} testId="card-arguments" />
        <Validation validation={card.validation} connector={card.toolName.startsWith('connectors__')} />
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
        </div>
        <div className="card-actions">
          {rest !== undefined && (
            <>
              <button
                type="button"
                disabled={busy || !armed}
                data-testid="card-approve-rest"
                title="Approve this entry, and each later entry of this call when it comes up with exactly the arguments shown"
                onClick={() => void act(() => done(rest('approve')))}
              >
                Approve the rest
              </button>
              <button
                type="button"
                disabled={busy || !armed}
                data-testid="card-deny-rest"
                title="Deny this entry and every later entry of this call"
                onClick={() => void act(() => done(rest('deny')))}
              >
                Deny the rest
              </button>
            </>
          )}
          <button
            type="button"
            className="ghost"
            disabled={busy || !armed}
            data-testid="card-stop"
            title="Deny this entry and interrupt the entries of this call not started yet"
            onClick={() => void decide({ action: 'stop' })}
          >
            Stop this call
          </button>
          <button
            type="button"
            className="ghost"
            disabled={busy || !armed}
            data-testid="card-stop-agent"
            title={`Stop everything ${card.agentId} has waiting or queued, on every card`}
            onClick={() => void act(() => done(stopAgent(card.agentId)))}
          >
            Stop agent
          </button>
        </div>
        {error !== undefined && <ErrorText testId="card-error">{error}</ErrorText>}
      </div>
    </section>
  );
}

/** An action that reports its own failure (a notice): the card counts it as done. */
async function done(action: Promise<void>): Promise<{ ok: true }> {
  await action;
  return { ok: true };
}

/**
 * What the tool says of itself and where it runs: its title and description (flagged when they
 * hide instructions), its hints (the server's claim unless the server is trusted), the server's
 * command or URL.
 */
function ToolFacts(props: { card: ApprovalCardView }) {
  const { card } = props;
  const server = useAppStore((s) => s.servers[card.serverId]);
  const tool = card.tool;
  const hints: string[] = [];
  if (tool?.readOnlyHint === true) hints.push('read-only');
  if (tool?.destructiveHint === true) hints.push('destructive');
  if (tool?.readOnlyHint !== true && tool?.destructiveHint === false) hints.push('not destructive');
  if (tool?.openWorldHint === true) hints.push('reaches the outside world');
  if (tool?.idempotentHint === true) hints.push('idempotent');
  const where = card.toolName.startsWith('connectors__')
    ? 'through the connector gateway'
    : server === undefined
      ? undefined
      : server.config.transport === 'stdio'
        ? [server.config.command, ...(server.config.args ?? [])].join(' ')
        : server.config.url;
  return (
    <div className="tool-facts mt-m" data-testid="card-tool-facts">
      {tool?.title !== undefined && <strong data-testid="card-tool-title">{tool.title}</strong>}
      {tool?.description !== undefined && tool.description !== '' && (
        <ServerText text={tool.description} className="muted small wrap-anywhere" testId="card-description" />
      )}
      {hints.length > 0 && (
        <p className="small mt-s" data-testid="card-hints">
          {hints.map((hint) => (
            <span key={hint} className={`badge ${hint === 'destructive' ? 'warn' : 'plain'}`}>
              {hint}
            </span>
          ))}{' '}
          <span className="faint">
            {server?.trusted === true
              ? 'You marked this server trusted.'
              : "The server's own claim: Toolbridge cannot check it."}
          </span>
        </p>
      )}
      {where !== undefined && (
        <Fact label="Runs">
          <span className="mono wrap-anywhere" data-testid="card-where">
            {where}
          </span>
        </Fact>
      )}
    </div>
  );
}

function Fact(props: { label: string; children: ReactNode }) {
  return (
    <p className="small mt-s">
      <span className="faint">{props.label}: </span>
      {props.children}
    </p>
  );
}

/** The bridge's argument check; connector tools have no schema here, so the gateway checks them. */
function Validation(props: { validation: ApprovalCardView['validation']; connector: boolean }) {
  const { validation } = props;
  if (validation.ok && validation.notEnforced === undefined) {
    return (
      <p className="small faint mt-s" data-testid="card-validation-ok">
        {props.connector
          ? 'Toolbridge has no schema for this connector tool: the gateway checks the arguments.'
          : "The arguments match the tool's schema."}
      </p>
    );
  }
  if (validation.ok) {
    return (
      <div className="callout warn mt-m" data-testid="card-not-enforced">
        Toolbridge could not check these arguments against the schema's pattern(s){' '}
        {(validation.notEnforced ?? []).map((pattern, index) => (
          <span key={pattern}>
            {index > 0 && ', '}
            <ServerText text={pattern} inline />
          </span>
        ))}
        : its linear-time engine cannot run lookarounds or backreferences, and the backtracking one could
        freeze Toolbridge. The server still judges them.
      </div>
    );
  }
  return (
    <div className="callout warn mt-m" data-testid="card-validation">
      These arguments do not match the tool's schema
      {validation.path !== undefined && (
        <>
          {' '}
          at <span className="mono">{validation.path}</span>
        </>
      )}
      : <ServerText text={validation.message} inline />
    </div>
  );
}
