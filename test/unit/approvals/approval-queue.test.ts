import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalCardView, CardDecision } from '../../../src/api/ui-api.js';
import {
  type ApprovalOutcome,
  ApprovalQueue,
  type ApprovalRequest,
  approvalBinding,
  type CardResolvedEvent,
  DEFAULT_CARD_TIMEOUT_MS,
  verifyApproval,
} from '../../../src/approvals/approval-queue.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { shuffle } from './helpers.js';

function call(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    agentId: 'agent-a',
    name: 'mcp__files__write_file',
    serverId: 'files',
    toolName: 'write_file',
    arguments: { path: '/tmp/x', content: 'hello' },
    definitionHash: 'hash-1',
    ...overrides,
  };
}

/** Tracks whether a promise has settled without waiting on it. */
function track<T>(promise: Promise<T>): { settled: () => boolean; value: () => T | undefined } {
  let done = false;
  let result: T | undefined;
  void promise.then((value) => {
    done = true;
    result = value;
  });
  return { settled: () => done, value: () => result };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

let queue: ApprovalQueue;
let opened: ApprovalCardView[];
let resolved: CardResolvedEvent[];

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-09-01T10:00:00Z') });
  queue = new ApprovalQueue({ clock: { now: () => Date.now() } });
  opened = [];
  resolved = [];
  queue.onDidOpenCard((card) => opened.push(card));
  queue.onDidResolveCard((event) => resolved.push(event));
});

afterEach(async () => {
  await queue.close();
  vi.useRealTimers();
});

