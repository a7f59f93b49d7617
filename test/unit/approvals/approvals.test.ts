import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, ApprovalCardView } from '../../../src/api/ui-api.js';
import {
  type ApprovalSettings,
  type ApprovalSettingsSource,
  Approvals,
  approvalSettingsReader,
  UI_ACTOR_ID,
} from '../../../src/approvals/approvals.js';
import { parseToolError, toolErrorResult } from '../../../src/approvals/gate.js';
import type { PolicyRule } from '../../../src/approvals/policy.js';
import { REDACTED } from '../../../src/approvals/redaction.js';
import type { JsonObject } from '../../../src/base/json.js';

let dir: string;
let approvals: Approvals;
let settings: ApprovalSettings;
let saved: PolicyRule[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolbridge-approvals-'));
  settings = { policy: { defaultPolicy: 'ask' }, redactionPatterns: [], cardTimeoutMs: 60_000 };
  saved = [];
  approvals = await Approvals.open({
    dataDir: dir,
    settings: () => settings,
    onAlwaysAllow: (rule) => void saved.push(rule),
  });
});

afterEach(async () => {
  await approvals.close();
  await rm(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const run = async (args: JsonObject): Promise<CallToolResult> => ({
  content: [{ type: 'text', text: JSON.stringify(args) }],
});

function request(args: JsonObject = {}) {
  return {
    agentId: 'agent-a',
    name: 'mcp__notes__save',
    serverId: 'notes',
    toolName: 'save',
    arguments: args,
    definitionHash: 'h1',
  };
}

describe('Approvals', () => {
  it('wires cards and activity to the UI methods and events', async () => {
    const opened: ApprovalCardView[] = [];
    const resolved: string[] = [];
    const appended: ActivityEntry[] = [];
    approvals.onDidOpenCard((card) => opened.push(card));
    approvals.onDidResolveCard((event) => resolved.push(event.outcome));
    approvals.onDidAppendActivity((entry) => appended.push(entry));
    const cardOpened = new Promise<ApprovalCardView>((resolve) => approvals.onDidOpenCard(resolve));

    const pending = approvals.call(request({ text: 'hi' }), run);
    const card = await cardOpened;
    expect(approvals.listCards()).toEqual([card]);
    expect(Date.parse(card.expiresAt) - Date.parse(card.createdAt)).toBe(60_000);
    approvals.resolveCard(card.id, { action: 'always' });
    expect((await pending).isError).toBeUndefined();

    expect(resolved).toEqual(['always']);
    expect(saved).toEqual([
      {
        toolKind: 'mcp',
        serverId: 'notes',
        toolName: 'save',
        policy: 'allow',
        definitionHash: 'h1',
        savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        savedFrom: 'card',
      },
    ]);
    expect(appended).toMatchObject([{ toolName: 'mcp__notes__save', decision: 'allow', decidedBy: 'user' }]);
    expect((await approvals.queryActivity({})).entries).toEqual(appended);
    expect(await approvals.exportActivity('jsonl')).toBe(`${JSON.stringify(appended[0])}\n`);
  });

  it('reads settings on every call: policy, redaction patterns', async () => {
    settings = { ...settings, policy: { defaultPolicy: 'allow' }, redactionPatterns: ['NOTE-\\d+'] };
    await approvals.call(request({ text: 'NOTE-42' }), run);
    settings = { ...settings, policy: { defaultPolicy: 'deny' } };
    const denied = await approvals.call(request({ text: 'x' }), run);
    expect(parseToolError(denied)?.code).toBe('DENIED');
    const raw = await readFile(join(dir, 'audit.jsonl'), 'utf8');
    expect(raw).not.toContain('NOTE-42');
    expect(raw).toContain(REDACTED);
  });

  it('skips a pattern that does not compile, with a warning, and keeps logging', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    settings = { ...settings, policy: { defaultPolicy: 'allow' }, redactionPatterns: ['(', 'NOTE-\\d+'] };
    await approvals.call(request({ text: 'NOTE-7' }), run);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/Redaction pattern 1 is not a valid/));
    expect(await readFile(join(dir, 'audit.jsonl'), 'utf8')).not.toContain('NOTE-7');
  });

  it('records a policy change as the user in the UI, readable and filterable like any entry', async () => {
    settings = { ...settings, policy: { defaultPolicy: 'allow' } };
    await approvals.call(request(), run);
    await approvals.recordPolicyChange({
      serverId: 'notes',
      toolName: 'mcp__notes__save',
      change: { setting: 'tool', policy: 'deny', previous: 'inherit' },
      message: 'Set the policy of mcp__notes__save to deny (was inherit).',
    });
    const { entries } = await approvals.queryActivity({ decision: 'policy-change' });
    expect(entries).toEqual([
      expect.objectContaining({
        agentId: UI_ACTOR_ID,
        serverId: 'notes',
        toolName: 'mcp__notes__save',
        decision: 'policy-change',
        decidedBy: 'user',
        arguments: { setting: 'tool', policy: 'deny', previous: 'inherit' },
        message: 'Set the policy of mcp__notes__save to deny (was inherit).',
      }),
    ]);
    // A fresh reader of the file keeps the line (older readers drop decisions they do not know).
    await approvals.close();
    approvals = await Approvals.open({ dataDir: dir, settings: () => settings });
    expect((await approvals.queryActivity({})).entries.map((entry) => entry.decision)).toEqual([
      'policy-change',
      'allow',
    ]);
  });

  it('a policy change whose audit line cannot be written warns and does not throw', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await approvals.audit.close();
    await approvals.recordPolicyChange({ serverId: 'notes', toolName: '', change: {}, message: 'x' });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('could not write a policy change'),
      expect.any(String),
    );
  });

  it('close() fails waiting calls cleanly', async () => {
    const cardOpened = new Promise((resolve) => approvals.onDidOpenCard(resolve));
    const pending = approvals.call(request(), run);
    await cardOpened;
    await approvals.close();
    expect(parseToolError(await pending)?.code).toBe('INTERRUPTED');
  });
});

