import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedactionHook, type HookCall, ToolCallHooks } from '../../../src/approvals/hooks.js';
import { createRedactor, REDACTED } from '../../../src/approvals/redaction.js';

const call: HookCall = {
  agentId: 'a',
  name: 'mcp__files__write_file',
  serverId: 'files',
  toolName: 'write_file',
  arguments: { path: '/tmp/x', content: 'hi' },
  redactOutbound: false,
};
const ok: CallToolResult = { content: [{ type: 'text', text: 'done' }] };

afterEach(() => vi.restoreAllMocks());

describe('ToolCallHooks.runBefore', () => {
  it('passes the arguments through each hook in order; rewrites chain', async () => {
    const hooks = new ToolCallHooks();
    const seen: unknown[] = [];
    hooks.add({
      name: 'first',
      beforeCall: (c) => {
        seen.push(c.arguments);
        return { action: 'rewrite', arguments: { ...c.arguments, path: '/safe/x' } };
      },
    });
    hooks.add({
      name: 'second',
      beforeCall: (c) => {
        seen.push(c.arguments);
        return { action: 'continue' };
      },
    });
    expect(await hooks.runBefore(call)).toEqual({ arguments: { path: '/safe/x', content: 'hi' } });
    expect(seen).toEqual([call.arguments, { path: '/safe/x', content: 'hi' }]);
  });

  it('sees real names and cannot change the arguments by mutating them', async () => {
    const hooks = new ToolCallHooks();
    hooks.add({
      name: 'sneaky',
      beforeCall: (c) => {
        expect(c.name).toBe('mcp__files__write_file');
        c.arguments.path = '/etc/passwd';
        return undefined;
      },
    });
    expect(await hooks.runBefore(call)).toEqual({ arguments: call.arguments });
    expect(call.arguments.path).toBe('/tmp/x');
  });

  it('the first block wins and later hooks do not run', async () => {
    const hooks = new ToolCallHooks();
    const later = vi.fn();
    hooks.add({ name: 'guard', beforeCall: () => ({ action: 'block', reason: 'writes are off today' }) });
    hooks.add({ name: 'later', beforeCall: later });
    expect(await hooks.runBefore(call)).toEqual({ blockedBy: 'guard', reason: 'writes are off today' });
    expect(later).not.toHaveBeenCalled();
  });

  it('fails closed when a hook throws or answers nonsense', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const throwing = new ToolCallHooks();
    throwing.add({
      name: 'broken',
      beforeCall: async () => {
        throw new Error('boom');
      },
    });
    expect(await throwing.runBefore(call)).toMatchObject({ blockedBy: 'broken' });
    const nonsense = new ToolCallHooks();
    nonsense.add({ name: 'odd', beforeCall: () => ({ action: 'rewrite', arguments: [] as never }) });
    expect(await nonsense.runBefore(call)).toMatchObject({ blockedBy: 'odd' });
  });

  it('a removed hook no longer runs', async () => {
    const hooks = new ToolCallHooks();
    const registration = hooks.add({ name: 'guard', beforeCall: () => ({ action: 'block', reason: 'no' }) });
    registration.dispose();
    expect(await hooks.runBefore(call)).toEqual({ arguments: call.arguments });
  });
});

describe('ToolCallHooks.runAfter', () => {
  it('lets hooks transform the result in order', async () => {
    const hooks = new ToolCallHooks();
    hooks.add({ name: 'upper', afterCall: (_c, r) => ({ ...r, content: [{ type: 'text', text: 'DONE' }] }) });
    hooks.add({ name: 'keep', afterCall: () => undefined });
    expect(await hooks.runAfter(call, ok)).toEqual({ content: [{ type: 'text', text: 'DONE' }] });
  });

  it('a throwing post-call hook withholds the result with an INTERNAL error', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hooks = new ToolCallHooks();
    hooks.add({
      name: 'scrubber',
      afterCall: () => {
        throw new Error('x');
      },
    });
    await expect(hooks.runAfter(call, ok)).rejects.toMatchObject({ code: 'INTERNAL', message: /scrubber/ });
  });
});

describe('createRedactionHook', () => {
  const secret = `sk-${'Ab1_'.repeat(8)}`;
  const withSecret = { ...call, arguments: { key: 'x', note: `use ${secret}` } };

  it('rewrites to redacted arguments only when the policy asks', async () => {
    const hooks = new ToolCallHooks();
    hooks.add(createRedactionHook(() => createRedactor()));
    expect(await hooks.runBefore(withSecret)).toEqual({ arguments: withSecret.arguments });
    expect(await hooks.runBefore({ ...withSecret, redactOutbound: true })).toEqual({
      arguments: { key: 'x', note: `use ${REDACTED}` },
    });
  });
});
