import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentEndpoint, LEGACY_MESSAGES_PATH } from '../../../src/agents/agent-endpoint.js';
import { type AgentRecord, AgentRegistry } from '../../../src/agents/agent-registry.js';
import { LoopbackServer } from '../../../src/agents/loopback-server.js';
import { waitUntil } from '../../helpers/wait.js';
import { FakeSurface } from './fake-surface.js';

let server: LoopbackServer;
let endpoint: AgentEndpoint;
let registry: AgentRegistry;
let surfaces: Map<string, FakeSurface>;
let alice: { agent: AgentRecord; token: string };
let bob: { agent: AgentRecord; token: string };
const clients: Client[] = [];

beforeEach(async () => {
  let records: AgentRecord[] = [];
  const secrets = new Map<string, string>();
  registry = await AgentRegistry.open(
    {
      read: () => records,
      write: async (next) => {
        records = next;
      },
    },
    {
      get: async (key) => secrets.get(key),
      set: async (key, value) => void secrets.set(key, value),
      delete: async (key) => void secrets.delete(key),
    },
  );
  alice = await registry.create('Alice');
  bob = await registry.create('Bob');
  surfaces = new Map([
    [alice.agent.id, new FakeSurface('alice')],
    [bob.agent.id, new FakeSurface('bob')],
  ]);
  endpoint = new AgentEndpoint({ agents: registry, surfaces: (id) => surfaces.get(id)! });
  server = new LoopbackServer({ port: 0 });
  mount(server, endpoint);
  await server.listen();
  registry.onDidRevokeAgent((id) => void endpoint.closeAgentSessions(id));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await endpoint.close();
  await server.close();
});

function mount(on: LoopbackServer, agentEndpoint: AgentEndpoint): void {
  on.route('/mcp', agentEndpoint.handle);
  on.route('/sse', agentEndpoint.handleLegacyStream);
  on.route(LEGACY_MESSAGES_PATH, agentEndpoint.handleLegacyMessage);
}