describe('Approvals.close', () => {
  it('waits for the reviewed definitions still being written, so a host closed right after a server listed its tools keeps them', async () => {
    let release!: () => void;
    const written: unknown[] = [];
    const held = await Approvals.open({
      dataDir: dir,
      settings: () => settings,
      reviewsFile: {
        read: async () => undefined,
        write: (value) =>
          new Promise<void>((resolve) => {
            release = () => {
              written.push(value);
              resolve();
            };
          }),
      },
    });
    held.reviews.observe('notes', [{ name: 'save', description: 'Save a note' }]);
    let closed = false;
    const closing = held.close().then(() => {
      closed = true;
    });
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(written).toMatchObject([{ tools: [{ serverId: 'notes', toolName: 'save' }] }]);
  });
});

describe('parseToolError', () => {
  it('reads back what toolErrorResult wrote and nothing else', () => {
    expect(parseToolError(toolErrorResult('DENIED', 'no'))).toEqual({ code: 'DENIED', message: 'no' });
    expect(
      parseToolError({ content: [{ type: 'text', text: '{"code":"X","message":"y"}' }] }),
    ).toBeUndefined();
    expect(
      parseToolError({ isError: true, content: [{ type: 'text', text: 'plain failure' }] }),
    ).toBeUndefined();
  });
});

describe('approvalSettingsReader', () => {
  const document = (defaultPolicy: 'allow' | 'ask' | 'deny'): ApprovalSettingsSource => ({
    policies: { default: defaultPolicy, servers: { files: 'deny' }, connectors: {}, tools: {} },
    servers: [{ id: 'files' }],
    redactionPatterns: ['tok_[a-z]+'],
    cardTimeoutMs: 30_000,
  });

  it('issue #13: builds once per settings document, and again when the document or the override changes', () => {
    let current = document('ask');
    let override: 'allow' | 'ask' | 'deny' | undefined;
    const read = approvalSettingsReader(
      () => current,
      () => override,
    );
    const first = read();
    expect(first).toMatchObject({
      policy: { defaultPolicy: 'ask', servers: { files: { policy: 'deny' } } },
      redactionPatterns: ['tok_[a-z]+'],
      cardTimeoutMs: 30_000,
    });
    expect(read()).toBe(first);
    // A run's --policy wins over the file's default until it is cleared.
    override = 'deny';
    expect(read().policy.defaultPolicy).toBe('deny');
    override = undefined;
    expect(read().policy.defaultPolicy).toBe('ask');
    current = { ...document('allow'), cardTimeoutMs: 5_000 };
    expect(read()).toMatchObject({ policy: { defaultPolicy: 'allow' }, cardTimeoutMs: 5_000 });
  });
});
