import { useState } from 'react';
import type { ConnectionCardRow, ConnectionCardView } from '../../src/api/ui-api.js';
import { AppLogo, appTitle } from '../components/app-logo.js';
import { ErrorText, ServerText } from '../components/common.js';
import { useAppStore } from '../store/store-context.js';

/** A row's state in plain words (never the gateway's jargon such as "initiated"). */
export function rowStateLabel(row: ConnectionCardRow): string {
  switch (row.state) {
    case 'pending':
      return 'waiting for you';
    case 'initiated':
      return row.kind === 'mcp' ? 'sign-in needed' : 'not connected';
    case 'connected':
      return 'connected';
    case 'skipped':
      return 'skipped';
    case 'failed':
      return 'could not connect';
  }
}

const STATE_BADGE: Record<ConnectionCardRow['state'], string> = {
  pending: 'info',
  initiated: 'warn',
  connected: 'ok',
  skipped: 'plain',
  failed: 'bad',
};

/**
 * The rows of one connection card: each app (its logo and name) or MCP server, what is needed
 * and for which tool, with Connect / Skip while it is open. `forTool` is the tool_call entry
 * waiting on it: Connect then also runs that entry.
 */
export function ConnectionRows(props: { card: ConnectionCardView; forTool?: string }) {
  const { card } = props;
  const resolveConnectionTarget = useAppStore((s) => s.resolveConnectionTarget);
  const [error, setError] = useState<string>();
  const act = async (target: string, action: 'connect' | 'skip') => {
    const outcome = await resolveConnectionTarget(card.id, target, action);
    setError(outcome.ok ? undefined : outcome.error.message);
  };
  // Opened from the click itself, so the browser allows the new tab (the desktop app hands it
  // to the system browser); the host's poller sees the account once it is linked.
  const connect = (target: ConnectionCardRow) => {
    if (target.connectUrl === undefined) return void act(target.name, 'connect');
    window.open(target.connectUrl, '_blank', 'noopener,noreferrer');
  };
  const forTool = props.forTool ?? card.forTool;
  return (
    <div>
      {card.targets.map((target) => {
        const title = target.kind === 'connector' ? appTitle(target.app, target.name) : target.name;
        const who = `${title}${target.alias === undefined ? '' : ` (${target.alias})`}`;
        const open = target.state !== 'connected' && target.state !== 'skipped';
        return (
          <div className="target-row" key={target.name} data-testid={`card-target-${target.name}`}>
            {target.kind === 'connector' && <AppLogo app={target.app} name={target.name} />}
            <div className="grow">
              <div>
                <strong>{who}</strong>{' '}
                <span className={`badge ${STATE_BADGE[target.state]}`} data-testid="card-target-state">
                  {rowStateLabel(target)}
                </span>
              </div>
              {target.kind === 'mcp' && target.message !== undefined && target.state !== 'connected' ? (
                // The host's own words for a server (its command, where to sign in): said once.
                <ServerText
                  text={target.message}
                  className="small muted wrap-anywhere"
                  testId="card-target-need"
                />
              ) : (
                <p className="small muted" data-testid="card-target-need">
                  {need(target, who, forTool)}
                </p>
              )}
              {target.kind === 'connector' && target.state === 'failed' && target.message !== undefined && (
                <ServerText text={target.message} className="muted small wrap-anywhere" />
              )}
            </div>
            {open && (
              <button
                type="button"
                className="small primary"
                data-testid={`card-connect-${target.name}`}
                onClick={() => connect(target)}
              >
                {connectLabel(target, forTool !== undefined && card.call !== undefined)}
              </button>
            )}
            {open && (
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
        );
      })}
      {error !== undefined && <ErrorText>{error}</ErrorText>}
    </div>
  );
}

/** What is needed, and for which tool, in one sentence. */
function need(target: ConnectionCardRow, who: string, forTool: string | undefined): string {
  const purpose = forTool === undefined ? '' : ` ${forTool} needs it.`;
  if (target.kind === 'mcp' && target.state === 'pending')
    return `Approve to add or turn on the server ${who}.`;
  if (target.kind === 'mcp' && target.state === 'initiated') return `${who} needs you to sign in.${purpose}`;
  switch (target.state) {
    case 'connected':
      return `${who} is connected.`;
    case 'skipped':
      return `You chose not to connect ${who}; the agent was told.`;
    case 'failed':
      return `${who} could not be connected.${purpose}`;
    default:
      return `${who} isn't connected.${purpose} Connect it in the page that opens, or skip it.`;
  }
}

function connectLabel(target: ConnectionCardRow, runsEntry: boolean): string {
  if (target.kind === 'mcp') return target.connectUrl === undefined ? 'Approve' : 'Sign in';
  return runsEntry ? 'Connect and run' : 'Connect';
}
