import { randomBytes } from 'node:crypto';
import type { AppView, CallEntryRef, ConnectionCardRow, ConnectionCardView } from '../api/ui-api.js';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { ConnectionCardPort, ConnectionCardSession } from '../connectors/manage-connections.js';

export interface ConnectionCardResolved {
  id: string;
  outcome: 'closed' | 'stopped';
  /** One line per target, as manage_connections summed it up. */
  summary?: string;
}

interface OpenCard {
  view: ConnectionCardView;
  skip: Emitter<string>;
  confirm: Emitter<string>;
  stop: AbortController;
}

/**
 * Connection cards: `manage_connections` opens one per `connect` call and drives its rows; the
 * person skips targets, opens their sign-in links, or stops the whole card from the UI. Card
 * ids are random (128 bits) and only the UI API can act on them.
 */
export class ConnectionCards implements ConnectionCardPort, Disposable {
  private readonly cards = new Map<string, OpenCard>();
  private readonly _onDidOpen = new Emitter<ConnectionCardView>();
  private readonly _onDidUpdate = new Emitter<ConnectionCardView>();
  private readonly _onDidResolve = new Emitter<ConnectionCardResolved>();
  readonly onDidOpen: Event<ConnectionCardView> = this._onDidOpen.event;
  readonly onDidUpdate: Event<ConnectionCardView> = this._onDidUpdate.event;
  readonly onDidResolve: Event<ConnectionCardResolved> = this._onDidResolve.event;

  /**
   * @param describeApp names a connector app (and its logo) on its rows
   * @param clock @defaultValue Date.now
   */
  constructor(
    private readonly describeApp?: (connector: string) => AppView,
    private readonly clock: () => number = Date.now,
  ) {}

  open(request: {
    agentId: string;
    targets: ConnectionCardRow[];
    expiresAt: number;
    call?: CallEntryRef;
    forTool?: string;
  }): ConnectionCardSession {
    const id = randomBytes(16).toString('base64url');
    const card: OpenCard = {
      view: {
        kind: 'connection',
        id,
        agentId: request.agentId,
        targets: this.named(request.targets),
        ...(request.call === undefined ? {} : { call: { ...request.call } }),
        ...(request.forTool === undefined ? {} : { forTool: request.forTool }),
        createdAt: new Date(this.clock()).toISOString(),
        expiresAt: new Date(request.expiresAt).toISOString(),
      },
      skip: new Emitter<string>(),
      confirm: new Emitter<string>(),
      stop: new AbortController(),
    };
    this.cards.set(id, card);
    this._onDidOpen.fire(structuredClone(card.view));
    return {
      update: (targets) => {
        if (this.cards.get(id) !== card) return;
        card.view = { ...card.view, targets: this.named(targets) };
        this._onDidUpdate.fire(structuredClone(card.view));
      },
      onDidSkip: card.skip.event,
      onDidConfirm: card.confirm.event,
      stopped: card.stop.signal,
      close: (summary) =>
        this.finish(id, card, { id, outcome: card.stop.signal.aborted ? 'stopped' : 'closed', summary }),
    };
  }

  list(): ConnectionCardView[] {
    return [...this.cards.values()].map((card) => structuredClone(card.view));
  }

  has(id: string): boolean {
    return this.cards.has(id);
  }

  /** The row of `target` on card `id`; throws NOT_FOUND when either is gone. */
  target(id: string, target: string): ConnectionCardRow {
    const row = this.require(id).view.targets.find((candidate) => candidate.name === target);
    if (row === undefined) {
      throw new ToolbridgeError('NOT_FOUND', `The connection card has no target "${target}".`);
    }
    return structuredClone(row);
  }

  /**
   * The person will not connect this target; the agent is told it was skipped. Every other open
   * card waiting for the same app and account skips it too: one answer for every call that waits.
   */
  skip(id: string, target: string): void {
    const row = this.target(id, target);
    this.require(id).skip.fire(target);
    for (const [otherId, other] of this.cards) {
      if (otherId === id) continue;
      const same = other.view.targets.find(
        (candidate) =>
          candidate.name === row.name &&
          candidate.kind === row.kind &&
          candidate.alias === row.alias &&
          candidate.state !== 'connected' &&
          candidate.state !== 'skipped',
      );
      if (same !== undefined) other.skip.fire(target);
    }
  }

  /** The person approves a target that needs no sign-in page (an MCP server to add or enable). */
  confirm(id: string, target: string): void {
    this.target(id, target);
    this.require(id).confirm.fire(target);
  }

  /** Stop on the card: every target not connected yet counts as skipped, and the call returns. */
  stop(id: string): void {
    this.require(id).stop.abort();
  }

  dispose(): void {
    for (const card of this.cards.values()) card.stop.abort();
    this.cards.clear();
    this._onDidOpen.dispose();
    this._onDidUpdate.dispose();
    this._onDidResolve.dispose();
  }

  /** The rows as the UI shows them: each connector app with its name and logo. */
  private named(targets: readonly ConnectionCardRow[]): ConnectionCardRow[] {
    const describe = this.describeApp;
    return targets.map((row) =>
      describe === undefined || row.kind !== 'connector'
        ? structuredClone(row)
        : { ...structuredClone(row), app: describe(row.name) },
    );
  }

  private finish(id: string, card: OpenCard, event: ConnectionCardResolved): void {
    if (this.cards.get(id) !== card) return;
    this.cards.delete(id);
    card.skip.dispose();
    card.confirm.dispose();
    this._onDidResolve.fire(event);
  }

  private require(id: string): OpenCard {
    const card = this.cards.get(id);
    if (card === undefined) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This connection card is no longer open: it was finished, stopped or timed out.',
      );
    }
    return card;
  }
}
