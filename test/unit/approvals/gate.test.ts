import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalCardView, CallAccount } from '../../../src/api/ui-api.js';
import { ApprovalQueue } from '../../../src/approvals/approval-queue.js';
import { AuditLog, type AuditRecord } from '../../../src/approvals/audit-log.js';
import { ApprovalGate, type GateRequest } from '../../../src/approvals/gate.js';
import { ToolCallHooks } from '../../../src/approvals/hooks.js';
import type { PolicyConfig, PolicyRule } from '../../../src/approvals/policy.js';
import { createRedactor, REDACTED } from '../../../src/approvals/redaction.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import type { JsonObject } from '../../../src/base/json.js';
import { STOPPED_MESSAGE } from '../../../src/bridge/connector-batch.js';
import { connectorOutcomeResult, connectorResultAccount } from '../../../src/bridge/connector-routing.js';
import { BYPASS_CORPUS, DENIED_NAME } from './bypass-corpus.js';
import { shuffle } from './helpers.js';

const clock = { now: () => Date.now() };

/** A fake server that records what it receives and echoes it. */
class FakeServer {
  readonly calls: JsonObject[] = [];
  readonly run = async (args: JsonObject): Promise<CallToolResult> => {
    this.calls.push(args);
    return { content: [{ type: 'text', text: `ran ${JSON.stringify(args)}` }] };
  };
}

interface Setup {
  gate: ApprovalGate;
  queue: ApprovalQueue;
  audit: AuditRecord[];
  server: FakeServer;
  cards: ApprovalCardView[];
  hooks: ToolCallHooks;
  config: PolicyConfig;
  saved: PolicyRule[];
  nextCard(): Promise<ApprovalCardView>;
}

const open: ApprovalQueue[] = [];