/** The SDK's legacy SSE client as an agent; `sessionId` is the id its stream's endpoint event named. */
async function connectLegacy(
  token: string,
  base = server.url,
): Promise<{ client: Client; sessionId: string }> {
  let sessionId = '';
  const transport = new SSEClientTransport(new URL(`${base}/sse`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (url, init) => {
      const found = new URL(String(url)).searchParams.get('sessionId');
      if (found) sessionId = found;
      return fetch(url, init);
    },
  });
  const client = new Client({ name: 'legacy-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, sessionId };
}

/** Runs `use` against a second endpoint that lets one agent hold `cap` sessions, then closes it. */
async function withCappedEndpoint(
  cap: number,
  use: (capped: AgentEndpoint, url: string) => Promise<void>,
): Promise<void> {
  const capped = new AgentEndpoint({
    agents: registry,
    surfaces: (id) => surfaces.get(id)!,
    maxSessionsPerAgent: cap,
  });
  const other = new LoopbackServer();
  mount(other, capped);
  await other.listen();
  try {
    await use(capped, other.url);
  } finally {
    await capped.close();
    await other.close();
  }
}

async function connect(
  token: string,
  base = server.url,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw request with full control over the headers (fetch cannot set Host). */
function raw(options: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: options.method ?? 'POST',
        path: options.path ?? '/mcp',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          // An SSE answer stays open; the first event is all we need.
          if (body.includes('\n\n')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('AgentEndpoint', () => {
  it("lists the agent's own surface and runs its tools", async () => {
    const { client } = await connect(alice.token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'wait']);
    expect(tools[0]?.description).toBe('echo for alice');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'alice: hi' }]);
    expect(surfaces.get(alice.agent.id)?.calls[0]?.agentId).toBe(alice.agent.id);

    const other = await connect(bob.token);
    expect((await other.client.callTool({ name: 'echo', arguments: { message: 'yo' } })).content).toEqual([
      { type: 'text', text: 'bob: yo' },
    ]);
  });

  it('turns an unknown tool into a protocol error (InvalidParams)', async () => {
    const { client } = await connect(alice.token);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool "nope"/);
  });

  it('declares tools.listChanged and notifies connected agents', async () => {
    const { client } = await connect(alice.token);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    surfaces.get(alice.agent.id)!.extraTool = true;
    // The client opens its notification stream in the background; notify until it is there.
    let received = false;
    void notified.then(() => {
      received = true;
    });
    await waitUntil(
      () => {
        endpoint.notifyToolsChanged();
        return received;
      },
      'the tools/list_changed notification',
      5_000,
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('extra');
  });

  it('aborts the signal passed to callTool when the agent cancels', async () => {
    const { client } = await connect(alice.token);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await waitUntil(
      () => surfaces.get(alice.agent.id)!.calls.length === 1,
      'the wait call to reach the surface',
      5_000,
    );
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await waitUntil(
      () => surfaces.get(alice.agent.id)!.aborted.length === 1,
      'the surface to see the abort',
      5_000,
    );
    expect(surfaces.get(alice.agent.id)!.aborted).toEqual([alice.agent.id]);
  });

  it('refuses a missing, wrong or query-string token with 401', async () => {
    expect((await raw({ body: initialize })).status).toBe(401);
    expect(
      (await raw({ body: initialize, headers: { Authorization: `Bearer ${alice.token}x` } })).status,
    ).toBe(401);
    expect((await raw({ body: initialize, headers: { Authorization: `Basic ${alice.token}` } })).status).toBe(
      401,
    );
    expect((await raw({ body: initialize, path: `/mcp?token=${alice.token}` })).status).toBe(401);
    // Even next to a valid header, a credential in the URL is refused.
    const both = await raw({
      body: initialize,
      path: `/mcp?token=${alice.token}`,
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(both.status).toBe(401);
    expect(both.headers['www-authenticate']).toMatch(/^Bearer/);
    await expect(connect('tb_not-a-token')).rejects.toThrow();
  });

  it('answers 200 to a good initialize (the raw helper works)', async () => {
    const ok = await raw({ body: initialize, headers: { Authorization: `Bearer ${alice.token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  it('refuses a foreign Origin with 403, even with a valid token', async () => {
    const auth = { Authorization: `Bearer ${alice.token}` };
    for (const origin of [
      'http://evil.example',
      'null',
      'http://127.0.0.1:9',
      'http://localhost.evil.example',
    ]) {
      const res = await raw({ body: initialize, headers: { ...auth, Origin: origin } });
      expect(res.status, origin).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const own = await raw({ body: initialize, headers: { ...auth, Origin: server.url } });
    expect(own.status).toBe(200);
  });

  it('refuses a bad Host with 403, even with a valid token', async () => {
    const auth = { Authorization: `Bearer ${alice.token}` };
    for (const host of [
      'attacker.example',
      `attacker.example:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
    ]) {
      expect((await raw({ body: initialize, headers: { ...auth, Host: host } })).status, host).toBe(403);
    }
    expect(
      (await raw({ body: initialize, headers: { ...auth, Host: `localhost:${server.port}` } })).status,
    ).toBe(200);
  });

  it("rejects another agent's session id", async () => {
    const { transport } = await connect(alice.token);
    const sessionId = transport.sessionId!;
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    // The same tools/list on alice's session, sent with one agent's token or the other's.
    const listOnSession = (token: string) =>
      raw({
        body: listTools,
        headers: {
          Authorization: `Bearer ${token}`,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
      });
    const stolen = await listOnSession(bob.token);
    expect(stolen.status).toBe(404);
    expect(stolen.body).not.toContain('echo');
    const stream = await raw({
      method: 'GET',
      headers: {
        Authorization: `Bearer ${bob.token}`,
        'mcp-session-id': sessionId,
        Accept: 'text/event-stream',
      },
    });
    expect(stream.status).toBe(404);
    const own = await listOnSession(alice.token);
    expect(own.status).toBe(200);
    expect(own.body).toContain('echo for alice');
  });

  it('refuses requests without a session unless they initialize', async () => {
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const res = await raw({ body: listTools, headers: { Authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(400);
    const bad = await raw({ body: '{not json', headers: { Authorization: `Bearer ${alice.token}` } });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Parse error');
  });

  it('revoking an agent closes its sessions and its token stops working', async () => {
    const { client } = await connect(alice.token);
    await connect(bob.token);
    expect(endpoint.sessionCount(alice.agent.id)).toBe(1);
    await registry.revoke(alice.agent.id);
    await waitUntil(
      () => endpoint.sessionCount(alice.agent.id) === 0,
      "the revoked agent's session to close",
      5_000,
    );
    expect(endpoint.sessionCount(bob.agent.id)).toBe(1);
    await expect(client.listTools()).rejects.toThrow();
    expect(
      (await raw({ body: initialize, headers: { Authorization: `Bearer ${alice.token}` } })).status,
    ).toBe(401);
  });

  it('caps the sessions one agent can hold', async () => {
    await withCappedEndpoint(2, async (capped, url) => {
      const port = Number(new URL(url).port);
      for (let i = 0; i < 4; i++) {
        const res = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/mcp',
              headers: {
                Authorization: `Bearer ${alice.token}`,
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
              },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(initialize);
        });
        expect(res).toBe(200);
      }
      expect(capped.sessionCount(alice.agent.id)).toBe(2);
    });
  });
});

describe('AgentEndpoint, legacy SSE (protocol 2024-11-05)', () => {
  it('issue #14: serves the agent its own surface over GET /sse + POST /messages', async () => {
    const { client, sessionId } = await connectLegacy(alice.token);
    expect(sessionId).not.toBe('');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'wait']);
    expect((await client.callTool({ name: 'echo', arguments: { message: 'old' } })).content).toEqual([
      { type: 'text', text: 'alice: old' },
    ]);
    expect(endpoint.sessionCount(alice.agent.id)).toBe(1);
  });

  it("issue #14: another agent's SSE session id, and a Streamable HTTP one, look like no session (404)", async () => {
    const { sessionId } = await connectLegacy(alice.token);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    const path = `${LEGACY_MESSAGES_PATH}?sessionId=${sessionId}`;
    const asBob = await raw({ path, body: ping, headers: { Authorization: `Bearer ${bob.token}` } });
    expect(asBob.status).toBe(404);
    expect(asBob.body).toContain('Session not found.');
    const { transport } = await connect(alice.token);
    const crossed = await raw({
      path: `${LEGACY_MESSAGES_PATH}?sessionId=${transport.sessionId}`,
      body: ping,
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(crossed.status).toBe(404);
    const noToken = await raw({ path, body: ping });
    expect(noToken.status).toBe(401);
  });

  it('issue #14: SSE sessions count toward the per-agent cap and are evicted like any other', async () => {
    await withCappedEndpoint(1, async (capped, url) => {
      const legacy = await connectLegacy(alice.token, url);
      expect(capped.sessionCount(alice.agent.id)).toBe(1);
      // A second session (Streamable HTTP) closes the idle SSE one, and its client learns why.
      await connect(alice.token, url);
      expect(capped.sessionCount(alice.agent.id)).toBe(1);
      await expect(legacy.client.listTools()).rejects.toThrow(/least recently used/);
    });
  });

  it('issue #14: a busy SSE session is not evicted; the new one is refused with 429', async () => {
    await withCappedEndpoint(1, async (capped, url) => {
      const legacy = await connectLegacy(alice.token, url);
      const cancel = new AbortController();
      const waiting = legacy.client.callTool({ name: 'wait', arguments: {} }, undefined, {
        signal: cancel.signal,
      });
      await waitUntil(
        () => (surfaces.get(alice.agent.id)?.calls.length ?? 0) > 0,
        'the SSE call to reach the surface',
        5_000,
      );
      const refused = await fetch(`${url}/sse`, { headers: { Authorization: `Bearer ${alice.token}` } });
      expect(refused.status).toBe(429);
      expect(capped.sessionCount(alice.agent.id)).toBe(1);
      cancel.abort();
      await expect(waiting).rejects.toThrow();
    });
  });
});

describe('LoopbackServer', () => {
  it('binds to loopback only', () => {
    const address = server.httpServer.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
    expect(() => new LoopbackServer({ host: '0.0.0.0' })).toThrow(/only binds to loopback/);
    expect(() => new LoopbackServer({ host: '::' })).toThrow(/only binds to loopback/);
  });

  it('is not reachable through a LAN address', async () => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((info) => info !== undefined && info.family === 'IPv4' && !info.internal);
    if (lan === undefined) return; // No LAN interface on this machine: nothing to reach through.
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const req = httpRequest({ host: lan.address, port: server.port, path: '/mcp', timeout: 2000 }, () =>
        resolve(undefined),
      );
      req.on('error', (err) => resolve(err));
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.end();
    });
    expect(error?.code).toMatch(/ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH/);
  });

  it('fails clearly when the port is taken', async () => {
    const clash = new LoopbackServer({ port: server.port });
    await expect(clash.listen()).rejects.toThrow(/already in use/);
    await clash.close();
  });

  it('answers 404 for unknown paths and checks Host before routing', async () => {
    expect((await raw({ path: '/nothing' })).status).toBe(404);
    expect((await raw({ path: '/nothing', headers: { Host: 'evil.example' } })).status).toBe(403);
  });
});
