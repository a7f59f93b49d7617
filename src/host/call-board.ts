import { randomBytes } from 'node:crypto';
import type { AppView, CallEntryView, CallView, CardOutcome, CardView } from '../api/ui-api.js';
import type { CallLines } from '../approvals/audit-log.js';
import { canonicalJson } from '../approvals/canonical-json.js';
import type { ActivityEntry, ArgumentSecret, CardDecision } from '../approvals/types.js';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import type { Disposable } from '../base/lifecycle.js';
import { loggedErrorOutcome, oneLine } from '../bridge/call-outcome.js';
import type { CallEntryOutcome, CallRecord, CallRecordEntry } from '../bridge/types.js';
import { CONNECTOR_PREFIX } from '../catalog/connector-names.js';

/** @defaultValue 50 finished calls stay in the history (Cards → Recent). */
export const MAX_RECENT_CALLS = 50;

export interface CallBoardOptions {
  /** Marks the secret-looking values of an entry's arguments (the UI masks them). */
  findSecrets: (args: JsonObject) => ArgumentSecret[];
  /** Decides an approval card, for "the rest" of a call (the queue checks the card is still open). */
  resolveCard: (id: string, decision: CardDecision) => void;
  /** Masks secrets in result summaries before they reach the UI. */
  redactText: (text: string) => string;
  /** Names a connector app (and its logo) for connector entries. */
  describeApp?: (connector: string) => AppView;
  /** @defaultValue Date.now */
  clock?: () => number;
}

interface OpenCall {
  view: CallView;
  /** When each running entry started (after its card), for its duration. */
  startedAt: Map<number, number>;
  /** An entry opened a card: from then on the person sees this call. */
  shown: boolean;
}

/**
 * The person's record of each tool_call: one card per call, every entry in input order with its
 * state. The bridge reports entries starting and ending (`begin`); the host feeds in the cards
 * they open and how those were decided. Calls that never needed the person are never shown.
 * Finished calls move to a bounded recent history, so nothing that was asked vanishes silently.
 */
export class CallBoard implements Disposable {
  private readonly open = new Map<string, OpenCall>();
  private readonly recent: CallView[] = [];
  /** Open card id → the call and entry it decides. */
  private readonly cards = new Map<string, { call: OpenCall; index: number }>();
  private readonly clock: () => number;
  private readonly _onDidUpdateCall = new Emitter<CallView>();
  readonly onDidUpdateCall: Event<CallView> = this._onDidUpdateCall.event;