function setup(config: PolicyConfig, redactor = createRedactor()): Setup {
  const queue = new ApprovalQueue({ clock });
  open.push(queue);
  const audit: AuditRecord[] = [];
  const cards: ApprovalCardView[] = [];
  const waiters: Array<(card: ApprovalCardView) => void> = [];
  queue.onDidOpenCard((card) => {
    cards.push(card);
    waiters.shift()?.(card);
  });
  const hooks = new ToolCallHooks();
  const saved: PolicyRule[] = [];
  const gate = new ApprovalGate({
    policy: () => config,
    queue,
    hooks,
    redactor: () => redactor,
    clock,
    audit: { append: async (record) => void audit.push(record) },
    onAlwaysAllow: (rule) => void saved.push(rule),
  });
  return {
    gate,
    queue,
    audit,
    server: new FakeServer(),
    cards,
    hooks,
    config,
    saved,
    nextCard: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

function request(toolName: string, args: JsonObject = {}, overrides: Partial<GateRequest> = {}): GateRequest {
  return {
    agentId: 'agent-a',
    name: `mcp__files__${toolName}`,
    serverId: 'files',
    toolName,
    arguments: args,
    definitionHash: `hash-of-${toolName}`,
    ...overrides,
  };
}

function errorOf(result: CallToolResult): { code: string; message: string } | undefined {
  if (result.isError !== true) return undefined;
  const block = result.content[0];
  return block?.type === 'text' ? JSON.parse(block.text) : undefined;
}

const policies: PolicyConfig = {
  defaultPolicy: 'allow',
  rules: [
    { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'deny' },
    { toolKind: 'mcp' as const, serverId: 'files', toolName: 'write_file', policy: 'ask' },
  ],
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-09-01T10:00:00Z') });
});

afterEach(async () => {
  for (const queue of open.splice(0)) await queue.close();
  vi.useRealTimers();
});

describe('ApprovalGate.call: policy', () => {
  it('allow: runs at once with the arguments and audits a policy decision', async () => {
    const { gate, server, audit, cards } = setup(policies);
    const result = await gate.call(request('read_file', { path: '/a' }), server.run);
    expect(result).toEqual({ content: [{ type: 'text', text: 'ran {"path":"/a"}' }] });
    expect(server.calls).toEqual([{ path: '/a' }]);
    expect(cards).toEqual([]);
    expect(audit).toEqual([
      {
        time: '2026-09-01T10:00:00.000Z',
        agentId: 'agent-a',
        toolName: 'mcp__files__read_file',
        serverId: 'files',
        arguments: { path: '/a' },
        decision: 'allow',
        decidedBy: 'policy',
        policySource: 'default',
        durationMs: 0,
        resultBytes: Buffer.byteLength(JSON.stringify(result)),
        isError: false,
      },
    ]);
  });

  it('deny: an isError result with code DENIED, nothing sent, audited', async () => {
    const { gate, server, audit } = setup(policies);
    const result = await gate.call(request('delete_file', { path: '/a' }), server.run);
    expect(errorOf(result)).toEqual({
      code: 'DENIED',
      message: expect.stringContaining("'mcp__files__delete_file'"),
    });
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ decision: 'deny', decidedBy: 'policy', isError: true, durationMs: 0 }]);
  });

  it('the same deny rule holds for an mcp name and a connector name of the key, and for the pinned path', async () => {
    const { gate, server } = setup({
      defaultPolicy: 'allow',
      rules: [
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'deny' },
        { toolKind: 'connectors' as const, serverId: 'gmail', toolName: 'SEND_EMAIL', policy: 'deny' },
      ],
    });
    const viaBridge = await gate.call(request('delete_file'), server.run);
    const pinned = await gate.call({ ...request('delete_file'), agentId: 'agent-b' }, server.run);
    const connector = await gate.call(
      request('SEND_EMAIL', {}, { name: 'connectors__gmail__SEND_EMAIL', serverId: 'gmail' }),
      server.run,
    );
    for (const result of [viaBridge, pinned, connector]) expect(errorOf(result)?.code).toBe('DENIED');
    expect(server.calls).toEqual([]);
  });

  it('issue #16: an MCP server and a connector app of the same id are apart: neither one’s rules or server policy covers the other', async () => {
    const { gate, server } = setup({
      defaultPolicy: 'allow',
      servers: { github: { policy: 'deny' } },
      connectors: { slack: { policy: 'deny' } },
      rules: [{ toolKind: 'connectors', serverId: 'github', toolName: 'create_issue', policy: 'deny' }],
    });
    const call = (name: string, serverId: string) =>
      gate.call(request('create_issue', {}, { name, serverId }), server.run);
    expect(errorOf(await call('mcp__github__create_issue', 'github'))?.code).toBe('DENIED');
    expect(errorOf(await call('connectors__github__create_issue', 'github'))?.code).toBe('DENIED');
    expect(errorOf(await call('mcp__slack__create_issue', 'slack'))).toBeUndefined();
    expect(errorOf(await call('connectors__slack__create_issue', 'slack'))?.code).toBe('DENIED');
    // The MCP server's deny stops at its own tools: the app's other tool runs.
    const other = await gate.call(
      request('list_repos', {}, { name: 'connectors__github__list_repos', serverId: 'github' }),
      server.run,
    );
    expect(errorOf(other)).toBeUndefined();
    expect(server.calls).toHaveLength(2);
  });

  it('a name that is not exactly the key is NOT_FOUND and never sent', async () => {
    const { gate, server, audit } = setup({ defaultPolicy: 'allow' });
    for (const name of [
      'mcp__files__Read_file',
      'mcp__files__read_file ',
      'mcp__other__read_file',
      'read_file',
    ]) {
      const result = await gate.call(request('read_file', {}, { name }), server.run);
      expect(errorOf(result)?.code, name).toBe('NOT_FOUND');
    }
    expect(server.calls).toEqual([]);
    expect(audit.every((entry) => entry.decision === 'deny' && entry.decidedBy === 'system')).toBe(true);
  });

  it('bypass corpus: the denied key under any other spelling is refused, identically on 3 runs', async () => {
    const { gate, server } = setup(policies);
    const runs: Array<Array<string | undefined>> = [];
    for (let run = 0; run < 3; run++) {
      const codes: Array<string | undefined> = [];
      for (const name of BYPASS_CORPUS) {
        const result = await gate.call(request('delete_file', {}, { name }), server.run);
        codes.push(errorOf(result)?.code);
      }
      runs.push(codes);
    }
    // Policy decides only for the key's exact name; every other spelling is not the key, so
    // NOT_FOUND. The connector twin is a `files` app's tool (issue #16: another namespace), which
    // this MCP rule does not cover: it runs under the default, once per run.
    const twin = 'connectors__files__delete_file';
    expect(runs[0]).toEqual(
      BYPASS_CORPUS.map((name) =>
        name === DENIED_NAME ? 'DENIED' : name === twin ? undefined : 'NOT_FOUND',
      ),
    );
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(server.calls).toHaveLength(BYPASS_CORPUS.includes(twin) ? 3 : 0);
  });

  it('a trusted server’s read-only tool runs without a card; an untrusted one asks', async () => {
    const { gate, server, cards } = setup({ defaultPolicy: 'ask', servers: { files: { trusted: true } } });
    await gate.call(request('list_dir', {}, { annotations: { readOnlyHint: true } }), server.run);
    expect(cards).toEqual([]);
    expect(server.calls).toHaveLength(1);
    const other = setup({ defaultPolicy: 'ask' });
    void other.gate.call(request('list_dir', {}, { annotations: { readOnlyHint: true } }), other.server.run);
    await other.nextCard();
    expect(other.server.calls).toEqual([]);
  });

  it('turns a failing run into an isError result and audits it', async () => {
    const { gate, audit } = setup({ defaultPolicy: 'allow' });
    const down = await gate.call(request('read_file'), async () => {
      throw new ToolbridgeError('SERVER_UNAVAILABLE', 'Server "files" is not connected.');
    });
    expect(errorOf(down)).toEqual({
      code: 'SERVER_UNAVAILABLE',
      message: 'Server "files" is not connected.',
    });
    const bug = await gate.call(request('read_file'), async () => {
      throw new TypeError('oops');
    });
    expect(errorOf(bug)?.code).toBe('INTERNAL');
    expect(audit.map((entry) => [entry.decision, entry.isError, entry.message])).toEqual([
      ['allow', true, expect.stringContaining('not connected')],
      ['allow', true, expect.stringContaining('oops')],
    ]);
  });
});

