import { describe, expect, it } from 'vitest';
import type { ApprovalCardView, CallView, CardDecision } from '../../../src/api/ui-api.js';
import { CallBoard } from '../../../src/host/call-board.js';

/** A board whose "resolve" records the decisions it makes for "the rest". */
function board() {
  const decided: Array<[string, CardDecision]> = [];
  const updates: CallView[] = [];
  const calls = new CallBoard({
    findSecrets: (args) => ('token' in args ? [{ path: ['token'], kinds: ['a token'] }] : []),
    redactText: (text) => text.replaceAll('hunter2', '[redacted]'),
    resolveCard: (id, decision) => void decided.push([id, decision]),
    clock: () => 1_000,
  });
  calls.onDidUpdateCall((call) => updates.push(call));
  return { calls, decided, updates };
}

function card(id: string, call: { id: string; index: number }, patch: Partial<ApprovalCardView> = {}) {
  const view: ApprovalCardView = {
    kind: 'approval',
    id,
    agentId: 'a',
    serverId: 'github',
    toolName: 'connectors__github__CREATE_ISSUE',
    arguments: { title: 'x' },
    secrets: [],
    validation: { ok: true },
    call,
    createdAt: '',
    expiresAt: '',
    ...patch,
  };
  return view;
}

const entry = (title: string, extra: Record<string, unknown> = {}) => ({
  name: 'connectors__github__CREATE_ISSUE',
  serverId: 'github',
  arguments: { title, ...extra },
});

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('CallBoard', () => {
  it('issue #16: shows nothing of a call no card was opened for', () => {
    const { calls, updates } = board();
    const record = calls.begin('a', [entry('x')]);
    record.started(0);
    record.finished(0, { state: 'done', summary: 'ok' });
    record.end();
    expect(updates).toEqual([]);
    expect(calls.list()).toEqual([]);
  });

  it('issue #16: "approve the rest" approves a later entry only with the arguments shown and no secret', async () => {
    const { calls, decided } = board();
    const record = calls.begin('a', [entry('one'), entry('two'), entry('three', { token: 't' })]);
    const ref = (index: number) => ({ id: record.id, index });
    calls.cardOpened(card('c0', ref(0), { arguments: { title: 'one' } }));
    calls.decideRest(record.id, 'approve');
    expect(decided).toEqual([['c0', { action: 'approve' }]]);
    // A hook changed the arguments: the card waits for the person.
    calls.cardOpened(card('c1', ref(1), { arguments: { title: 'two, rewritten' } }));
    // A secret about to be sent: it waits too.
    calls.cardOpened(
      card('c2', ref(2), {
        arguments: { title: 'three', token: 't' },
        secrets: [{ path: ['token'], kinds: ['a token'] }],
      }),
    );
    await flush();
    expect(decided).toEqual([['c0', { action: 'approve' }]]);
    expect(calls.list()[0]?.entries.map((e) => e.state)).toEqual(['waiting', 'waiting', 'waiting']);
  });

  it('issue #16: "deny the rest" denies each later card as it opens; summaries are redacted', async () => {
    const { calls, decided } = board();
    const record = calls.begin('a', [entry('one'), entry('two')]);
    calls.cardOpened(card('c0', { id: record.id, index: 0 }, { arguments: { title: 'one' } }));
    calls.decideRest(record.id, 'deny');
    calls.cardResolved('c0', 'denied');
    record.finished(0, { state: 'denied', summary: 'The user denied it; password hunter2' });
    calls.cardOpened(card('c1', { id: record.id, index: 1 }, { arguments: { title: 'two' } }));
    await flush();
    expect(decided).toEqual([
      ['c0', { action: 'deny' }],
      ['c1', { action: 'deny' }],
    ]);
    record.end();
    const [done] = calls.list();
    expect(done?.finishedAt).toBeDefined();
    expect(done?.entries[0]).toMatchObject({ state: 'denied', decision: 'denied' });
    expect(done?.entries[0]?.summary).toBe('The user denied it; password [redacted]');
    expect(() => calls.decideRest(record.id, 'approve')).toThrow(/no longer waiting/);
  });

  it('marks secret-looking arguments of every entry for the UI to mask', () => {
    const { calls } = board();
    const record = calls.begin('a', [entry('one', { token: 'secret' })]);
    calls.cardOpened(card('c0', { id: record.id, index: 0 }));
    expect(calls.list()[0]?.entries[0]?.secrets).toEqual([{ path: ['token'], kinds: ['a token'] }]);
  });
});