  constructor(private readonly options: CallBoardOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Starts the record of one tool_call (the bridge's `ToolExecutor.beginCall`). */
  begin(agentId: string, entries: readonly CallRecordEntry[]): CallRecord {
    const id = randomBytes(12).toString('base64url');
    const call: OpenCall = {
      view: {
        id,
        agentId,
        createdAt: new Date(this.clock()).toISOString(),
        entries: entries.map((entry, index) => ({
          ...this.entryHead(
            index,
            entry.name,
            entry.serverId,
            entry.account,
            structuredClone(entry.arguments),
          ),
          state: 'queued',
        })),
      },
      startedAt: new Map(),
      shown: false,
    };
    this.open.set(id, call);
    return {
      id,
      started: (index) =>
        this.change(call, index, { state: 'checking' }, () => call.startedAt.set(index, this.clock())),
      finished: (index, outcome) => this.finish(call, index, outcome),
      end: () => this.end(call),
    };
  }

  /** A card opened; one that decides or holds a recorded entry shows inside its call's card. */
  cardOpened(card: CardView): void {
    // A server's elicitation or sampling card stands on its own (MCP does not tie it to an entry).
    if (card.kind === 'elicitation' || card.kind === 'sampling' || card.call === undefined) return;
    const call = this.open.get(card.call.id);
    const { index } = card.call;
    if (call === undefined || call.view.entries[index] === undefined) return;
    call.shown = true;
    this.cards.set(card.id, { call, index });
    if (card.kind === 'connection') {
      this.change(call, index, { state: 'account', connectionCardId: card.id });
      return;
    }
    this.change(call, index, { state: 'waiting', cardId: card.id });
    const rest = call.view.rest;
    const entry = call.view.entries[index]!;
    // Decided after the card's own open event has reached every listener (the UI sees it open, then close).
    if (rest === 'deny') queueMicrotask(() => this.tryResolve(card.id, { action: 'deny' }));
    if (
      rest === 'approve' &&
      card.validation.ok &&
      card.secrets.length === 0 &&
      canonicalJson(card.arguments) === canonicalJson(entry.arguments)
    ) {
      queueMicrotask(() => this.tryResolve(card.id, { action: 'approve' }));
    }
  }

  /** A card was decided or ended; its entry runs next (approved) or ends as the bridge reports. */
  cardResolved(id: string, outcome: string): void {
    const held = this.cards.get(id);
    if (held === undefined) return;
    this.cards.delete(id);
    const { call, index } = held;
    if (call.view.entries[index]!.connectionCardId === id) {
      // Connected or skipped: the entry runs again or ends; the bridge says which.
      this.change(call, index, { state: 'running' }, () => call.startedAt.set(index, this.clock()));
      return;
    }
    const decision = isCardOutcome(outcome) ? outcome : 'closed';
    const approved = decision === 'approved' || decision === 'always';
    this.change(call, index, { state: DECIDED_STATE[decision], decision }, () => {
      if (approved) call.startedAt.set(index, this.clock());
    });
  }

  /** "Approve the rest" / "Deny the rest" (see `ToolbridgeApi.decideRest`). */
  decideRest(callId: string, decision: 'approve' | 'deny'): void {
    const call = this.open.get(callId);
    if (call === undefined || call.view.finishedAt !== undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This call is no longer waiting: it finished, was stopped or the agent went away. Nothing was decided now.',
      );
    }
    call.view = { ...call.view, rest: decision };
    this.publish(call);
    for (const entry of call.view.entries) {
      if (entry.state === 'waiting' && entry.cardId !== undefined) {
        this.tryResolve(entry.cardId, { action: decision });
      }
    }
  }

  /** Whether the person has been shown this running call (a card of it opened). */
  isShown(callId: string): boolean {
    return this.open.get(callId)?.shown === true;
  }

  /**
   * Recent as the audit log tells it, after a restart (`AuditLog.shownCalls`, newest first): each
   * entry's state, card decision, refusal or error message and duration as its line records them.
   * A successful result is never logged, so a done entry has no summary; the arguments are the
   * logged (redacted) ones.
   */
  restore(calls: readonly CallLines[]): void {
    this.recent.push(...calls.map((lines) => this.restoredCall(lines)));
    this.recent.splice(MAX_RECENT_CALLS);
  }

  /** Calls that needed the person: running ones newest first, then the recent finished ones. */
  list(): CallView[] {
    const running = [...this.open.values()].filter((call) => call.shown).map((call) => call.view);
    return structuredClone([...running.reverse(), ...this.recent]);
  }

  dispose(): void {
    this.open.clear();
    this.cards.clear();
    this._onDidUpdateCall.dispose();
  }

  private finish(call: OpenCall, index: number, outcome: CallEntryOutcome): void {
    const started = call.startedAt.get(index);
    const ran = outcome.state === 'done' || outcome.state === 'failed';
    this.change(call, index, {
      state: outcome.state,
      summary: this.options.redactText(outcome.summary),
      ...(ran && started !== undefined ? { durationMs: this.clock() - started } : {}),
    });
  }

  private end(call: OpenCall): void {
    if (this.open.get(call.view.id) !== call) return;
    this.open.delete(call.view.id);
    for (const [id, held] of this.cards) if (held.call === call) this.cards.delete(id);
    if (!call.shown) return;
    call.view = { ...call.view, finishedAt: new Date(this.clock()).toISOString() };
    this.recent.unshift(call.view);
    this.recent.splice(MAX_RECENT_CALLS);
    this.publish(call);
  }

  private restoredCall(lines: CallLines): CallView {
    const times = lines.map((line) => line.time).sort();
    return {
      id: lines[0]!.call.id,
      agentId: lines[0]!.agentId,
      createdAt: times[0]!,
      finishedAt: times.at(-1)!,
      entries: lines.map((line) => {
        const args = isPlainObject(line.arguments) ? line.arguments : {};
        const { state, summary } = loggedOutcome(line);
        const decision = loggedDecision(line);
        // The log names the account it ran under; the default one reads as "no alias named".
        const account =
          line.account === undefined || line.account.default === true ? undefined : line.account.alias;
        return {
          ...this.entryHead(line.call.index, line.toolName, line.serverId, account, args),
          state,
          ...(decision === undefined ? {} : { decision }),
          ...(summary === undefined ? {} : { summary }),
          ...(state === 'done' || state === 'failed' ? { durationMs: line.durationMs } : {}),
        };
      }),
    };
  }

  /** What an entry shows before its state: the tool, its account and app, its arguments and secrets. */
  private entryHead(
    index: number,
    name: string,
    serverId: string,
    account: string | undefined,
    args: JsonObject,
  ): Omit<CallEntryView, 'state'> {
    return {
      index,
      name,
      serverId,
      ...(account === undefined ? {} : { account }),
      ...(this.options.describeApp === undefined || !name.startsWith(CONNECTOR_PREFIX)
        ? {}
        : { app: this.options.describeApp(serverId) }),
      arguments: args,
      secrets: this.options.findSecrets(args),
    };
  }

  /** Replaces one entry's fields (card ids cleared unless given) and tells the UI. */
  private change(call: OpenCall, index: number, patch: Partial<CallEntryView>, before?: () => void): void {
    if (this.open.get(call.view.id) !== call) return;
    before?.();
    const { cardId: _card, connectionCardId: _connection, ...entry } = call.view.entries[index]!;
    const entries = [...call.view.entries];
    entries[index] = { ...entry, ...patch };
    call.view = { ...call.view, entries };
    this.publish(call);
  }

  private publish(call: OpenCall): void {
    if (call.shown) this._onDidUpdateCall.fire(structuredClone(call.view));
  }

  private tryResolve(cardId: string, decision: CardDecision): void {
    try {
      this.options.resolveCard(cardId, decision);
    } catch (error) {
      // Decided meanwhile (by the person, a timeout or the agent going away): nothing to do.
      if (!ToolbridgeError.is(error) || error.code !== 'NOT_FOUND') throw error;
    }
  }
}

/** How an entry ended, as its audit line says: the decision, else the error text it logged. */
function loggedOutcome(line: ActivityEntry): { state: CallEntryOutcome['state']; summary?: string } {
  const summary = line.message === undefined ? {} : { summary: oneLine(line.message) };
  switch (line.decision) {
    case 'deny':
      return { state: 'denied', ...summary };
    case 'timeout':
      return { state: 'timeout', ...summary };
    case 'interrupted':
      return { state: 'interrupted', ...summary };
    default:
      return line.isError ? loggedErrorOutcome(line.message ?? '') : { state: 'done' };
  }
}

/** What was decided on the entry's card, where the line tells ("always" reads as approved). */
function loggedDecision(line: ActivityEntry): CardOutcome | undefined {
  if (line.decision === 'timeout') return 'timeout';
  if (line.decidedBy !== 'user') return undefined;
  if (line.decision === 'allow') return 'approved';
  if (line.decision === 'deny') return 'denied';
  return line.decision === 'interrupted' ? 'stopped' : undefined;
}

/** Where an entry is once its card is decided (the bridge adds the summary when it ends). */
const DECIDED_STATE: Record<CardOutcome, CallEntryView['state']> = {
  approved: 'running',
  always: 'running',
  denied: 'denied',
  stopped: 'interrupted',
  timeout: 'timeout',
  cancelled: 'interrupted',
  closed: 'interrupted',
};

function isCardOutcome(value: string): value is CardOutcome {
  return Object.hasOwn(DECIDED_STATE, value);
}