describe('ApprovalGate.call: cards', () => {
  it('ask blocks until approved, then runs once with the card’s arguments', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    let settled = false;
    const pending = gate
      .call(request('write_file', { path: '/a', content: 'x' }), server.run)
      .then((result) => {
        settled = true;
        return result;
      });
    const card = await nextCard();
    expect(card).toMatchObject({
      toolName: 'mcp__files__write_file',
      arguments: { path: '/a', content: 'x' },
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    expect(server.calls).toEqual([]);
    queue.resolve(card.id, { action: 'approve' });
    expect(errorOf(await pending)).toBeUndefined();
    expect(server.calls).toEqual([{ path: '/a', content: 'x' }]);
    expect(audit).toMatchObject([{ decision: 'allow', decidedBy: 'user', isError: false }]);
  });

  it('deny reaches the agent as DENIED with the user’s message', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    const pending = gate.call(request('write_file', { path: '/a' }), server.run);
    queue.resolve((await nextCard()).id, { action: 'deny', message: 'Write to /tmp instead.' });
    expect(errorOf(await pending)).toEqual({
      code: 'DENIED',
      message: expect.stringMatching(/denied 'mcp__files__write_file'.*Write to \/tmp instead\.$/),
    });
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ decision: 'deny', decidedBy: 'user', message: 'Write to /tmp instead.' }]);
  });

  it('a card nobody answers fails with APPROVAL_TIMEOUT', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    queue.setCardTimeout(30_000);
    const pending = gate.call(request('write_file'), server.run);
    await nextCard();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(errorOf(await pending)?.code).toBe('APPROVAL_TIMEOUT');
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ decision: 'timeout', decidedBy: 'system' }]);
  });

  it('the agent cancelling closes the card; approving afterwards runs nothing', async () => {
    const { gate, server, queue, nextCard } = setup(policies);
    const controller = new AbortController();
    const pending = gate.call(request('write_file', {}, { signal: controller.signal }), server.run);
    const card = await nextCard();
    controller.abort();
    expect(errorOf(await pending)?.code).toBe('CANCELLED');
    expect(() => queue.resolve(card.id, { action: 'approve' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    expect(server.calls).toEqual([]);
  });

  it('a cancel that lands right after the approval still runs nothing', async () => {
    const { gate, server, queue, nextCard } = setup(policies);
    const controller = new AbortController();
    const pending = gate.call(request('write_file', {}, { signal: controller.signal }), server.run);
    queue.resolve((await nextCard()).id, { action: 'approve' });
    controller.abort();
    expect(errorOf(await pending)?.code).toBe('CANCELLED');
    expect(server.calls).toEqual([]);
  });

  it('host shutdown fails the waiting call cleanly', async () => {
    const { gate, server, queue, nextCard } = setup(policies);
    const pending = gate.call(request('write_file'), server.run);
    await nextCard();
    await queue.close();
    expect(errorOf(await pending)).toEqual({
      code: 'INTERRUPTED',
      message: expect.stringContaining('shutting down'),
    });
    expect(server.calls).toEqual([]);
  });

  it('a double approve dispatches once', async () => {
    const { gate, server, queue, nextCard } = setup(policies);
    const pending = gate.call(request('write_file', { n: 1 }), server.run);
    const card = await nextCard();
    queue.resolve(card.id, { action: 'approve' });
    expect(() => queue.resolve(card.id, { action: 'approve' })).toThrow();
    await pending;
    expect(server.calls).toEqual([{ n: 1 }]);
  });

  it('changing the caller’s argument object after the card opened changes nothing that is sent', async () => {
    const { gate, server, queue, nextCard } = setup(policies);
    const args: JsonObject = { path: '/tmp/a' };
    const pending = gate.call(request('write_file', args), server.run);
    const card = await nextCard();
    args.path = '/etc/passwd';
    queue.resolve(card.id, { action: 'approve' });
    await pending;
    expect(server.calls).toEqual([{ path: '/tmp/a' }]);
  });

  it('10 concurrent asks decided in random order each get their own answer', async () => {
    const { gate, server, queue, cards, nextCard } = setup(policies);
    const pending = Array.from({ length: 10 }, (_, n) => gate.call(request('write_file', { n }), server.run));
    while (cards.length < 10) await nextCard();
    for (const i of shuffle([...cards.keys()], 7)) {
      const n = cards[i]!.arguments.n as number;
      queue.resolve(
        cards[i]!.id,
        n % 3 === 0 ? { action: 'deny', message: `not ${n}` } : { action: 'approve' },
      );
    }
    const results = await Promise.all(pending);
    for (const [n, result] of results.entries()) {
      if (n % 3 === 0) expect(errorOf(result)?.message).toContain(`not ${n}`);
      else expect(result.content).toEqual([{ type: 'text', text: `ran {"n":${n}}` }]);
    }
    expect(server.calls.map((args) => args.n).sort()).toEqual([1, 2, 4, 5, 7, 8]);
  });
});

describe('ApprovalGate.call: always allow', () => {
  it('persists a rule bound to the definition hash, which an explicit ask rule still outranks', async () => {
    const { gate, server, queue, cards, saved, nextCard } = setup(policies);
    const first = gate.call(request('write_file', { n: 1 }, { definitionHash: 'h1' }), server.run);
    queue.resolve((await nextCard()).id, { action: 'always' });
    await first;
    expect(saved).toEqual([
      {
        toolKind: 'mcp',
        serverId: 'files',
        toolName: 'write_file',
        policy: 'allow',
        definitionHash: 'h1',
        savedAt: '2026-09-01T10:00:00.000Z',
        savedFrom: 'card',
      },
    ]);
    expect(gate.alwaysRules()).toEqual(saved);
    // write_file is under the user's explicit ask rule, and ask beats allow: it keeps asking.
    void gate.call(request('write_file', { n: 2 }, { definitionHash: 'h1' }), server.run);
    await nextCard();
    expect(cards).toHaveLength(2);
    expect(server.calls).toEqual([{ n: 1 }]);
  });

  it('issue #16: the audit line of a call an "Always allow" rule let through names that rule', async () => {
    const { gate, server, queue, audit, nextCard } = setup({ defaultPolicy: 'ask' });
    const first = gate.call(request('write_file', { n: 1 }, { definitionHash: 'h1' }), server.run);
    queue.resolve((await nextCard()).id, { action: 'always' });
    await first;
    await gate.call(request('write_file', { n: 2 }, { definitionHash: 'h1' }), server.run);
    expect(audit.map((line) => [line.decision, line.decidedBy, line.policySource])).toEqual([
      ['allow', 'user', undefined],
      ['allow', 'policy', 'always-allow'],
    ]);
    const plain = setup({ defaultPolicy: 'allow' });
    await plain.gate.call(request('read_file', { n: 3 }), plain.server.run);
    expect(plain.audit[0]).toMatchObject({ decidedBy: 'policy', policySource: 'default' });
  });

  it('with ask as the fallback, always stops the cards until the definition changes', async () => {
    const config: PolicyConfig = { defaultPolicy: 'ask' };
    const { gate, server, queue, cards, saved, nextCard } = setup(config);
    const first = gate.call(request('write_file', { n: 1 }, { definitionHash: 'h1' }), server.run);
    queue.resolve((await nextCard()).id, { action: 'always' });
    await first;
    await gate.call(request('write_file', { n: 2 }, { definitionHash: 'h1' }), server.run);
    expect(cards).toHaveLength(1);
    expect(server.calls).toEqual([{ n: 1 }, { n: 2 }]);

    const changed = gate.call(request('write_file', { n: 3 }, { definitionHash: 'h2' }), server.run);
    const card = await nextCard();
    expect(server.calls).toHaveLength(2);
    queue.resolve(card.id, { action: 'deny' });
    expect(errorOf(await changed)?.code).toBe('DENIED');

    // After a restart only the persisted rule remains, and it behaves the same.
    const restarted = setup({ defaultPolicy: 'ask', rules: saved });
    await restarted.gate.call(
      request('write_file', { n: 4 }, { definitionHash: 'h1' }),
      restarted.server.run,
    );
    expect(restarted.server.calls).toEqual([{ n: 4 }]);
    void restarted.gate.call(request('write_file', { n: 5 }, { definitionHash: 'h2' }), restarted.server.run);
    await restarted.nextCard();
    expect(restarted.server.calls).toHaveLength(1);
  });

  it('forgetAlways drops the session copy, so removing the saved rule asks again at once', async () => {
    const config: PolicyConfig = { defaultPolicy: 'ask' };
    const { gate, server, queue, cards, saved, nextCard } = setup({ ...config });
    const first = gate.call(request('write_file', { n: 1 }, { definitionHash: 'h1' }), server.run);
    queue.resolve((await nextCard()).id, { action: 'always' });
    await first;
    const subject = {
      toolKind: 'mcp' as const,
      serverId: 'files',
      toolName: 'write_file',
      definitionHash: 'h1',
    };
    expect(gate.decide(subject)).toMatchObject({ policy: 'allow', source: 'rule', rule: saved[0] });
    // Another tool's session rule is left alone.
    gate.forgetAlways({ toolKind: 'mcp' as const, serverId: 'files', toolName: 'read_file' });
    expect(gate.decide(subject).policy).toBe('allow');

    gate.forgetAlways({ toolKind: 'mcp' as const, serverId: 'files', toolName: 'write_file' });
    expect(gate.alwaysRules()).toEqual([]);
    expect(gate.decide(subject)).toMatchObject({ policy: 'ask', source: 'default' });
    void gate.call(request('write_file', { n: 2 }, { definitionHash: 'h1' }), server.run);
    await nextCard();
    expect(cards).toHaveLength(2);
    expect(server.calls).toEqual([{ n: 1 }]);
  });

  describe('for a connector call, bound to its account', () => {
    const slack = (account: CallAccount, n: number): GateRequest =>
      request(
        'SEND_MESSAGE',
        { n },
        {
          name: 'connectors__slack__SEND_MESSAGE',
          serverId: 'slack',
          definitionHash: 'h1',
          account,
        },
      );
    const work = { alias: 'work' };

    it('saves the account; the next call as it runs without a card, another account or the default asks', async () => {
      const { gate, server, queue, cards, saved, nextCard } = setup({ defaultPolicy: 'ask' });
      const first = gate.call(slack(work, 1), server.run);
      queue.resolve((await nextCard()).id, { action: 'always' });
      await first;
      expect(saved).toEqual([
        {
          toolKind: 'connectors',
          serverId: 'slack',
          toolName: 'SEND_MESSAGE',
          account: { alias: 'work' },
          policy: 'allow',
          definitionHash: 'h1',
          savedAt: '2026-09-01T10:00:00.000Z',
          savedFrom: 'card',
        },
      ]);
      expect(gate.alwaysRules()).toEqual(saved);
      await gate.call(slack(work, 2), server.run);
      expect(cards).toHaveLength(1);

      for (const [account, n] of [
        [{ alias: 'personal' }, 3],
        [{ default: true }, 4],
      ] as const) {
        const other = gate.call(slack(account, n), server.run);
        const card = await nextCard();
        expect(card.account).toEqual(account);
        queue.resolve(card.id, { action: 'deny' });
        expect(errorOf(await other)?.code).toBe('DENIED');
      }
      expect(server.calls).toEqual([{ n: 1 }, { n: 2 }]);

      // After a restart only the saved rule remains, and it holds for the same account alone.
      const restarted = setup({ defaultPolicy: 'ask', rules: saved });
      await restarted.gate.call(slack(work, 5), restarted.server.run);
      expect(restarted.server.calls).toEqual([{ n: 5 }]);
      void restarted.gate.call(slack({ default: true }, 6), restarted.server.run);
      await restarted.nextCard();
      expect(restarted.server.calls).toHaveLength(1);
    });

    it('"always" for the default account is its own rule; forgetting one account keeps the other', async () => {
      const { gate, server, queue, saved, nextCard } = setup({ defaultPolicy: 'ask' });
      for (const [account, n] of [
        [work, 1],
        [{ default: true }, 2],
      ] as const) {
        const call = gate.call(slack(account, n), server.run);
        queue.resolve((await nextCard()).id, { action: 'always' });
        await call;
      }
      expect(saved.map((rule) => rule.account)).toEqual([{ alias: 'work' }, { default: true }]);
      expect(gate.alwaysRules()).toEqual(saved);

      const subject = {
        toolKind: 'connectors' as const,
        serverId: 'slack',
        toolName: 'SEND_MESSAGE',
        definitionHash: 'h1',
      };
      gate.forgetAlways({
        toolKind: 'connectors' as const,
        serverId: 'slack',
        toolName: 'SEND_MESSAGE',
        account: { alias: 'work' },
      });
      expect(gate.alwaysRules()).toEqual([saved[1]]);
      expect(gate.decide({ ...subject, account: work }).policy).toBe('ask');
      expect(gate.decide({ ...subject, account: { default: true } }).policy).toBe('allow');
      // Forgetting a rule for every account (a local tool's, or an older one) leaves a bound one.
      gate.forgetAlways({ toolKind: 'connectors' as const, serverId: 'slack', toolName: 'SEND_MESSAGE' });
      expect(gate.alwaysRules()).toEqual([saved[1]]);
    });

    it('a rule saved before accounts were recorded still allows the tool under every account', async () => {
      const { gate, server, cards } = setup({
        defaultPolicy: 'ask',
        rules: [
          {
            toolKind: 'connectors' as const,
            serverId: 'slack',
            toolName: 'SEND_MESSAGE',
            policy: 'allow',
            definitionHash: 'h1',
          },
        ],
      });
      await gate.call(slack(work, 1), server.run);
      await gate.call(slack({ alias: 'personal' }, 2), server.run);
      await gate.call(slack({ default: true }, 3), server.run);
      expect(cards).toEqual([]);
      expect(server.calls).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });
  });

  it('a failing save still allows for the session', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const queue = new ApprovalQueue({ clock });
    open.push(queue);
    const gate = new ApprovalGate({
      policy: () => ({ defaultPolicy: 'ask' }),
      queue,
      onAlwaysAllow: () => Promise.reject(new Error('disk full')),
    });
    const server = new FakeServer();
    const opened = new Promise<ApprovalCardView>((resolve) => queue.onDidOpenCard(resolve));
    const first = gate.call(request('write_file', {}, { definitionHash: 'h1' }), server.run);
    queue.resolve((await opened).id, { action: 'always' });
    await first;
    await gate.call(request('write_file', {}, { definitionHash: 'h1' }), server.run);
    expect(server.calls).toHaveLength(2);
  });
});

