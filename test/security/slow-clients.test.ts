/**
 * Issue #12: slow clients (slowloris) are timed out and connections are capped, while a real SDK
 * agent keeps working. Real sockets on loopback, bounded loops.
 */

import { connect, type Socket } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../src/agents/loopback-server.js';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent } from '../helpers/host-kit.js';
import { rawExchange, startTestHost, statusOf, type TestHost } from './listener-kit.js';

let running: TestHost;
let host: Host;

beforeAll(async () => {
  running = await startTestHost('allow', {
    listenerLimits: { headersTimeoutMs: 1500, requestTimeoutMs: 3000 },
  });
  host = running.host;
});

afterAll(async () => {
  await running?.close();
});

interface Watched {
  socket: Socket;
  closedAt: number | undefined;
}

function openSocket(port: number): Watched {
  const watched: Watched = { socket: connect({ host: '127.0.0.1', port }), closedAt: undefined };
  watched.socket.on('error', () => undefined);
  // Read what the server sends (a 408), or 'close' never comes.
  watched.socket.resume();
  watched.socket.on('close', () => {
    watched.closedAt = Date.now();
  });
  return watched;
}

/** Sends `text` one byte per `everyMs` until the server closes the socket or the text runs out. */
async function trickle(watched: Watched, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (watched.closedAt !== undefined) return;
    watched.socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('issue #12: slow clients', () => {
  it('issue #12: 20 trickling and 20 silent connections are dropped after the header timeout; an agent is served meanwhile', async () => {
    const port = host.http!.port;
    const started = Date.now();
    const slow = Array.from({ length: 20 }, () => openSocket(port));
    const silent = Array.from({ length: 20 }, () => openSocket(port));
    // 200 bytes at one per 100 ms would take 20 s; the header timeout is 1.5 s.
    const headers = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${'X-Slow: a\r\n'.repeat(20)}\r\n`;
    const trickling = slow.map((watched) => trickle(watched, headers, 100));

    const agent = await connectDefaultAgent(host, 'bystander');
    const result = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__basic__echo', arguments: { message: 'served' } }] },
    })) as CallToolResult;
    expect(JSON.stringify(result.content)).toContain('served');

    await Promise.all(trickling);
    const deadline = Date.now() + 10_000;
    while ([...slow, ...silent].some((watched) => watched.closedAt === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const watched of [...slow, ...silent]) {
      expect(watched.closedAt, 'a slow connection was never closed').toBeDefined();
      // Header timeout plus Node's check interval, with slack for a busy machine.
      expect(watched.closedAt! - started).toBeLessThan(6000);
    }
    // The agent's own session outlived them all.
    await agent.listTools();
    await agent.close();
  });

  it('issue #12: a body trickled past the request timeout is dropped, while a call that takes longer to answer is not', async () => {
    const port = host.http!.port;
    const watched = openSocket(port);
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}'.padEnd(200, ' ');
    watched.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const started = Date.now();
    await trickle(watched, body, 50);
    expect(watched.closedAt).toBeDefined();
    expect(watched.closedAt! - started).toBeLessThan(8000);
  });

  it('issue #12: connections past the cap are refused at once, and the listener serves again when they go', async () => {
    const server = new LoopbackServer({ limits: { maxConnections: 8 } });
    server.route('/', (_req, res) => {
      res.end('ok');
    });
    await server.listen();
    // The listener's own view of its connections: a client's connect only means the kernel
    // queued it, so the ninth socket is opened only once the server has accepted all eight.
    const accepted: Socket[] = [];
    server.httpServer.on('connection', (socket: Socket) => accepted.push(socket));
    try {
      const held = Array.from({ length: 8 }, () => openSocket(server.port));
      await expect.poll(() => accepted.length, { timeout: 10_000 }).toBe(8);
      const dropped = new Promise<void>((resolve) => server.httpServer.once('drop', () => resolve()));
      const refused = openSocket(server.port);
      await dropped;
      await expect.poll(() => refused.closedAt, { timeout: 5000 }).toBeDefined();
      expect(held.every((watched) => watched.closedAt === undefined)).toBe(true);
      for (const watched of held) watched.socket.destroy();
      // The cap counts the server's sockets, which close a moment after the clients' do.
      await Promise.all(
        accepted.map((socket) =>
          socket.destroyed ? undefined : new Promise((resolve) => socket.once('close', resolve)),
        ),
      );
      const response = await rawExchange(
        server.port,
        `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(response)).toBe(200);
    } finally {
      await server.close();
    }
  });
});
