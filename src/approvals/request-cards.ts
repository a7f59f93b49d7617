import { randomBytes } from 'node:crypto';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { type Clock, systemClock } from './approval-queue.js';
import type { ElicitationCardView, SamplingCardView } from './types.js';

/** A card a server's request opens (elicitation, sampling), as the UI shows it. */
export type RequestCardView = ElicitationCardView | SamplingCardView;

/** What the card shows, before the queue gives it an id and times. */
export type RequestCardContent =
  | Omit<ElicitationCardView, 'id' | 'createdAt' | 'expiresAt'>
  | Omit<SamplingCardView, 'id' | 'createdAt' | 'expiresAt'>;

export type RequestCardOutcome =
  | { kind: 'accept'; content?: JsonObject }
  | { kind: 'approve' }
  | { kind: 'decline' | 'deny' | 'cancel' }
  | { kind: 'timeout' | 'cancelled' | 'closed' };

export interface RequestCardOptions {
  timeoutMs: number;
  /** The server gave up on its request, or the call it came with ended: the card closes. */
  signal?: AbortSignal;
  /** Checks a form's content before the card settles; a message means "fix this and answer again". */
  checkContent?: (content: JsonObject) => { ok: true; content: JsonObject } | { ok: false; message: string };
}

interface OpenCard {
  view: RequestCardView;
  options: RequestCardOptions;
  settle(outcome: RequestCardOutcome): void;
}

/**
 * Cards for what servers ask of the person: elicitation forms and URLs, and sampling approvals.
 * As approval cards: random single-use ids (128 bits), a timeout, closed when the request is
 * cancelled; only the UI API answers them.
 */
export class RequestCards implements AsyncDisposable {
  private readonly cards = new Map<string, OpenCard>();
  private readonly _onDidOpen = new Emitter<RequestCardView>();
  readonly onDidOpen: Event<RequestCardView> = this._onDidOpen.event;
  private readonly _onDidResolve = new Emitter<{ id: string; outcome: RequestCardOutcome['kind'] }>();
  readonly onDidResolve: Event<{ id: string; outcome: RequestCardOutcome['kind'] }> =
    this._onDidResolve.event;
  private closed = false;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Opens a card and waits for its outcome. Never rejects: every ending is an outcome. */
  open(content: RequestCardContent, options: RequestCardOptions): Promise<RequestCardOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (options.signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
    const id = randomBytes(16).toString('base64url');
    const now = this.clock.now();
    const view = {
      ...structuredClone(content),
      id,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + options.timeoutMs).toISOString(),
    } as RequestCardView;
    return new Promise<RequestCardOutcome>((resolvePromise) => {
      const onAbort = () => card.settle({ kind: 'cancelled' });
      const timer = setTimeout(() => card.settle({ kind: 'timeout' }), options.timeoutMs);
      timer.unref?.();
      const card: OpenCard = {
        view,
        options,
        settle: (outcome) => {
          if (this.cards.get(id) !== card) return;
          this.cards.delete(id);
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          this._onDidResolve.fire({ id, outcome: outcome.kind });
          resolvePromise(outcome);
        },
      };
      this.cards.set(id, card);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this._onDidOpen.fire(structuredClone(view));
    });
  }

  has(id: string): boolean {
    return this.cards.has(id);
  }

  /** Open cards, newest first. */
  list(): RequestCardView[] {
    return [...this.cards.values()].reverse().map((card) => structuredClone(card.view));
  }

  /**
   * The person's answer. Throws NOT_FOUND once the card is not waiting, and INVALID_ARGUMENT for
   * an answer this kind of card does not take or form content that does not fit (the card stays
   * open to be answered again).
   */
  resolve(id: string, decision: unknown): void {
    const card = this.cards.get(id);
    if (card === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This card is no longer waiting: it was already answered, expired or cancelled.',
      );
    }
    const action = isPlainObject(decision) ? decision.action : undefined;
    card.settle(this.outcomeOf(card, action, decision));
  }

  private outcomeOf(card: OpenCard, action: unknown, decision: unknown): RequestCardOutcome {
    if (card.view.kind === 'sampling') {
      if (action === 'approve' || action === 'deny') return { kind: action };
      throw new ToolbridgeError('INVALID_ARGUMENT', 'A sampling card takes approve or deny.');
    }
    if (action === 'decline' || action === 'cancel') return { kind: action };
    if (action !== 'accept') {
      throw new ToolbridgeError('INVALID_ARGUMENT', 'An elicitation card takes accept, decline or cancel.');
    }
    if (card.view.mode === 'url') return { kind: 'accept' };
    const content = (decision as { content?: unknown }).content ?? {};
    if (!isPlainObject(content)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'Accept a form with its content: an object of the field values.',
      );
    }
    const checked = card.options.checkContent?.(content as JsonObject) ?? {
      ok: true,
      content: content as JsonObject,
    };
    if (!checked.ok) throw new ToolbridgeError('INVALID_ARGUMENT', checked.message);
    return { kind: 'accept', content: checked.content };
  }

  /** Settles every open card as `closed`; later ones close at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const card of [...this.cards.values()]) card.settle({ kind: 'closed' });
    this._onDidOpen.dispose();
    this._onDidResolve.dispose();
  }
}
