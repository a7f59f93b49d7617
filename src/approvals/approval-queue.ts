import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './definition-hash.js';
import type { ToolKey } from './tool-key.js';
import type {
  ApprovalCardView,
  ApprovalToolFacts,
  ArgumentSecret,
  CallAccount,
  CallEntryRef,
  CardDecision,
} from './types.js';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** @defaultValue 5 minutes */
export const DEFAULT_CARD_TIMEOUT_MS = 5 * 60_000;
const MAX_DENY_MESSAGE_CHARS = 2_000;

/** One call waiting for a person: everything the card shows and the approval binds to. */
export interface ApprovalRequest extends ToolKey {
  agentId: string;
  /** The real agent-facing name (`mcp__server__tool`, `connectors__…`), never a bridge name. */
  name: string;
  /** The exact arguments that will be sent, after coercion, defaults and pre-call hooks. */
  arguments: JsonObject;
  /** Secret-looking values in `arguments`, masked (and revealable) on the card. @defaultValue none */
  secrets?: ArgumentSecret[];
  definitionHash: string;
  validation?: ApprovalCardView['validation'];
  /** Connector calls: the account it runs under; shown on the card and part of the binding. */
  account?: CallAccount;
  /** The tool_call entry it decides, when the call is recorded (shown, not bound). */
  call?: CallEntryRef;
  /** The tool's own description and hints, shown as its server's claim (not bound). */
  tool?: ApprovalToolFacts;
}

export interface ApprovalWaitOptions {
  /** The agent's own request. Aborting it closes the card; nothing runs late (checklist A8). */
  signal?: AbortSignal;
  /**
   * The agent's current tool_call, shared by all its entries. A "stop" decision aborts it, which
   * closes every other open card of that tool_call; the caller marks entries not yet started
   * INTERRUPTED.
   */
  stop?: AbortController;
}

/** Proof of one approval, redeemable once, for the exact call it was given for. */
export interface Approval {
  readonly cardId: string;
  readonly binding: string;
  /** The user chose "always allow" for this tool (at this definition hash). */
  readonly always: boolean;
}

export type ApprovalOutcome =
  | { kind: 'approved'; approval: Approval }
  | { kind: 'denied'; message?: string }
  | { kind: 'stopped' | 'timeout' | 'cancelled' | 'closed' };

export type CardOutcome = 'approved' | 'always' | 'denied' | 'stopped' | 'timeout' | 'cancelled' | 'closed';

export interface CardResolvedEvent {
  id: string;
  outcome: CardOutcome;
}

/** The call as it is about to be dispatched, checked against an approval. */
export interface DispatchedCall extends ToolKey {
  agentId: string;
  definitionHash: string;
  arguments: JsonObject;
  account?: CallAccount;
}

export interface ApprovalQueueOptions {
  /**
   * How long a card waits before the call fails with APPROVAL_TIMEOUT; a function is read each
   * time a card opens, so a settings change applies to the next card. @defaultValue 300000
   */
  cardTimeoutMs?: number | (() => number);
  /** Timestamps on cards. @defaultValue the system clock */
  clock?: Clock;
}

/**
 * hash(tool key, definition hash, canonical JSON of the arguments, connector account): what an
 * approval is bound to. Without an account (local tools) the hash is what it always was.
 */
export function approvalBinding(
  key: ToolKey,
  definitionHash: string,
  args: JsonObject,
  account?: CallAccount,
): string {
  const { serverId, toolName } = key;
  return sha256Hex(
    canonicalJson({
      serverId,
      toolName,
      definitionHash,
      args,
      ...(account === undefined ? {} : { account }),
    }),
  );
}

