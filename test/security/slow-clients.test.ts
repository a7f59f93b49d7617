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
  /** What the server sent before it closed the socket. */
  received: string;
  isClosed: boolean;
  closed: Promise<void>;
}

function openSocket(port: number): Watched {
  const socket = connect({ host: '127.0.0.1', port });
  const watched: Watched = { socket, received: '', isClosed: false, closed: Promise.resolve() };
  socket.on('error', () => undefined);
  // Read what the server sends (a 408), or 'close' never comes.
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    watched.received += chunk;
  });
  watched.closed = new Promise((resolve) =>
    socket.once('close', () => {
      watched.isClosed = true;
      resolve();
    }),
  );
  return watched;
}

/**
 * A slow client: `head` at once, then `filler` one byte per `everyMs`, over and over, never
 * finishing the request. Only the server closing the socket ends it.
 */
async function trickle(watched: Watched, head: string, filler: string, everyMs: number): Promise<void> {
  watched.socket.write(head);
  for (let i = 0; !watched.isClosed; i++) {
    watched.socket.write(filler[i % filler.length]!);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const TIMED_OUT = /^HTTP\/1\.1 408 .*\r\n[\s\S]*Request timed out: send the whole request promptly\./;

describe('issue #12: slow clients', () => {
  it('issue #12: 20 trickling and 20 silent connections are dropped after the header timeout; an agent is served meanwhile', async () => {
    const port = host.http!.port;
    const slow = Array.from({ length: 20 }, () => openSocket(port));
    const silent = Array.from({ length: 20 }, () => openSocket(port));
    // Header lines without the blank line that would end them: the request is never complete.
    const trickling = slow.map((watched) =>
      trickle(watched, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, 'X-Slow: a\r\n', 100),
    );

    const agent = await connectDefaultAgent(host, 'bystander');
    const result = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__basic__echo', arguments: { message: 'served' } }] },
    })) as CallToolResult;
    expect(JSON.stringify(result.content)).toContain('served');

    // The server ends every one of them, with a 408 to those that sent a request line.
    await Promise.all([...trickling, ...silent.map((watched) => watched.closed)]);
    for (const watched of slow) expect(watched.received).toMatch(TIMED_OUT);
    // The agent's own session outlived them all.
    await agent.listTools();
    await agent.close();
  });

  it('issue #12: a body trickled past the request timeout is dropped, while a call that takes longer to answer is not', async () => {
    const port = host.http!.port;
    const watched = openSocket(port);
    // An agent's own request, so only the body's pace is wrong: the Content-Length says far more
    // than ever arrives.
    const { token } = await host.agents.ensureDefault();
    await trickle(
      watched,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000000\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}`,
      ' ',
      50,
    );
    // Dropped mid-request, the ping never answered (a response was already under way: no 408).
    expect(watched.received).toBe('');
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
      await refused.closed;
      expect(held.every((watched) => !watched.isClosed)).toBe(true);
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
