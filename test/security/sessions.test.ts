/**
 * Issue #12: after 32 newer sessions on one agent token the oldest was closed even while in use.
 * Now the least recently used idle session goes, never one with a request in flight, and its
 * client is told why. A real host, the SDK's real clients.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardView } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';
import { startTestHost, type TestHost } from './listener-kit.js';

let running: TestHost;
let host: Host;
const clients: Client[] = [];

beforeAll(async () => {
  running = await startTestHost('ask');
  host = running.host;
  // A page is open, so an `ask` call waits on a card: a request in flight for as long as we like.
  host.api.attachUi();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await running?.close();
});

async function agent(name: string): Promise<Client> {
  const client = await connectDefaultAgent(host, name);
  clients.push(client);
  return client;
}

function echo(client: Client, message: string): Promise<CallToolResult> {
  return client.callTool(
    { name: 'tool_call', arguments: { calls: [{ name: 'mcp__basic__echo', arguments: { message } }] } },
    undefined,
    { timeout: 60_000 },
  ) as Promise<CallToolResult>;
}

function nextCard(): Promise<CardView> {
  return new Promise((resolve) => {
    const off = host.api.on('cardOpened', (card) => {
      off();
      resolve(card);
    });
  });
}

describe('issue #12: sessions past the cap of 32 per agent token', () => {
  it('issue #12: a session with a request in flight is never closed; the least recently used idle one is, and its client is told why', async () => {
    const busy = await agent('busy');
    const opened = nextCard();
    const pending = echo(busy, 'still mine');
    const card = await opened;

    // 31 more fill the cap; the first of them is the least recently used idle session.
    const idle: Client[] = [];
    for (let i = 0; i < 31; i++) idle.push(await agent(`idle-${i}`));
    for (const client of idle.slice(1)) await client.listTools();
    expect(host.endpoint!.sessionCount('default')).toBe(32);

    await agent('newcomer');
    await waitUntil(() => host.endpoint!.sessionCount('default') === 32, 'the cap to hold');

    // The busy session survived and its call completes once approved.
    await host.api.resolveCard(card.id, { action: 'approve' });
    expect(JSON.stringify((await pending).content)).toContain('still mine');
    await busy.listTools();

    // The evicted client's next request says what happened and what to do.
    const error = await idle[0]!.listTools().then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).toMatch(/opened more than 32 sessions/);
    expect(error?.message).toMatch(/initialize again/);
    for (const client of idle.slice(1)) await client.listTools();
  });

  it('issue #12: when every session has a request in flight, a new one is refused and none is closed', async () => {
    // The idle sessions left by the test before make way one by one as these become busy.
    const busy: Client[] = [];
    const pending: Promise<CallToolResult>[] = [];
    for (let i = 0; i < 32; i++) {
      const client = await agent(`busy-${i}`);
      busy.push(client);
      const opened = nextCard();
      pending.push(echo(client, `call ${i}`));
      await opened;
    }
    await expect(agent('one too many')).rejects.toThrow(/32 sessions, each with a request in flight/);
    expect(host.endpoint!.sessionCount('default')).toBe(32);
    for (const card of await host.api.listCards()) await host.api.resolveCard(card.id, { action: 'approve' });
    const results = await Promise.all(pending);
    expect(results.map((result) => JSON.stringify(result.content))).toEqual(
      Array.from({ length: 32 }, (_, i) => expect.stringContaining(`call ${i}`)),
    );
  });
});