/** True when `approval` was given for exactly this tool, definition, arguments and account. */
export function verifyApproval(
  approval: Approval,
  key: ToolKey,
  definitionHash: string,
  args: JsonObject,
  account?: CallAccount,
): boolean {
  const expected = Buffer.from(approvalBinding(key, definitionHash, args, account));
  const actual = Buffer.from(approval.binding);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

interface PendingCard {
  view: ApprovalCardView;
  request: ApprovalRequest;
  binding: string;
  stop: AbortController | undefined;
  settle(outcome: ApprovalOutcome, event: CardOutcome): void;
}

interface GrantedApproval {
  agentId: string;
  binding: string;
  grantedAt: number;
}

/**
 * Cards waiting for a person. A call under `ask` awaits `request()`; the UI answers with
 * `resolve()`. Card ids are random (128 bits), single-use and expire; each approval can be
 * redeemed once, by the call it was given for.
 */
export class ApprovalQueue implements AsyncDisposable {
  private readonly pending = new Map<string, PendingCard>();
  private readonly granted = new Map<string, GrantedApproval>();
  private readonly clock: Clock;
  private cardTimeoutMs: number | (() => number);
  private closed = false;

  private readonly _onDidOpenCard = new Emitter<ApprovalCardView>();
  readonly onDidOpenCard: Event<ApprovalCardView> = this._onDidOpenCard.event;
  private readonly _onDidResolveCard = new Emitter<CardResolvedEvent>();
  readonly onDidResolveCard: Event<CardResolvedEvent> = this._onDidResolveCard.event;

  constructor(options: ApprovalQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    const timeout = options.cardTimeoutMs ?? DEFAULT_CARD_TIMEOUT_MS;
    this.cardTimeoutMs = typeof timeout === 'function' ? timeout : checkTimeout(timeout);
  }

  /** Applies to cards opened from now on. */
  setCardTimeout(ms: number): void {
    this.cardTimeoutMs = checkTimeout(ms);
  }

  /** Opens a card and waits for its outcome. Never rejects: every ending is an outcome. */
  request(request: ApprovalRequest, options: ApprovalWaitOptions = {}): Promise<ApprovalOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (options.signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
    if (options.stop?.signal.aborted) return Promise.resolve({ kind: 'stopped' });

    const snapshot = structuredClone(request);
    const id = randomBytes(16).toString('base64url');
    const createdAt = this.clock.now();
    const timeoutMs = this.currentTimeout();
    const view: ApprovalCardView = {
      kind: 'approval',
      id,
      agentId: snapshot.agentId,
      serverId: snapshot.serverId,
      toolName: snapshot.name,
      ...(snapshot.account === undefined ? {} : { account: snapshot.account }),
      arguments: structuredClone(snapshot.arguments),
      secrets: snapshot.secrets ?? [],
      validation: snapshot.validation ?? { ok: true },
      ...(snapshot.call === undefined ? {} : { call: snapshot.call }),
      ...(snapshot.tool === undefined ? {} : { tool: snapshot.tool }),
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + timeoutMs).toISOString(),
    };

    return new Promise<ApprovalOutcome>((resolvePromise) => {
      const onAbort = () => card.settle({ kind: 'cancelled' }, 'cancelled');
      const onStop = () => card.settle({ kind: 'stopped' }, 'stopped');
      const timer = setTimeout(() => card.settle({ kind: 'timeout' }, 'timeout'), timeoutMs);
      timer.unref?.();
      const card: PendingCard = {
        view,
        request: snapshot,
        binding: approvalBinding(snapshot, snapshot.definitionHash, snapshot.arguments, snapshot.account),
        stop: options.stop,
        settle: (outcome, event) => {
          if (this.pending.get(id) !== card) return;
          this.pending.delete(id);
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          options.stop?.signal.removeEventListener('abort', onStop);
          this._onDidResolveCard.fire({ id, outcome: event });
          resolvePromise(outcome);
        },
      };
      this.pending.set(id, card);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      options.stop?.signal.addEventListener('abort', onStop, { once: true });
      this._onDidOpenCard.fire(structuredClone(view));
    });
  }

  /**
   * The person's answer (from the UI only; agents have no way here). Throws NOT_FOUND when the
   * card is not waiting any more (decided, expired, cancelled), so a double approve runs once.
   */
  resolve(id: string, decision: CardDecision): void {
    const card = this.pending.get(id);
    if (card === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This card is no longer waiting: it was already decided, expired or cancelled. Nothing was run for it now.',
      );
    }
    const parsed = parseDecision(decision);
    switch (parsed.action) {
      case 'approve':
      case 'always': {
        const always = parsed.action === 'always';
        this.pruneGranted();
        this.granted.set(id, {
          agentId: card.request.agentId,
          binding: card.binding,
          grantedAt: this.clock.now(),
        });
        card.settle(
          { kind: 'approved', approval: { cardId: id, binding: card.binding, always } },
          parsed.action === 'always' ? 'always' : 'approved',
        );
        return;
      }
      case 'deny':
        card.settle(
          parsed.message === undefined ? { kind: 'denied' } : { kind: 'denied', message: parsed.message },
          'denied',
        );
        return;
      case 'stop':
        card.settle({ kind: 'stopped' }, 'stopped');
        card.stop?.abort();
        return;
    }
  }

  /**
   * Spends an approval right before dispatch. True once, and only when the call is the one the
   * card showed: same agent, tool, definition, arguments and account, within the card timeout.
   */
  redeem(approval: Approval, call: DispatchedCall): boolean {
    this.pruneGranted();
    const granted = this.granted.get(approval.cardId);
    if (granted === undefined) return false;
    this.granted.delete(approval.cardId);
    return (
      granted.agentId === call.agentId &&
      granted.binding === approval.binding &&
      verifyApproval(approval, call, call.definitionHash, call.arguments, call.account)
    );
  }

  /** Open cards, newest first. */
  list(): ApprovalCardView[] {
    return [...this.pending.values()].reverse().map((card) => structuredClone(card.view));
  }

  /** Fails every open card with `closed`; later requests fail at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const card of [...this.pending.values()]) card.settle({ kind: 'closed' }, 'closed');
    this.granted.clear();
    this._onDidOpenCard.dispose();
    this._onDidResolveCard.dispose();
  }

  private currentTimeout(): number {
    if (typeof this.cardTimeoutMs === 'number') return this.cardTimeoutMs;
    const ms = this.cardTimeoutMs();
    if (Number.isFinite(ms) && ms > 0) return ms;
    // A bad setting must not leave a call hanging forever or failing at once.
    console.warn(`toolbridge: ignoring card timeout ${ms}; using ${DEFAULT_CARD_TIMEOUT_MS} ms.`);
    return DEFAULT_CARD_TIMEOUT_MS;
  }

  private pruneGranted(): void {
    const oldest = this.clock.now() - this.currentTimeout();
    for (const [id, granted] of this.granted) if (granted.grantedAt < oldest) this.granted.delete(id);
  }
}

function checkTimeout(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The card timeout must be a positive number of milliseconds, not ${ms}.`,
    );
  }
  return ms;
}

/** Decisions arrive over IPC or a socket: check the shape instead of trusting the type. */
function parseDecision(
  decision: unknown,
): { action: 'approve' | 'always' | 'stop' } | { action: 'deny'; message?: string } {
  const action = isPlainObject(decision) ? decision.action : undefined;
  if (action === 'approve' || action === 'always' || action === 'stop') return { action };
  if (action !== 'deny') {
    throw new ToolbridgeError('INVALID_ARGUMENT', 'A card decision must be approve, always, deny or stop.');
  }
  const message = (decision as { message?: unknown }).message;
  if (message === undefined || message === null) return { action };
  if (typeof message !== 'string' || message.length > MAX_DENY_MESSAGE_CHARS) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `A deny message must be text of at most ${MAX_DENY_MESSAGE_CHARS} characters.`,
    );
  }
  const trimmed = message.trim();
  return trimmed === '' ? { action } : { action, message: trimmed };
}
