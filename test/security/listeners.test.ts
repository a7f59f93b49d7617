/**
 * Issue #12: no request, however malformed, may end the host or drop another agent's session.
 * A real `toolbridge serve` child is attacked over raw sockets while a real SDK agent keeps using
 * its session; every answer that is HTTP carries the security headers.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCli,
  connectAgent,
  headersOf,
  isAlive,
  ROOT,
  rawExchange,
  type ServeChild,
  startServe,
  statusOf,
  uiSessionCookie,
} from './listener-kit.js';

let serve: ServeChild;
let agent: Client;

beforeAll(async () => {
  serve = await startServe(await buildCli('dist-security-listeners'));
  agent = await connectAgent(serve.endpoint, serve.token, 'bystander');
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await serve?.stop();
});

async function bystanderStillServed(): Promise<void> {
  const result = (await agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name: 'mcp__basic__echo', arguments: { message: 'still here' } }] },
  })) as CallToolResult | undefined;
  expect(JSON.stringify(result?.content)).toContain('still here');
}

function expectSecurityHeaders(response: string): void {
  const headers = headersOf(response);
  expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.has('access-control-allow-origin')).toBe(false);
}

const upgradeHeaders = (host: string) =>
  `Host: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

describe('issue #12: malformed request targets', () => {
  const targets = [
    '//[',
    '//x:99999',
    'http://[',
    '//[::1',
    '/%',
    '/%zz',
    '/%ff%fe',
    '/%00',
    '/..%2f..%2fetc%2fpasswd',
    '//127.0.0.1:1/mcp',
    '/mcp?token=%',
    `/${'a'.repeat(9000)}`,
    `http://127.0.0.1:1/mcp`,
    '*',
    'example.com:443',
  ];

  it('issue #12: GET with each hostile target gets a 4xx with the security headers, and the host keeps serving', async () => {
    const host = `127.0.0.1:${serve.port}`;
    for (const target of targets) {
      const response = await rawExchange(serve.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const status = statusOf(response);
      expect([400, 401, 404], `GET ${target.slice(0, 40)} → ${response.slice(0, 80)}`).toContain(status);
      expectSecurityHeaders(response);
    }
    // The exact probe from the review: it used to end the process with `TypeError: Invalid URL`.
    // `//[` is only a path (none we serve); `http://[` is not a path at all.
    const probe = await rawExchange(serve.port, `GET //[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(statusOf(probe)).toBe(404);
    const absolute = await rawExchange(serve.port, `GET http://[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(statusOf(absolute)).toBe(400);
    expect(absolute).toContain('request target must be a path');
    expect(isAlive(serve)).toBe(true);
    expect(serve.stderr.join('\n')).not.toMatch(/Invalid URL|TypeError/);
    await bystanderStillServed();
  });

  it('issue #12: a WebSocket upgrade with each hostile target is refused, never crashes', async () => {
    const host = `127.0.0.1:${serve.port}`;
    for (const target of targets) {
      const response = await rawExchange(serve.port, `GET ${target} HTTP/1.1\r\n${upgradeHeaders(host)}\r\n`);
      expect([400, 401, 404], `upgrade ${target.slice(0, 40)} → ${response.slice(0, 80)}`).toContain(
        statusOf(response),
      );
      expectSecurityHeaders(response);
    }
    expect(isAlive(serve)).toBe(true);
    await bystanderStillServed();
  });
});

describe('issue #12: what an attacker tries next', () => {
  it('issue #12: bytes that are not HTTP get 400/431 with the security headers, and nothing ends the host', async () => {
    const host = `127.0.0.1:${serve.port}`;
    const probes: Array<[string, string, number[]]> = [
      ['NUL in the target', `GET /\u0000 HTTP/1.1\r\nHost: ${host}\r\n\r\n`, [400]],
      ['an unknown method', `BREW /mcp HTTP/1.1\r\nHost: ${host}\r\n\r\n`, [400]],
      ['a bare line', 'hello\r\n\r\n', [400]],
      ['a header without a colon', `GET / HTTP/1.1\r\nHost: ${host}\r\nnonsense\r\n\r\n`, [400]],
      [
        'headers over 16 KiB',
        `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'b'.repeat(70_000)}\r\n\r\n`,
        [431],
      ],
      ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', [400]],
      [
        'Content-Length with Transfer-Encoding',
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        [400],
      ],
    ];
    for (const [what, bytes, statuses] of probes) {
      const response = await rawExchange(serve.port, bytes);
      expect(statuses, `${what} → ${response.slice(0, 80)}`).toContain(statusOf(response));
      expectSecurityHeaders(response);
    }
    // A body that turns bad after the request was routed: the connection is dropped (a response
    // may already be under way on it), and the host is unharmed.
    for (const auth of ['', `Authorization: Bearer ${serve.token}\r\n`]) {
      const response = await rawExchange(
        serve.port,
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n`,
      );
      expect([0, 400, 401]).toContain(statusOf(response));
    }
    expect(isAlive(serve)).toBe(true);
    await bystanderStillServed();
  });

  it('issue #12: a missing, foreign or doubled Host and HTTP/1.0 are refused with the security headers (guard 403s too)', async () => {
    const host = `127.0.0.1:${serve.port}`;
    const probes: Array<[string, string, number]> = [
      ['no Host, HTTP/1.1', 'GET / HTTP/1.1\r\n\r\n', 403],
      ['no Host, HTTP/1.0', 'GET / HTTP/1.0\r\n\r\n', 403],
      ['a foreign Host', 'GET /mcp HTTP/1.1\r\nHost: evil.example\r\n\r\n', 403],
      ['a foreign Origin', `GET / HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://localhost:1\r\n\r\n`, 403],
      ['two Hosts, ours first', `GET / HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\n\r\n`, 400],
      ['two Hosts, ours last', `GET / HTTP/1.1\r\nHost: evil.example\r\nHost: ${host}\r\n\r\n`, 400],
      [
        'two Origins',
        `GET / HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nOrigin: http://evil.example\r\n\r\n`,
        400,
      ],
      ['a foreign Host on an upgrade', `GET /api/ws HTTP/1.1\r\n${upgradeHeaders('evil.example')}\r\n`, 403],
    ];
    for (const [what, bytes, status] of probes) {
      const response = await rawExchange(serve.port, bytes);
      expect(statusOf(response), `${what} → ${response.slice(0, 80)}`).toBe(status);
      expectSecurityHeaders(response);
    }
    await bystanderStillServed();
  });

  it('issue #12: CONNECT, pipelined garbage after a good request and a reset mid-upgrade leave the host serving', async () => {
    const host = `127.0.0.1:${serve.port}`;
    const connect = await rawExchange(serve.port, `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect([0, 400, 404, 405]).toContain(statusOf(connect));

    // Pipelined: a good request, then a target that is no path; both are answered, in order.
    const pipelined = await rawExchange(
      serve.port,
      `GET /mcp HTTP/1.1\r\nHost: ${host}\r\n\r\nGET http://[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    expect(pipelined.match(/^HTTP\/1\.1 \d{3}/gm)).toEqual(['HTTP/1.1 401', 'HTTP/1.1 400']);
    // Garbage after a good request: that connection goes, the host stays.
    await rawExchange(serve.port, `GET / HTTP/1.1\r\nHost: ${host}\r\n\r\n\u0000\u0001garbage\r\n\r\n`);

    // Half an upgrade, then the peer vanishes: the socket has no HTTP parser left to report to.
    for (let i = 0; i < 20; i++) {
      await rawExchange(serve.port, `GET /api/ws HTTP/1.1\r\n${upgradeHeaders(host)}`, 50);
      await rawExchange(serve.port, `GET //[ HTTP/1.1\r\n${upgradeHeaders(host)}\r\n`, 1);
    }
    expect(isAlive(serve)).toBe(true);
    await bystanderStillServed();
  });

  it('issue #12: the agent endpoint answers odd methods and bodies with JSON-RPC errors, not a crash', async () => {
    const host = `127.0.0.1:${serve.port}`;
    const auth = `Authorization: Bearer ${serve.token}\r\n`;
    const bodies = [
      '',
      '{',
      '[]',
      'null',
      '"x"',
      '{"jsonrpc":"2.0"}',
      '\u0000',
      '{"jsonrpc":"2.0","method":"initialize","id":{}}',
    ];
    for (const body of bodies) {
      const response = await rawExchange(
        serve.port,
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n${auth}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(
        statusOf(response),
        `POST ${JSON.stringify(body)} → ${response.slice(0, 120)}`,
      ).toBeGreaterThanOrEqual(400);
      expect(statusOf(response)).toBeLessThan(500);
      expectSecurityHeaders(response);
    }
    for (const method of ['PUT', 'PATCH', 'OPTIONS', 'TRACE', 'HEAD']) {
      const response = await rawExchange(
        serve.port,
        `${method} /mcp HTTP/1.1\r\nHost: ${host}\r\n${auth}Mcp-Session-Id: nope\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(response), `${method} → ${response.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(statusOf(response)).toBeLessThan(500);
    }
    expect(isAlive(serve)).toBe(true);
    await bystanderStillServed();
  });
});

describe('issue #12: a truly unexpected error', () => {
  it('issue #12: serve and mcp log an escaped exception or rejection in one line without its message, and keep serving', async () => {
    const guard = pathToFileURL(
      path.join(ROOT, 'dist-security-listeners', 'cli', 'unexpected-errors.js'),
    ).href;
    const script = `
      const { keepServingOnUnexpectedErrors } = await import(${JSON.stringify(guard)});
      keepServingOnUnexpectedErrors('serve', { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
      setTimeout(() => { throw new TypeError('Invalid URL token=hunter2-canary'); }, 5);
      Promise.reject(new Error('Bearer hunter2-canary'));
      setTimeout(() => console.log('still serving'), 200);
    `;
    const { stdout, stderr, code } = await new Promise<{
      stdout: string;
      stderr: string;
      code: number | null;
    }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('close', (exitCode) => resolve({ stdout: out, stderr: err, code: exitCode }));
    });
    expect(code).toBe(0);
    expect(stdout).toBe('still serving\n');
    const logged = stderr.trim().split('\n');
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).toMatch(/TypeError at .*; still serving/);
    expect(stderr).not.toContain('hunter2');
  });
});

describe('issue #12: cookie tossing', () => {
  it('issue #12: a same-name cookie set by another localhost port does not lock the real UI out', async () => {
    const { name, value } = await uiSessionCookie(serve);
    expect(name).toBe(`toolbridge_ui_${serve.port}`);
    const host = `127.0.0.1:${serve.port}`;
    const upgrade = (cookie: string) =>
      rawExchange(
        serve.port,
        `GET /api/ws HTTP/1.1\r\n${upgradeHeaders(host)}Origin: http://${host}\r\nCookie: ${cookie}\r\n\r\n`,
        500,
      );
    // A page on another port sets `name=x; Path=/api`: the browser sends that one first.
    const accepted = [
      `${name}=x; ${name}=${value}`,
      `${name}=${value}; ${name}=x`,
      `${Array.from({ length: 20 }, (_, i) => `${name}=tossed${i}`).join('; ')}; ${name}=${value}`,
      `${name}=""; other=1; ${name}=${value}`,
      `${name}=; ${name}=${value}`,
    ];
    for (const cookie of accepted) expect(statusOf(await upgrade(cookie)), cookie.slice(0, 60)).toBe(101);
    const session = await fetch(`http://${host}/api/session`, {
      headers: { Cookie: `${name}=x; ${name}=${value}` },
    });
    expect(session.status).toBe(200);

    // With a good cookie, a handshake ws refuses still carries our headers, and the host stays up.
    const cookie = `${name}=${value}`;
    for (const [what, head, status] of [
      ['a bad key', `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n`, 400],
      ['version 12', `Sec-WebSocket-Version: 12\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`, 400],
      ['no version', `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`, 400],
      [
        'a bad subprotocol',
        `${upgradeHeaders(host).split('\r\n').slice(3).join('\r\n')}Sec-WebSocket-Protocol: a b,,\r\n`,
        400,
      ],
    ] as const) {
      const response = await rawExchange(
        serve.port,
        `GET /api/ws HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${head}Origin: http://${host}\r\nCookie: ${cookie}\r\n\r\n`,
      );
      expect(statusOf(response), `${what} → ${response.slice(0, 80)}`).toBe(status);
      expectSecurityHeaders(response);
    }
    const h2c = await rawExchange(
      serve.port,
      `GET /api/ws HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nOrigin: http://${host}\r\nCookie: ${cookie}\r\n\r\n`,
    );
    expect(statusOf(h2c)).toBe(400);
    expectSecurityHeaders(h2c);

    // Tossed values alone, or the right value under another port's name, still get nothing.
    for (const cookie of [
      `${name}=x`,
      `${name}=x; ${name}=y`,
      `toolbridge_ui_1=${value}`,
      `${name}= ${value}x`,
    ]) {
      expect(statusOf(await upgrade(cookie)), cookie.slice(0, 60)).toBe(401);
    }
    await bystanderStillServed();
  });
});
