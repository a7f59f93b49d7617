/**
 * Issue #14, sessions: a remote Streamable HTTP server that restarts (its sessions gone, HTTP 404)
 * or answers an HTTP error, seen through the whole host with the SDK's Client as the agent.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/host.js';
import {
  type StreamableHttpFixture,
  startStreamableHttpFixture,
} from '../../fixtures/servers/http-fixture.js';
import { connectDefaultAgent, startHost } from '../../helpers/host-kit.js';
import { scenario } from '../servers/helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostWithRemote(): Promise<{ host: Host; agent: Client; fixture: StreamableHttpFixture }> {
  const fixture = await startStreamableHttpFixture(scenario('basic'));
  cleanups.push(() => fixture.close());
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-remote-sessions-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const host = await startHost(
    dataDir,
    { servers: [{ id: 'remote', transport: 'http', url: fixture.url, enabled: true }] },
    { policyOverride: 'allow' },
  );
  cleanups.push(() => host.close());
  const agent = await connectDefaultAgent(host, 'sessions-agent');
  cleanups.push(() => agent.close());
  return { host, agent, fixture };
}

async function echo(agent: Client, message: string): Promise<CallToolResult> {
  return (await agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name: 'mcp__remote__echo', arguments: { message } }] },
  })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** The message of a failed entry, as the agent reads it. */
function errorOf(result: CallToolResult): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse(textOf(result));
}

async function remoteView(host: Host) {
  const view = (await host.api.listServers()).find((server) => server.id === 'remote');
  expect(view).toBeDefined();
  return view!;
}

describe('a remote Streamable HTTP server through the host', () => {
  it('issue #14: a call after the server restarted re-initializes once, runs, and the status counts one reconnect', async () => {
    const { host, agent, fixture } = await hostWithRemote();
    const first = await echo(agent, 'before the restart');
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toContain('before the restart');
    expect((await remoteView(host)).reconnects).toBeUndefined();

    await fixture.restart();
    const second = await echo(agent, 'after the restart');
    expect(second.isError).toBeFalsy();
    expect(textOf(second)).toContain('after the restart');
    expect(fixture.initializeCount).toBe(2);
    const view = await remoteView(host);
    expect(view.status).toBe('connected');
    expect(view.reconnects).toMatchObject({ count: 1, lastReason: expect.stringContaining('HTTP 404') });
    expect(Date.parse(view.reconnects!.lastAt)).not.toBeNaN();
  });

  it('issue #14: calls that meet the lost session together share one re-initialize', async () => {
    const { host, agent, fixture } = await hostWithRemote();
    await echo(agent, 'warm up');
    await fixture.restart();
    // Each 404 waits until all three calls are at the lost session, however the machine schedules them.
    const release = fixture.lostSessionCallGate.hold();
    const calls = Promise.all(['one', 'two', 'three'].map((message) => echo(agent, message)));
    await expect
      .poll(() => fixture.lostSessionCallGate.waiting, {
        message: 'all three calls to reach the lost session',
      })
      .toBe(3);
    release();
    const results = await calls;
    for (const [index, message] of ['one', 'two', 'three'].entries()) {
      expect(results[index]!.isError, textOf(results[index]!)).toBeFalsy();
      expect(textOf(results[index]!)).toContain(message);
    }
    expect(fixture.initializeCount).toBe(2);
    expect((await remoteView(host)).reconnects?.count).toBe(1);
  });

  it('issue #14: while a lost session is re-initialized the server stays connected to agents, and a call made meanwhile waits for the new session', async () => {
    const { host, agent, fixture } = await hostWithRemote();
    await echo(agent, 'warm up');
    const listed = (await agent.listTools()).tools.map((tool) => tool.name);
    await fixture.restart();
    const release = fixture.initializeGate.hold();
    const first = echo(agent, 'first');
    await expect
      .poll(() => fixture.initializeGate.waiting, { message: 'the re-initialize to reach the server' })
      .toBe(1);
    // Not "starting": that took the server's tools (and tool_call with them) from agents, so a
    // call arriving in this window failed with "Tool 'tool_call' is not listed".
    expect((await remoteView(host)).status).toBe('connected');
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(listed);
    const meanwhile = echo(agent, 'meanwhile');
    release();
    for (const [result, message] of [
      [await first, 'first'],
      [await meanwhile, 'meanwhile'],
    ] as const) {
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toContain(message);
    }
    expect(fixture.initializeCount).toBe(2);
    expect((await remoteView(host)).reconnects?.count).toBe(1);
  });

  it.each([
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [403, 'Forbidden'],
  ])(
    'issue #14: an HTTP %i is reported with its status and the server, not as an invalid result',
    async (status, phrase) => {
      const { agent, fixture } = await hostWithRemote();
      fixture.failCalls(status);
      const { code, message } = errorOf(await echo(agent, 'fails'));
      expect(code).toBe('SERVER_UNAVAILABLE');
      expect(message).toMatch(
        new RegExp(`^Server "remote" answered HTTP ${status} ${phrase} to tool "echo": `),
      );
      expect(message).not.toContain('not a valid MCP tool result');
      expect(message).toContain('Servers');
      // Not a lost session: nothing was re-initialized.
      expect(fixture.initializeCount).toBe(1);
    },
  );

  it('issue #14: a 404 on the retry too is reported after one re-initialize, never a loop', async () => {
    const { host, agent, fixture } = await hostWithRemote();
    fixture.failCalls(404);
    const { message } = errorOf(await echo(agent, 'lost twice'));
    expect(message).toContain('Server "remote" answered HTTP 404 Not Found');
    expect(message).toContain('not retried further');
    expect(fixture.initializeCount).toBe(2);
    expect((await remoteView(host)).reconnects?.count).toBe(1);

    // The next call gets its own single retry, and works once the server does.
    fixture.failCalls(undefined);
    const next = await echo(agent, 'served again');
    expect(next.isError).toBeFalsy();
    expect(fixture.initializeCount).toBe(2);
  });
});