describe('ApprovalGate.call: hooks and redaction', () => {
  it('a pre-call hook’s rewrite is what the card shows and the server gets; a post-call hook shapes the result', async () => {
    const { gate, server, queue, hooks, nextCard } = setup(policies);
    hooks.add({
      name: 'sandbox',
      beforeCall: (call) => ({
        action: 'rewrite',
        arguments: { ...call.arguments, path: `/sandbox${call.arguments.path}` },
      }),
      afterCall: (call, result) => ({
        ...result,
        content: [...result.content, { type: 'text', text: `checked ${call.arguments.path}` }],
      }),
    });
    const pending = gate.call(request('write_file', { path: '/a' }), server.run);
    const card = await nextCard();
    expect(card.arguments).toEqual({ path: '/sandbox/a' });
    queue.resolve(card.id, { action: 'approve' });
    const result = await pending;
    expect(server.calls).toEqual([{ path: '/sandbox/a' }]);
    expect(result.content.at(-1)).toEqual({ type: 'text', text: 'checked /sandbox/a' });
  });

  it('a blocking hook refuses before any card, audited as decided by the hook', async () => {
    const { gate, server, cards, hooks, audit } = setup(policies);
    hooks.add({
      name: 'no-etc',
      beforeCall: () => ({ action: 'block', reason: 'paths under /etc are off limits' }),
    });
    const result = await gate.call(request('write_file', { path: '/etc/x' }), server.run);
    expect(errorOf(result)).toEqual({
      code: 'DENIED',
      message: expect.stringContaining('paths under /etc are off limits'),
    });
    expect(cards).toEqual([]);
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ decision: 'deny', decidedBy: 'hook' }]);
  });

  it('a post-call hook that throws withholds the result', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { gate, server, hooks } = setup({ defaultPolicy: 'allow' });
    hooks.add({
      name: 'scrub',
      afterCall: () => {
        throw new Error('x');
      },
    });
    expect(errorOf(await gate.call(request('read_file'), server.run))?.code).toBe('INTERNAL');
  });

  it('a token never reaches the audit log; the server gets it unless the rule says redactOutbound', async () => {
    vi.useRealTimers();
    const dir = await mkdtemp(join(tmpdir(), 'toolbridge-gate-'));
    try {
      const log = await AuditLog.open({ dir });
      const token = `ghp_${'Q1w'.repeat(12)}`;
      const config: PolicyConfig = {
        defaultPolicy: 'allow',
        rules: [
          {
            toolKind: 'mcp' as const,
            serverId: 'files',
            toolName: 'upload',
            policy: 'allow',
            redactOutbound: true,
          },
        ],
      };
      const queue = new ApprovalQueue();
      open.push(queue);
      const gate = new ApprovalGate({ policy: () => config, queue, audit: log });
      const server = new FakeServer();
      await gate.call(request('read_file', { auth: `Bearer ${token}`, note: `key ${token}` }), server.run);
      await gate.call(request('upload', { note: `key ${token}` }), server.run);
      await log.close();
      expect(server.calls).toEqual([
        { auth: `Bearer ${token}`, note: `key ${token}` },
        { note: `key ${REDACTED}` },
      ]);
      const raw = await readFile(join(dir, 'audit.jsonl'), 'utf8');
      expect(raw).not.toContain(token);
      expect(raw.split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('issue #12: the card shows the exact arguments and flags the secret-looking one', async () => {
    const { gate, server, queue, nextCard } = setup({ defaultPolicy: 'ask' });
    const token = `sk-${'Zx9_'.repeat(8)}`;
    const pending = gate.call(request('call_api', { key: token }), server.run);
    const card = await nextCard();
    expect(card.arguments).toEqual({ key: token });
    expect(card.secrets).toEqual([{ path: ['key'], kinds: ['an API key (sk-…)'] }]);
    queue.resolve(card.id, { action: 'approve' });
    await pending;
    expect(server.calls).toEqual([{ key: token }]);
  });
});

describe('ApprovalGate: connector accounts', () => {
  const slack = (account: GateRequest['account']): GateRequest => ({
    ...request(
      'SEND_MESSAGE',
      { text: 'hi' },
      { name: 'connectors__slack__SEND_MESSAGE', serverId: 'slack' },
    ),
    account,
    ranUnder: connectorResultAccount,
  });
  /** A gateway answer that names the account it ran under. */
  const ranAs = (alias: string) => async (): Promise<CallToolResult> =>
    connectorOutcomeResult({ response: { ok: true }, account: alias });

  it('the card and the audit line name the account the entry asked for; a local call has none', async () => {
    const { gate, queue, audit, nextCard, server } = setup({ defaultPolicy: 'ask' });
    const pending = gate.call(slack({ alias: 'work' }), ranAs('work'));
    const card = await nextCard();
    expect(card).toMatchObject({ toolName: 'connectors__slack__SEND_MESSAGE', account: { alias: 'work' } });
    queue.resolve(card.id, { action: 'approve' });
    expect(errorOf(await pending)).toBeUndefined();
    const local = gate.call(request('read_file'), server.run);
    const localCard = await nextCard();
    expect(localCard).not.toHaveProperty('account');
    queue.resolve(localCard.id, { action: 'approve' });
    await local;
    expect(audit.map((entry) => entry.account)).toEqual([{ alias: 'work' }, undefined]);
    expect(audit[1]).not.toHaveProperty('account');
  });

  it('under the default account the card says so, and the audit line takes the alias the gateway reported', async () => {
    const { gate, queue, audit, nextCard } = setup({ defaultPolicy: 'ask' });
    const pending = gate.call(slack({ default: true }), ranAs('slack-account'));
    const card = await nextCard();
    expect(card.account).toEqual({ default: true });
    queue.resolve(card.id, { action: 'approve' });
    await pending;
    // Denied: nothing ran, so nobody said which account it is.
    const denied = gate.call(slack({ default: true }), ranAs('never'));
    queue.resolve((await nextCard()).id, { action: 'deny' });
    expect(errorOf(await denied)?.code).toBe('DENIED');
    // A reported alias that breaks the alias rule is not taken.
    const odd = gate.call(slack({ default: true }), ranAs('Not An Alias'));
    queue.resolve((await nextCard()).id, { action: 'approve' });
    await odd;
    expect(audit.map((entry) => [entry.decision, entry.account])).toEqual([
      ['allow', { alias: 'slack-account', default: true }],
      ['deny', { default: true }],
      ['allow', { default: true }],
    ]);
  });

  it('an entry a Stop ended before the gate is audited with its account', async () => {
    const { gate, audit } = setup({ defaultPolicy: 'ask' });
    await gate.recordInterrupted(slack({ alias: 'work' }));
    expect(audit).toMatchObject([{ decision: 'interrupted', account: { alias: 'work' } }]);
  });
});

describe('ApprovalGate.call: batches and stop', () => {
  const entries = ['read_file', 'list_dir', 'write_file', 'stat', 'read_file'];

  /** Hands every entry to the gate in turn, each waiting for the one before, under one Stop. */
  async function sendAll(
    { gate, server }: Pick<Setup, 'gate' | 'server'>,
    stop: AbortController,
  ): Promise<CallToolResult[]> {
    const results: CallToolResult[] = [];
    for (const [i, tool] of entries.entries()) {
      results.push(await gate.call(request(tool, { i }, { stop }), server.run));
    }
    return results;
  }

  it('M16: a batch of 5 with entry 3 under ask gives 1 card and 5 audit decisions', async () => {
    const { gate, server, queue, cards, audit, nextCard } = setup(policies);
    const stop = new AbortController();
    const batch = sendAll({ gate, server }, stop);
    queue.resolve((await nextCard()).id, { action: 'approve' });
    const results = await batch;
    expect(cards).toHaveLength(1);
    expect(cards[0]?.toolName).toBe('mcp__files__write_file');
    expect(results.every((result) => result.isError !== true)).toBe(true);
    expect(audit.map((entry) => `${entry.toolName}:${entry.decidedBy}`)).toEqual([
      'mcp__files__read_file:policy',
      'mcp__files__list_dir:policy',
      'mcp__files__write_file:user',
      'mcp__files__stat:policy',
      'mcp__files__read_file:policy',
    ]);
    expect(server.calls).toHaveLength(5);
  });

  it('stop on a card interrupts that entry and every entry after it, which are never sent', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    const stop = new AbortController();
    // A small stand-in for the bridge's connector batch: it checks the stop signal before each entry.
    const batch = (async () => {
      const results: Array<{ index: number; error?: { code: string; message: string } }> = [];
      for (const [index, tool] of entries.entries()) {
        if (stop.signal.aborted) {
          results.push({ index, error: { code: 'INTERRUPTED', message: STOPPED_MESSAGE } });
          continue;
        }
        const result = await gate.call(request(tool, { index }, { stop }), server.run);
        results.push(result.isError ? { index, error: errorOf(result)! } : { index });
      }
      return results;
    })();
    queue.resolve((await nextCard()).id, { action: 'stop' });
    const results = await batch;
    expect(results).toEqual([
      { index: 0 },
      { index: 1 },
      { index: 2, error: { code: 'INTERRUPTED', message: STOPPED_MESSAGE } },
      { index: 3, error: { code: 'INTERRUPTED', message: STOPPED_MESSAGE } },
      { index: 4, error: { code: 'INTERRUPTED', message: STOPPED_MESSAGE } },
    ]);
    expect(stop.signal.aborted).toBe(true);
    expect(server.calls).toEqual([{ index: 0 }, { index: 1 }]);
    expect(audit.at(-1)).toMatchObject({ decision: 'interrupted', decidedBy: 'user' });
  });

  it('a batch that hands every entry to the gate gets INTERRUPTED for the rest too, each audited', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    const stop = new AbortController();
    const batch = sendAll({ gate, server }, stop);
    queue.resolve((await nextCard()).id, { action: 'stop' });
    const results = await batch;
    expect(results.map((result) => errorOf(result)?.code)).toEqual([
      undefined,
      undefined,
      'INTERRUPTED',
      'INTERRUPTED',
      'INTERRUPTED',
    ]);
    expect(server.calls).toHaveLength(2);
    expect(audit.map((entry) => entry.decision)).toEqual([
      'allow',
      'allow',
      'interrupted',
      'interrupted',
      'interrupted',
    ]);
  });

  it('in a concurrent batch, stop on one card closes the other open card of the same tool_call', async () => {
    const { gate, server, queue, cards, nextCard } = setup({ defaultPolicy: 'ask' });
    const stop = new AbortController();
    const other = new AbortController();
    const a = gate.call(request('one', {}, { stop }), server.run);
    const b = gate.call(request('two', {}, { stop }), server.run);
    const c = gate.call(request('three', {}, { stop: other }), server.run);
    while (cards.length < 3) await nextCard();
    queue.resolve(cards[0]!.id, { action: 'stop' });
    expect(errorOf(await a)?.code).toBe('INTERRUPTED');
    expect(errorOf(await b)?.code).toBe('INTERRUPTED');
    expect(queue.list().map((card) => card.toolName)).toEqual(['mcp__files__three']);
    queue.resolve(cards[2]!.id, { action: 'approve' });
    await c;
    expect(server.calls).toHaveLength(1);
  });

  it('a Stop controller aborted from outside still closes cards', async () => {
    const { gate, server, nextCard } = setup({ defaultPolicy: 'ask' });
    const foreign = new AbortController();
    const pending = gate.call(request('one', {}, { stop: foreign }), server.run);
    await nextCard();
    foreign.abort();
    expect(errorOf(await pending)?.code).toBe('INTERRUPTED');
    expect(server.calls).toEqual([]);
  });
});

