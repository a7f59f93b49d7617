import { useState } from 'react';
import type { CallEntryView, CallView, CardView } from '../../src/api/ui-api.js';
import { AppLogo } from '../components/app-logo.js';
import { ArgumentsView } from '../components/arguments-view.js';
import { CopyButton } from '../components/common.js';
import { formatDuration, formatTime, prettyJson } from '../lib/format.js';
import { useAppStore } from '../store/store-context.js';
import { ApprovalCard } from './approval-card.js';
import { ConnectionRows } from './connection-rows.js';

const STATE_LABEL: Record<CallEntryView['state'], string> = {
  queued: 'queued',
  checking: 'checking',
  waiting: 'waiting for you',
  account: 'waiting for an account',
  running: 'running',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
  skipped: 'skipped',
  interrupted: 'interrupted',
  timeout: 'timed out',
};

const STATE_BADGE: Record<CallEntryView['state'], string> = {
  queued: 'plain',
  checking: 'plain',
  waiting: 'accent',
  account: 'warn',
  running: 'info',
  done: 'ok',
  failed: 'bad',
  denied: 'bad',
  skipped: 'plain',
  interrupted: 'plain',
  timeout: 'warn',
};

/** What became of an entry, as the card confirms it ("Approved · ran in 9 ms"). */
export function entryOutcomeText(entry: CallEntryView): string | undefined {
  const by =
    entry.decision === 'approved'
      ? 'Approved'
      : entry.decision === 'always'
        ? 'Always allowed'
        : 'Allowed by policy';
  const ran = entry.durationMs === undefined ? '' : ` · ran in ${formatDuration(entry.durationMs)}`;
  switch (entry.state) {
    case 'done':
      return `${by}${ran}`;
    case 'failed':
      return `${by}${ran} · failed`;
    case 'denied':
      return entry.decision === 'denied' ? 'Denied by you · not run' : 'Denied · not run';
    case 'skipped':
      return 'Skipped: its app was not connected · not run';
    case 'interrupted':
      return entry.decision === 'cancelled'
        ? 'The agent went away before it was decided · not run'
        : 'Stopped before it ran';
    case 'timeout':
      return 'Nobody answered in time · not run';
    default:
      return undefined;
  }
}

/**
 * One tool_call as one card: every entry in input order with its state. The entry that waits
 * for the person (n of m) shows its approval, or its connection row, inside; the others show
 * their state and, once ended, what happened. After the last entry the card stays a moment as
 * the confirmation, then moves to Recent.
 */
export function CallCard(props: {
  call: CallView;
  cards: Readonly<Record<string, CardView>>;
  now: number;
  armedAt: number;
  onDecided: () => void;
}) {
  const { call } = props;
  const decideRest = useAppStore((s) => s.decideRest);
  const notify = useAppStore((s) => s.notify);
  const total = call.entries.length;
  const focused = call.entries.find((entry) => entry.state === 'waiting' || entry.state === 'account');
  const finished = call.finishedAt !== undefined;
  const onRest = async (decision: 'approve' | 'deny') => {
    const outcome = await decideRest(call.id, decision);
    if (!outcome.ok && outcome.error.code !== 'NOT_FOUND') notify('error', outcome.error.message);
  };
  const later = (entry: CallEntryView) =>
    call.entries.some((other) => other.index > entry.index && !isEnded(other));
  return (
    <section
      className={`panel call-card${finished ? ' finished' : ''}`}
      data-call={call.id}
      data-testid={`call-${call.id}`}
      aria-label={`${total === 1 ? 'A call' : `A call of ${total} entries`} from ${call.agentId}`}
    >
      <div className="panel-body">
        <div className="card-title">
          <span className="badge accent plain">{call.agentId}</span>
          <span className="muted">
            {total === 1 ? 'tool_call' : `tool_call with ${total} entries`} · {formatTime(call.createdAt)}
          </span>
          {focused !== undefined && total > 1 && (
            <span className="badge plain" data-testid="call-focus">
              {focused.index + 1} of {total}
            </span>
          )}
          {call.rest !== undefined && (
            <span className="badge plain" data-testid="call-rest">
              {call.rest === 'approve' ? 'approving the rest' : 'denying the rest'}
            </span>
          )}
          {finished && (
            <span className="badge ok plain" data-testid="call-finished">
              finished
            </span>
          )}
        </div>
        <ol className="call-entries mt-m" data-testid="call-entries">
          {call.entries.map((entry) => {
            const card = entry.cardId === undefined ? undefined : props.cards[entry.cardId];
            const connection =
              entry.connectionCardId === undefined ? undefined : props.cards[entry.connectionCardId];
            return (
              <li key={entry.index} className="call-entry" data-testid="call-entry" data-state={entry.state}>
                <EntryLine entry={entry} total={total} />
                {card?.kind === 'approval' && (
                  <div className="mt-s">
                    <ApprovalCard
                      card={card}
                      now={props.now}
                      armedAt={props.armedAt}
                      onDecided={props.onDecided}
                      {...(total > 1
                        ? {
                            entry: {
                              label: `${entry.index + 1} of ${total}`,
                              ...(later(entry) ? { onRest } : {}),
                            },
                          }
                        : {})}
                    />
                  </div>
                )}
                {connection?.kind === 'connection' && (
                  <div className="entry-connection mt-s" data-testid="call-entry-connection">
                    <ConnectionRows card={connection} forTool={entry.name} />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}

function isEnded(entry: CallEntryView): boolean {
  return !['queued', 'checking', 'waiting', 'account', 'running'].includes(entry.state);
}

/** One entry's line: number, state, app and tool, account, and how it ended (with its details on demand). */
function EntryLine(props: { entry: CallEntryView; total: number }) {
  const { entry } = props;
  const [open, setOpen] = useState(false);
  const outcome = entryOutcomeText(entry);
  return (
    <div>
      <div className="entry-line">
        {props.total > 1 && <span className="faint small entry-number">{entry.index + 1}</span>}
        <span className={`badge ${STATE_BADGE[entry.state]}`} data-testid="call-entry-state">
          {STATE_LABEL[entry.state]}
        </span>
        {entry.app !== undefined && <AppLogo app={entry.app} name={entry.serverId} size={16} />}
        <span className="mono small wrap-anywhere" data-testid="call-entry-name">
          {entry.name}
        </span>
        {entry.account !== undefined && <span className="badge plain">as account {entry.account}</span>}
        <span className="grow" />
        {entry.state !== 'waiting' && (
          <button
            type="button"
            className="small ghost"
            aria-expanded={open}
            data-testid="call-entry-details"
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Details'}
          </button>
        )}
      </div>
      {outcome !== undefined && (
        <p className="small mt-s" data-testid="call-entry-outcome">
          {outcome}
        </p>
      )}
      {entry.summary !== undefined && (
        <div className="row entry-summary">
          <span className="mono small muted wrap-anywhere grow" data-testid="call-entry-summary">
            {entry.summary}
          </span>
          <CopyButton text={entry.summary} label="Copy result" testId="call-entry-copy-result" />
        </div>
      )}
      {open && entry.state !== 'waiting' && (
        <div className="mt-s">
          <div className="row">
            <h3 className="section-title grow">Arguments</h3>
            <CopyButton text={prettyJson(entry.arguments)} label="Copy arguments" />
          </div>
          <ArgumentsView value={entry.arguments} secrets={entry.secrets} testId="call-entry-arguments" />
        </div>
      )}
    </div>
  );
}
