/**
 * Holds a connector entry that needs an account (reference §4.5, "connect on demand"): when a
 * UI can show a connection card, a `CONNECTION_REQUIRED` entry waits behind one instead of
 * failing. Connected: the entry runs again and its result takes the error's place. Skipped (or
 * Stop): the entry fails marked skipped by the user, and the rest of that turn does not ask
 * again for the same app (or account). Deadline: as skipped, with a timeout note. Without a UI the
 * executor's answer goes back untouched.
 */
import type { CallContext } from '../bridge/types.js';
import type { ConnectorEntryError, ConnectorEntryOutcome, ConnectorExecutor } from './connector-executor.js';
import type { ConnectionManager } from './manage-connections.js';

export const SKIPPED_HINT =
  'The user chose not to connect this app in Toolbridge. Do not ask again or work around it; carry on without it.';
export const TIMED_OUT_HINT =
  'Nobody connected this app before the connection card timed out. Ask the user whether to try again.';

export class ConnectionHold {
  /** Apps the user skipped, per turn (a turn shares one Stop signal). */
  private readonly skipped = new WeakMap<AbortSignal, Set<string>>();

  constructor(
    private readonly executor: Pick<ConnectorExecutor, 'execute'>,
    private readonly manager: Pick<ConnectionManager, 'canShowCards' | 'connectOne'>,
  ) {}

  async execute(
    entry: { name: string },
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<ConnectorEntryOutcome> {
    const first = await this.executor.execute(entry, args, context);
    if (!('error' in first) || first.error.code !== 'CONNECTION_REQUIRED' || !this.manager.canShowCards) {
      return first;
    }
    const connector = String(first.error.connector ?? '').toLowerCase();
    const turn = context.stop?.signal;
    if (connector === '') return first;
    // The account the entry named is the one to link; without one, the app's default account.
    const target = context.account === undefined ? { connector } : { connector, alias: context.account };
    const key = `${connector} ${context.account ?? ''}`;
    if (turn !== undefined && this.skipped.get(turn)?.has(key)) return skippedError(first.error, false);
    const outcome = await this.manager.connectOne(target, {
      agentId: context.agentId,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(context.call === undefined ? {} : { call: context.call }),
      forTool: entry.name,
    });
    if (outcome === 'connected') return this.executor.execute(entry, args, context);
    if (outcome === 'skipped' && turn !== undefined) {
      const set = this.skipped.get(turn) ?? new Set<string>();
      set.add(key);
      this.skipped.set(turn, set);
    }
    return skippedError(first.error, outcome === 'not_connected');
  }
}

function skippedError(error: ConnectorEntryError, timedOut: boolean): { error: ConnectorEntryError } {
  const { connect_card_available: _card, hint: _hint, connect_url: _url, ...rest } = error;
  return {
    error: {
      ...rest,
      message: timedOut
        ? `The ${String(error.connector)} connector is not connected: the connection card timed out.`
        : `The ${String(error.connector)} connector is not connected: the user skipped connecting it.`,
      skipped_by_user: !timedOut,
      ...(timedOut ? { timed_out: true } : {}),
      hint: timedOut ? TIMED_OUT_HINT : SKIPPED_HINT,
    },
  };
}