describe('ApprovalGate.call: stages (issue #13)', () => {
  it('precheck: arguments that are not an object are refused before any policy, audited with {}', async () => {
    const { gate, server, audit, cards } = setup(policies);
    const result = await gate.call(
      request('write_file', {}, { arguments: ['not', 'an', 'object'] as unknown as JsonObject }),
      server.run,
    );
    expect(errorOf(result)?.code).toBe('INVALID_ARGUMENT');
    expect(cards).toEqual([]);
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ arguments: {}, decision: 'deny', decidedBy: 'system' }]);
  });

  it('precheck: a tool held for review is TOOL_CHANGED, unasked, whatever its policy', async () => {
    const queue = new ApprovalQueue({ clock });
    open.push(queue);
    const audit: AuditRecord[] = [];
    const held: string[] = [];
    const gate = new ApprovalGate({
      policy: () => policies,
      queue,
      clock,
      audit: { append: async (record) => void audit.push(record) },
      reviews: {
        heldAgainst: (key, hash) => {
          held.push(`${key.serverId}/${key.toolName}@${hash}`);
          return {
            ...key,
            hash: 'hash-before-the-change',
            definition: { name: key.toolName },
            reviewedAt: '2026-08-01T00:00:00.000Z',
            reviewedBy: 'first-use',
          };
        },
      },
    });
    const server = new FakeServer();
    const result = await gate.call(request('write_file', { path: '/a' }), server.run);
    expect(errorOf(result)?.code).toBe('TOOL_CHANGED');
    expect(held).toEqual(['files/write_file@hash-of-write_file']);
    expect(queue.list()).toEqual([]);
    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([{ decision: 'deny', decidedBy: 'system' }]);
  });

  it('recheck: a tool that changed or went away while its card waited is not run', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    let current: string | undefined = 'hash-of-write_file';
    const call = () =>
      gate.call(request('write_file', { path: '/a' }, { currentDefinitionHash: () => current }), server.run);

    const changed = call();
    current = 'hash-after-an-update';
    queue.resolve((await nextCard()).id, { action: 'approve' });
    expect(errorOf(await changed)).toMatchObject({
      code: 'TOOL_CHANGED',
      message: expect.stringContaining('changed'),
    });

    const vanished = call();
    current = undefined;
    queue.resolve((await nextCard()).id, { action: 'approve' });
    expect(errorOf(await vanished)).toMatchObject({
      code: 'TOOL_CHANGED',
      message: expect.stringContaining('no longer offered'),
    });

    expect(server.calls).toEqual([]);
    expect(audit).toMatchObject([
      { decision: 'deny', decidedBy: 'system' },
      { decision: 'deny', decidedBy: 'system' },
    ]);
  });

  it('recheck: an unchanged tool runs once approved, audited as the user decided', async () => {
    const { gate, server, queue, audit, nextCard } = setup(policies);
    const pending = gate.call(
      request('write_file', { path: '/a' }, { currentDefinitionHash: () => 'hash-of-write_file' }),
      server.run,
    );
    queue.resolve((await nextCard()).id, { action: 'approve' });
    expect(errorOf(await pending)).toBeUndefined();
    expect(server.calls).toEqual([{ path: '/a' }]);
    expect(audit).toMatchObject([{ decision: 'allow', decidedBy: 'user' }]);
  });
});