describe('ApprovalQueue.request', () => {
  it('opens a card with the exact call and blocks until someone decides', async () => {
    const waiting = track(
      queue.request(call({ validation: { ok: false, message: 'bad', path: 'arguments.x' } })),
    );
    await flush();
    expect(waiting.settled()).toBe(false);
    expect(opened).toHaveLength(1);
    const card = opened[0]!;
    expect(card).toEqual({
      kind: 'approval',
      id: card.id,
      agentId: 'agent-a',
      serverId: 'files',
      toolName: 'mcp__files__write_file',
      arguments: { path: '/tmp/x', content: 'hello' },
      secrets: [],
      validation: { ok: false, message: 'bad', path: 'arguments.x' },
      createdAt: '2026-09-01T10:00:00.000Z',
      expiresAt: new Date(Date.parse('2026-09-01T10:00:00Z') + DEFAULT_CARD_TIMEOUT_MS).toISOString(),
    });
    // 16 random bytes in base64url: 22 characters, 128 bits.
    expect(card.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(queue.list()).toEqual([card]);

    queue.resolve(card.id, { action: 'approve' });
    await flush();
    expect(waiting.value()).toMatchObject({ kind: 'approved', approval: { cardId: card.id, always: false } });
    expect(queue.list()).toEqual([]);
    expect(resolved).toEqual([{ id: card.id, outcome: 'approved' }]);
  });

  it('issue #12: shows the exact arguments with their secret findings, bound to those arguments', async () => {
    const secrets = [{ path: ['token'], kinds: ['the value of a key named "token"'] }];
    const request = call({ arguments: { token: 'ghp_real' }, secrets });
    const waiting = queue.request(request);
    queue.resolve(opened[0]!.id, { action: 'approve' });
    const outcome = await waiting;
    expect(opened[0]!.arguments).toEqual({ token: 'ghp_real' });
    expect(opened[0]!.secrets).toEqual(secrets);
    if (outcome.kind !== 'approved') throw new Error(outcome.kind);
    expect(outcome.approval.binding).toBe(approvalBinding(request, 'hash-1', { token: 'ghp_real' }));
  });

  it('gives unique ids to many cards', () => {
    for (let i = 0; i < 200; i++) void queue.request(call());
    expect(new Set(queue.list().map((card) => card.id)).size).toBe(200);
  });

  it('lists open cards newest first', () => {
    void queue.request(call({ toolName: 'one', name: 'mcp__files__one' }));
    vi.advanceTimersByTime(1000);
    void queue.request(call({ toolName: 'two', name: 'mcp__files__two' }));
    void queue.request(call({ toolName: 'three', name: 'mcp__files__three' }));
    expect(queue.list().map((card) => card.toolName)).toEqual([
      'mcp__files__three',
      'mcp__files__two',
      'mcp__files__one',
    ]);
  });

  it('snapshots the arguments: changing the caller object later changes neither card nor binding', async () => {
    const request = call();
    const waiting = queue.request(request);
    request.arguments.path = '/etc/passwd';
    queue.resolve(opened[0]!.id, { action: 'approve' });
    const outcome = await waiting;
    expect(queue.list()).toEqual([]);
    expect(opened[0]!.arguments.path).toBe('/tmp/x');
    if (outcome.kind !== 'approved') throw new Error(outcome.kind);
    expect(verifyApproval(outcome.approval, request, 'hash-1', { path: '/tmp/x', content: 'hello' })).toBe(
      true,
    );
    expect(verifyApproval(outcome.approval, request, 'hash-1', request.arguments)).toBe(false);
  });
});

describe('ApprovalQueue.resolve', () => {
  it('always: approves and says so', async () => {
    const waiting = queue.request(call());
    queue.resolve(opened[0]!.id, { action: 'always' });
    expect(await waiting).toMatchObject({ kind: 'approved', approval: { always: true } });
    expect(resolved[0]?.outcome).toBe('always');
  });

  it('deny: carries the trimmed message for the agent, or none', async () => {
    const first = queue.request(call());
    const second = queue.request(call());
    const [b, a] = queue.list();
    queue.resolve(a!.id, { action: 'deny', message: '  not that folder  ' });
    queue.resolve(b!.id, { action: 'deny', message: '   ' });
    expect(await first).toEqual({ kind: 'denied', message: 'not that folder' });
    expect(await second).toEqual({ kind: 'denied' });
  });

  it('rejects malformed decisions and leaves the card open', () => {
    void queue.request(call());
    const id = opened[0]!.id;
    const bad: unknown[] = [{ action: 'yes' }, null, 'approve', { action: 'deny', message: 5 }];
    for (const decision of bad) {
      expect(() => queue.resolve(id, decision as CardDecision)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    expect(() => queue.resolve(id, { action: 'deny', message: 'x'.repeat(2001) })).toThrow(/2000/);
    expect(queue.list()).toHaveLength(1);
  });

  it('is single-use: a second decision on the same card is NOT_FOUND', async () => {
    const waiting = queue.request(call());
    const id = opened[0]!.id;
    queue.resolve(id, { action: 'approve' });
    let error: unknown;
    try {
      queue.resolve(id, { action: 'approve' });
    } catch (caught) {
      error = caught;
    }
    expect(ToolbridgeError.is(error, 'NOT_FOUND')).toBe(true);
    expect((await waiting).kind).toBe('approved');
    expect(() => queue.resolve('no-such-card', { action: 'deny' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });
});

describe('ApprovalQueue.redeem', () => {
  async function approved(request: ApprovalRequest) {
    const waiting = queue.request(request);
    queue.resolve(queue.list()[0]!.id, { action: 'approve' });
    const outcome = await waiting;
    if (outcome.kind !== 'approved') throw new Error(outcome.kind);
    return outcome.approval;
  }

  it('redeems once for the exact call, never twice', async () => {
    const request = call();
    const approval = await approved(request);
    expect(queue.redeem(approval, request)).toBe(true);
    expect(queue.redeem(approval, request)).toBe(false);
  });

  it('refuses changed arguments, another definition, another tool or another agent', async () => {
    const cases = [
      call({ arguments: { path: '/tmp/x', content: 'hello!' } }),
      call({ arguments: { content: 'hello', path: '/tmp/x', extra: 1 } }),
      call({ definitionHash: 'hash-2' }),
      call({ toolName: 'delete_file' }),
      call({ serverId: 'other' }),
      call({ agentId: 'agent-b' }),
    ];
    for (const dispatched of cases) {
      const approval = await approved(call());
      expect(queue.redeem(approval, dispatched), JSON.stringify(dispatched)).toBe(false);
    }
    // Key order alone is not a change.
    const approval = await approved(call());
    expect(queue.redeem(approval, call({ arguments: { content: 'hello', path: '/tmp/x' } }))).toBe(true);
  });

  it("never applies card B's approval to call A", async () => {
    const callA = call({ arguments: { path: '/a' } });
    const callB = call({ arguments: { path: '/b' } });
    const waitingA = queue.request(callA);
    const waitingB = queue.request(callB);
    const [cardB] = queue.list();
    queue.resolve(cardB!.id, { action: 'approve' });
    const outcomeB = await waitingB;
    if (outcomeB.kind !== 'approved') throw new Error(outcomeB.kind);
    expect(queue.redeem(outcomeB.approval, callA)).toBe(false);
    // A forged approval that names B's card with A's binding is refused as well.
    const forged = {
      cardId: cardB!.id,
      binding: approvalBinding(callA, 'hash-1', callA.arguments),
      always: false,
    };
    expect(queue.redeem(forged, callA)).toBe(false);
    expect(queue.list()).toHaveLength(1);
    queue.resolve(queue.list()[0]!.id, { action: 'deny' });
    expect((await waitingA).kind).toBe('denied');
  });

  it('binds a connector call to its account: the card names it, another account is refused', async () => {
    const work = call({
      name: 'connectors__slack__SEND_MESSAGE',
      serverId: 'slack',
      toolName: 'SEND_MESSAGE',
      account: { alias: 'work' },
    });
    const { account: _work, ...unnamed } = work;
    const others: ApprovalRequest[] = [
      call({ ...unnamed, account: { alias: 'home' } }),
      call({ ...unnamed, account: { default: true } }),
      unnamed,
    ];
    for (const other of others) {
      const approval = await approved(work);
      expect(opened.at(-1)?.account).toEqual({ alias: 'work' });
      expect(verifyApproval(approval, other, other.definitionHash, other.arguments, other.account)).toBe(
        false,
      );
      expect(queue.redeem(approval, other), JSON.stringify(other.account)).toBe(false);
    }
    expect(queue.redeem(await approved(work), work)).toBe(true);
  });

  it('lapses when not used within the card timeout', async () => {
    const request = call();
    const approval = await approved(request);
    vi.advanceTimersByTime(DEFAULT_CARD_TIMEOUT_MS + 1);
    expect(queue.redeem(approval, request)).toBe(false);
  });
});

describe('ApprovalQueue endings', () => {
  it('times out after the configured time with a timeout outcome, not before', async () => {
    queue.setCardTimeout(60_000);
    const waiting = track(queue.request(call()));
    expect(opened[0]!.expiresAt).toBe('2026-09-01T10:01:00.000Z');
    vi.advanceTimersByTime(59_999);
    await flush();
    expect(waiting.settled()).toBe(false);
    vi.advanceTimersByTime(1);
    await flush();
    expect(waiting.value()).toEqual({ kind: 'timeout' });
    expect(resolved).toEqual([{ id: opened[0]!.id, outcome: 'timeout' }]);
    expect(() => queue.resolve(opened[0]!.id, { action: 'approve' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('reads a timeout function each time a card opens, and falls back on a bad value', async () => {
    let setting = 10_000;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const live = new ApprovalQueue({ clock: { now: () => Date.now() }, cardTimeoutMs: () => setting });
    const first = track(live.request(call()));
    setting = 20_000;
    const second = track(live.request(call()));
    setting = -1;
    void live.request(call());
    expect(live.list().map((card) => Date.parse(card.expiresAt) - Date.parse(card.createdAt))).toEqual([
      DEFAULT_CARD_TIMEOUT_MS,
      20_000,
      10_000,
    ]);
    expect(warn).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(10_000);
    await flush();
    expect([first.settled(), second.settled()]).toEqual([true, false]);
    await live.close();
    warn.mockRestore();
  });

  it('refuses a timeout that is not a positive number', () => {
    expect(() => queue.setCardTimeout(0)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new ApprovalQueue({ cardTimeoutMs: Number.NaN })).toThrow(/positive/);
  });

  it('closes the card when the agent cancels; a late approval finds nothing', async () => {
    const controller = new AbortController();
    const waiting = queue.request(call(), { signal: controller.signal });
    const id = opened[0]!.id;
    controller.abort();
    expect(await waiting).toEqual({ kind: 'cancelled' });
    expect(queue.list()).toEqual([]);
    expect(() => queue.resolve(id, { action: 'approve' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('does not open a card for a request that is already cancelled or stopped', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await queue.request(call(), { signal: cancelled.signal })).toEqual({ kind: 'cancelled' });
    const stopped = new AbortController();
    stopped.abort();
    expect(await queue.request(call(), { stop: stopped })).toEqual({ kind: 'stopped' });
    expect(opened).toEqual([]);
  });

  it('stop ends the tool_call: its other open cards close, other tool_calls keep theirs', async () => {
    const toolCall = new AbortController();
    const other = new AbortController();
    const first = queue.request(call({ arguments: { n: 1 } }), { stop: toolCall });
    const second = queue.request(call({ arguments: { n: 2 } }), { stop: toolCall });
    const unrelated = track(queue.request(call({ arguments: { n: 3 } }), { stop: other }));
    queue.resolve(opened[0]!.id, { action: 'stop' });
    expect(await first).toEqual({ kind: 'stopped' });
    expect(await second).toEqual({ kind: 'stopped' });
    expect(toolCall.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
    await flush();
    expect(unrelated.settled()).toBe(false);
    expect(queue.list().map((card) => card.arguments)).toEqual([{ n: 3 }]);
  });

  it('close() fails open cards cleanly and refuses new ones', async () => {
    const waiting = queue.request(call());
    await queue.close();
    expect(await waiting).toEqual({ kind: 'closed' });
    expect(await queue.request(call())).toEqual({ kind: 'closed' });
  });

  it('10 concurrent cards decided in random order each get their own answer', async () => {
    const requests = Array.from({ length: 10 }, (_, n) => call({ arguments: { n } }));
    const waits = requests.map((request) => queue.request(request));
    const cards = queue.list();
    const decisions: CardDecision[] = cards.map((card) =>
      (card.arguments.n as number) % 2 === 0
        ? { action: 'approve' }
        : { action: 'deny', message: `no ${card.arguments.n}` },
    );
    const order = shuffle(
      cards.map((_, i) => i),
      42,
    );
    for (const i of order) queue.resolve(cards[i]!.id, decisions[i]!);
    const outcomes: ApprovalOutcome[] = await Promise.all(waits);
    for (const [n, outcome] of outcomes.entries()) {
      if (n % 2 === 1) {
        expect(outcome).toEqual({ kind: 'denied', message: `no ${n}` });
        continue;
      }
      if (outcome.kind !== 'approved') throw new Error(`call ${n}: ${outcome.kind}`);
      expect(queue.redeem(outcome.approval, requests[n]!)).toBe(true);
    }
  });
});
