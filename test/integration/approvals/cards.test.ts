/**
 * Approval cards end to end: a real agent (SDK Client over the HTTP endpoint) calls a real server
 * (mcp-server-everything over stdio) through a real host under `ask`; the person answers through
 * the host API, as the UI does.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  approvalCards,
  connectAgent,
  errorOf,
  hostForFile,
  referenceServers,
  startFreshHost,
  text,
  toolCall,
} from './kit.js';

const ECHO = 'mcp__everything__echo';

// `ask` comes from the settings' default here; the shortest card timeout the settings accept.
const running = hostForFile(async (dataDir) => ({
  servers: await referenceServers(dataDir, 'everything'),
  policies: { default: 'ask' },
  cardTimeoutMs: 1_000,
}));

describe('a call under ask waits for the person', () => {
  it('runs once approved: the card shows the real tool and exact arguments', async () => {
    const agent = await connectAgent(running);
    const opened = approvalCards(running.host);
    let settled = false;
    const pending = toolCall(agent, ECHO, { message: 'approved call' }).finally(() => {
      settled = true;
    });
    const [card] = await opened;
    expect(card).toMatchObject({
      kind: 'approval',
      agentId: 'default',
      serverId: 'everything',
      toolName: ECHO,
      arguments: { message: 'approved call' },
      validation: { ok: true },
      // Issue #16: what the tool says of itself, for the person to weigh.
      tool: { description: expect.stringMatching(/echo/i) },
    });
    expect((await running.host.api.listCards()).map((listed) => listed.id)).toEqual([card!.id]);
    // The call is still blocked on the card.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);

    await running.host.api.resolveCard(card!.id, { action: 'approve' });
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Echo: approved call');
    expect(await running.host.api.listCards()).toEqual([]);
    const [entry] = (await running.host.api.queryActivity({ toolName: ECHO, limit: 1 })).entries;
    expect(entry).toMatchObject({
      decision: 'allow',
      decidedBy: 'user',
      arguments: { message: 'approved call' },
    });
  });

  it("does not run when denied, and the agent reads the person's message", async () => {
    const agent = await connectAgent(running);
    const opened = approvalCards(running.host);
    const pending = toolCall(agent, ECHO, { message: 'denied call' });
    const [card] = await opened;
    await running.host.api.resolveCard(card!.id, { action: 'deny', message: 'not on a Friday' });
    const result = await pending;
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe('DENIED');
    expect(error.message).toContain('not on a Friday');
    expect(text(result)).not.toContain('Echo:');
    const [entry] = (await running.host.api.queryActivity({ toolName: ECHO, limit: 1 })).entries;
    expect(entry).toMatchObject({
      decision: 'deny',
      decidedBy: 'user',
      arguments: { message: 'denied call' },
    });
  });

  it('fails with APPROVAL_TIMEOUT when nobody answers within cardTimeoutMs', async () => {
    const agent = await connectAgent(running);
    const opened = approvalCards(running.host);
    const resolved: Array<{ id: string; outcome: string }> = [];
    const off = running.host.api.on('cardResolved', (event) => resolved.push(event));
    const pending = toolCall(agent, ECHO, { message: 'nobody answers' });
    const [card] = await opened;
    // The card carries the configured timeout (that it fires no earlier is the queue's unit test, on a fake clock).
    expect(Date.parse(card!.expiresAt) - Date.parse(card!.createdAt)).toBe(1_000);
    const result = await pending;
    off();
    expect(result.isError).toBe(true);
    expect(errorOf(result).code).toBe('APPROVAL_TIMEOUT');
    expect(resolved).toContainEqual({ id: card!.id, outcome: 'timeout' });
    // A late answer finds no card and runs nothing.
    await expect(running.host.api.resolveCard(card!.id, { action: 'approve' })).rejects.toThrow();
    const [entry] = (await running.host.api.queryActivity({ toolName: ECHO, limit: 1 })).entries;
    expect(entry).toMatchObject({ decision: 'timeout', arguments: { message: 'nobody answers' } });
  });

  it('gives each of 10 concurrent calls its own answer when cards are answered in random order', async () => {
    // Answers must come faster than the 1 s card timeout; give this test a longer one.
    await running.host.api.updateSettings({ cardTimeoutMs: 60_000 });
    try {
      const agent = await connectAgent(running);
      const opened = approvalCards(running.host, 10);
      const calls = Array.from({ length: 10 }, (_, i) =>
        toolCall(agent, ECHO, { message: `concurrent ${i}` }),
      );
      const cards = await opened;
      expect(new Set(cards.map((card) => card.id)).size).toBe(10);
      // Approve the even ones, deny the odd ones with their own message, in a shuffled order.
      const order = [...cards].sort(() => Math.random() - 0.5);
      for (const card of order) {
        const n = Number(String(card.arguments.message).split(' ')[1]);
        await running.host.api.resolveCard(
          card.id,
          n % 2 === 0 ? { action: 'approve' } : { action: 'deny', message: `no to ${n}` },
        );
      }
      const results: CallToolResult[] = await Promise.all(calls);
      results.forEach((result, n) => {
        if (n % 2 === 0) {
          expect(result.isError, `call ${n}`).toBeFalsy();
          expect(text(result)).toBe(`Echo: concurrent ${n}`);
        } else {
          expect(errorOf(result)).toMatchObject({
            code: 'DENIED',
            message: expect.stringContaining(`no to ${n}`),
          });
        }
      });
      expect(await running.host.api.listCards()).toEqual([]);
    } finally {
      await running.host.api.updateSettings({ cardTimeoutMs: 1_000 });
    }
  });
});

describe('issue #16: a call refused for its arguments', () => {
  it('is in the activity log, though no card opened and nothing ran', async () => {
    const agent = await connectAgent(running);
    const result = await toolCall(agent, ECHO, { message: 42 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('NOT invoked');
    expect(await running.host.api.listCards()).toEqual([]);
    const [entry] = (await running.host.api.queryActivity({ toolName: ECHO, limit: 1 })).entries;
    expect(entry).toMatchObject({
      decision: 'deny',
      decidedBy: 'system',
      arguments: { message: 42 },
      isError: true,
      message: expect.stringContaining('failed argument validation'),
    });
  });
});

describe('closing the host with cards open', () => {
  it('fails the waiting calls cleanly instead of leaving them hanging', async () => {
    const other = await startFreshHost(
      async (own) => ({ servers: await referenceServers(own, 'everything'), cardTimeoutMs: 600_000 }),
      { policyOverride: 'ask' },
    );
    try {
      const agent = await connectAgent(other);
      const opened = approvalCards(other.host, 2);
      const outcomes = [1, 2].map((n) => toolCall(agent, ECHO, { message: `pending ${n}` }));
      await opened;
      await other.host.close();
      // The host answers the waiting calls before it closes the endpoint: a refusal, not a cut
      // connection, and not the cards' 10-minute timeout (waiting for it would hang the test).
      const settled = await Promise.all(outcomes);
      for (const result of settled) {
        expect(result.isError).toBe(true);
        expect(errorOf(result)).toMatchObject({
          code: 'INTERRUPTED',
          message: expect.stringContaining('shutting down'),
        });
      }
      expect(JSON.stringify(settled)).not.toContain('Echo:');
    } finally {
      await other.close();
    }
  });
});
