import { describe, expect, it } from 'vitest';
import type { ApprovalCardView, CallView, CardDecision } from '../../../src/api/ui-api.js';
import type { CallLine } from '../../../src/approvals/audit-log.js';
import { CallBoard, MAX_RECENT_CALLS } from '../../../src/host/call-board.js';

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

describe('CallBoard.restore', () => {
  const line = (index: number, patch: Partial<CallLine> = {}): CallLine => ({
    id: `line-${index}`,
    time: `2026-09-01T10:00:0${index}Z`,
    agentId: 'a',
    toolName: 'connectors__github__CREATE_ISSUE',
    serverId: 'github',
    arguments: { title: `t${index}` },
    decision: 'allow',
    decidedBy: 'user',
    durationMs: 9,
    resultBytes: 10,
    isError: false,
    call: { id: 'restored', index, shown: true },
    ...patch,
  });

  it('issue #16: rebuilds each entry from its audit line: state, card decision, logged message, duration', () => {
    const { calls, updates } = board();
    const skipped = {
      error: { code: 'CONNECTION_REQUIRED', message: 'Slack was skipped.', skipped_by_user: true },
    };
    calls.restore([
      [
        line(0),
        line(1, { decision: 'deny', isError: true, message: 'not today', durationMs: 0 }),
        line(2, { decidedBy: 'policy', isError: true, message: JSON.stringify(skipped) }),
        line(3, { decision: 'timeout', decidedBy: 'system', isError: true, message: 'No one answered.' }),
        line(4, { decision: 'interrupted', isError: true, message: 'Stopped.', account: { alias: 'work' } }),
        line(5, { isError: true, message: 'Boom: the tool failed.' }),
      ],
    ]);
    expect(updates).toEqual([]);
    const [restored] = calls.list();
    expect(restored).toMatchObject({
      id: 'restored',
      agentId: 'a',
      createdAt: '2026-09-01T10:00:00Z',
      finishedAt: '2026-09-01T10:00:05Z',
    });
    expect(
      restored!.entries.map(({ state, decision, summary, durationMs, account }) => ({
        state,
        decision,
        summary,
        durationMs,
        account,
      })),
    ).toEqual([
      { state: 'done', decision: 'approved', summary: undefined, durationMs: 9, account: undefined },
      {
        state: 'denied',
        decision: 'denied',
        summary: 'not today',
        durationMs: undefined,
        account: undefined,
      },
      {
        state: 'skipped',
        decision: undefined,
        summary: 'Slack was skipped.',
        durationMs: undefined,
        account: undefined,
      },
      {
        state: 'timeout',
        decision: 'timeout',
        summary: 'No one answered.',
        durationMs: undefined,
        account: undefined,
      },
      {
        state: 'interrupted',
        decision: 'stopped',
        summary: 'Stopped.',
        durationMs: undefined,
        account: 'work',
      },
      {
        state: 'failed',
        decision: 'approved',
        summary: 'Boom: the tool failed.',
        durationMs: 9,
        account: undefined,
      },
    ]);
  });

  it('issue #16: new calls go on top of the restored ones, and the history stays bounded', () => {
    const { calls } = board();
    calls.restore(
      Array.from({ length: MAX_RECENT_CALLS + 5 }, (_, n) => [
        line(0, { call: { id: `old${n}`, index: 0, shown: true } }),
      ]),
    );
    expect(calls.list()).toHaveLength(MAX_RECENT_CALLS);
    const record = calls.begin('a', [entry('new')]);
    calls.cardOpened(card('c0', { id: record.id, index: 0 }));
    expect(calls.isShown(record.id)).toBe(true);
    record.end();
    const listed = calls.list();
    expect(listed).toHaveLength(MAX_RECENT_CALLS);
    expect(listed.slice(0, 2).map((call) => call.id)).toEqual([record.id, 'old0']);
  });
});
