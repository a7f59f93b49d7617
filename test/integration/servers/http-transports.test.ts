/**
 * Remote servers on 127.0.0.1: an SDK-built Streamable HTTP server with a bearer-token check, and
 * one that only speaks legacy SSE.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { ServerConnection, type ServerConnectionOptions } from '../../../src/servers/server-connection.js';
import type { ServerConfig } from '../../../src/servers/types.js';
import {
  type HttpFixture,
  startLegacySseFixture,
  startStreamableHttpFixture,
} from '../../fixtures/servers/http-fixture.js';
import { waitUntil } from '../../helpers/wait.js';
import { scenario, textOf } from './helpers.js';

const TOKEN = 'fixture-token-0123456789abcdef';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(kind: 'streamable' | 'sse', name: string, token?: string): Promise<HttpFixture> {
  const fixture =
    kind === 'streamable'
      ? await startStreamableHttpFixture(scenario(name), { token })
      : await startLegacySseFixture(scenario(name), { token });
  cleanups.push(() => fixture.close());
  return fixture;
}

async function connect(
  config: ServerConfig,
  options: ServerConnectionOptions = {},
): Promise<ServerConnection> {
  const connection = new ServerConnection(config, {
    connectTimeoutMs: 5_000,
    callTimeoutMs: 5_000,
    ...options,
  });
  cleanups.push(() => connection.close());
  await connection.start();
  return connection;
}

function remote(
  id: string,
  transport: 'http' | 'sse',
  url: string,
  headers?: Record<string, string>,
): ServerConfig {
  return { id, transport, url, enabled: true, ...(headers ? { headers } : {}) };
}

describe('Streamable HTTP', () => {
  it('connects with the bearer token, lists every page and calls tools', async () => {
    const fixture = await serve('streamable', 'paging', TOKEN);
    const connection = await connect(
      remote('paged', 'http', fixture.url, { Authorization: `Bearer ${TOKEN}` }),
    );
    expect(connection.state).toMatchObject({ status: 'connected', toolCount: 11 });
    expect(textOf(await connection.callTool('tool_003', { message: 'over http' }))).toBe('over http');
    expect(fixture.authorizations.length).toBeGreaterThan(2);
    expect(fixture.authorizations.every((value) => value === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('goes to needs-auth on a 401, without retrying and without showing the token', async () => {
    const fixture = await serve('streamable', 'basic', TOKEN);
    const connection = await connect(
      remote('locked', 'http', fixture.url, { Authorization: 'Bearer wrong-token-value' }),
    );
    expect(connection.state.status).toBe('needs-auth');
    expect(connection.state.lastError).toContain('401 Unauthorized');
    expect(connection.state.nextRetryAt).toBeUndefined();
    expect(JSON.stringify(connection.state) + connection.stderrTail.join('\n')).not.toContain(
      'wrong-token-value',
    );
    const error = await connection.callTool('echo', {}).catch((e: unknown) => e);
    expect((error as Error).message).toContain('needs you to sign in');
  });

  it('re-lists on notifications/tools/list_changed', async () => {
    const fixture = await serve('streamable', 'dynamic');
    const connection = await connect(remote('dyn', 'http', fixture.url));
    const changes: string[][] = [];
    connection.onDidChangeTools((tools) => changes.push(tools.map((t) => t.name)));
    await connection.callTool('add_tool', { name: 'from_http' });
    await waitUntil(() => changes.length > 0, 'list_changed over HTTP', 5_000);
    expect(changes[0]).toEqual(['echo', 'add_tool', 'from_http']);
  });

  it('times out a hung tool and the server hears the cancel', async () => {
    const fixture = await serve('streamable', 'hanging');
    const connection = await connect(remote('hung', 'http', fixture.url), { callTimeoutMs: 300 });
    const error = await connection.callTool('hang', {}).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'TIMEOUT')).toBe(true);
    await waitUntil(() => fixture.state.cancellations === 1, 'cancellation', 3_000);
  });

  it('fails fast with SERVER_UNAVAILABLE when the server goes away, and says it is reconnecting', async () => {
    const fixture = await serve('streamable', 'basic');
    // A call that waited for its timeout or a reconnect (10 minutes both) would hang the test.
    const connection = await connect(remote('gone', 'http', fixture.url), {
      backoff: { initialDelayMs: 600_000 },
      callTimeoutMs: 600_000,
    });
    await fixture.close();
    const error = await connection.callTool('echo', { message: 'x' }).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'SERVER_UNAVAILABLE')).toBe(true);
    await waitUntil(() => connection.state.status !== 'connected', 'status to leave connected', 3_000);
    expect(['error', 'starting']).toContain(connection.state.status);
  });
});

describe('a wrong address', () => {
  it('reports what both Streamable HTTP and legacy SSE answered', async () => {
    const fixture = await serve('streamable', 'basic');
    const connection = await connect(remote('wrong', 'http', fixture.url.replace('/mcp', '/nope')), {
      backoff: { initialDelayMs: 60_000 },
    });
    expect(connection.state.status).toBe('error');
    expect(connection.state.lastError).toMatch(
      /^Could not connect to server "wrong": Streamable HTTP failed \(HTTP 404: .*\) and legacy SSE failed too \(.*404.*\)\. Check the URL\.$/,
    );
  });
});

describe('legacy SSE', () => {
  it('is reached through "http" by falling back after the POST is refused', async () => {
    const fixture = await serve('sse', 'basic');
    const connection = await connect(remote('old', 'http', fixture.url));
    expect(connection.state).toMatchObject({ status: 'connected', toolCount: 7 });
    expect(connection.stderrTail.join('\n')).toContain('trying legacy SSE');
    expect(textOf(await connection.callTool('echo', { message: 'via sse' }))).toBe('via sse');
  });

  it('is reached directly with "sse", headers on both the stream and the posts', async () => {
    const fixture = await serve('sse', 'paging', TOKEN);
    const connection = await connect(remote('sse', 'sse', fixture.url, { Authorization: `Bearer ${TOKEN}` }));
    expect(connection.state).toMatchObject({ status: 'connected', toolCount: 11 });
    expect(textOf(await connection.callTool('tool_000', { message: 'ok' }))).toBe('ok');
    expect(fixture.authorizations.every((value) => value === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('needs auth without the token', async () => {
    const fixture = await serve('sse', 'basic', TOKEN);
    const connection = await connect(remote('sse-locked', 'sse', fixture.url));
    expect(connection.state.status).toBe('needs-auth');
  });
});
