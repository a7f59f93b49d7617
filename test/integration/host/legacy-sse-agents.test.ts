/**
 * Issue #14, clients: agents that predate Streamable HTTP (protocol 2024-11-05, GET /sse + POST
 * /messages) use the host through the SDK's real SSEClientTransport; agents without a valid token
 * get a 401 that says how to send one.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/host.js';
import { fixtureServer, startHost } from '../../helpers/host-kit.js';
import { waitUntil } from '../../helpers/wait.js';

let dataDir: string;
let host: Host;
let token: string;
let origin: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-legacy-sse-'));
  host = await startHost(
    dataDir,
    { servers: [fixtureServer('basic', 'basic')] },
    { policyOverride: 'allow' },
  );
  token = (await host.agents.ensureDefault()).token;
  origin = new URL(host.endpointUrl!).origin;
});

afterAll(async () => {
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function legacyAgent(agentToken: string): Promise<Client> {
  const client = new Client({ name: 'legacy-agent', version: '1.0.0' });
  await client.connect(
    new SSEClientTransport(new URL(`${origin}/sse`), {
      requestInit: { headers: { Authorization: `Bearer ${agentToken}` } },
    }),
  );
  return client;
}

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

describe('legacy SSE agents', () => {
  it('issue #14: list tools, tool_search and tool_call work through the SDK SSE client', async () => {
    const agent = await legacyAgent(token);
    try {
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['tool_search', 'tool_call']));

      const search = (await agent.callTool({
        name: 'tool_search',
        arguments: { queries: ['echo the message'] },
      })) as CallToolResult;
      expect(search.isError).toBeFalsy();
      expect(textOf(search)).toContain('mcp__basic__echo');

      const call = (await agent.callTool({
        name: 'tool_call',
        arguments: { calls: [{ name: 'mcp__basic__echo', arguments: { message: 'over legacy sse' } }] },
      })) as CallToolResult;
      expect(call.isError).toBeFalsy();
      expect(textOf(call)).toContain('over legacy sse');
      expect(host.endpoint!.sessionCount()).toBeGreaterThanOrEqual(1);
    } finally {
      await agent.close();
    }
    await waitUntil(() => host.endpoint!.sessionCount() === 0, 'the closed SSE session to be dropped');
  });

  it('issue #14: no token gets a 401 that says how to send one, on /sse, /messages and /mcp', async () => {
    for (const [method, route] of [
      ['GET', '/sse'],
      ['POST', '/messages?sessionId=x'],
      ['POST', '/mcp'],
    ] as const) {
      const response = await fetch(`${origin}${route}`, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        ...(method === 'POST' ? { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      const body = (await response.json()) as {
        jsonrpc: string;
        id: null;
        error: { code: number; message: string };
      };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
      expect(body.error.message).toContain('Authorization: Bearer <agent token>');
      expect(body.error.message).toContain('toolbridge serve');
      expect(body.error.message).toContain('Agents view');
    }
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(anonymous.connect(new SSEClientTransport(new URL(`${origin}/sse`)))).rejects.toThrow(/401/);
  });

  it("issue #14: another agent's revoked token gets 401 and is never echoed, and its open SSE session closes", async () => {
    const other = await host.agents.create('Old laptop');
    const agent = await legacyAgent(other.token);
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    const before = host.endpoint!.sessionCount(other.agent.id);
    expect(before).toBe(1);

    await host.agents.revoke(other.agent.id);
    await waitUntil(
      () => host.endpoint!.sessionCount(other.agent.id) === 0,
      'the revoked agent’s session to close',
    );

    const response = await fetch(`${origin}/sse`, { headers: { Authorization: `Bearer ${other.token}` } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const text = await response.text();
    expect(text).toContain('not valid');
    expect(text).not.toContain(other.token);
    const again = new Client({ name: 'revoked', version: '1.0.0' });
    await expect(
      again.connect(
        new SSEClientTransport(new URL(`${origin}/sse`), {
          requestInit: { headers: { Authorization: `Bearer ${other.token}` } },
        }),
      ),
    ).rejects.toThrow(/401/);
    await agent.close();
  });
});
