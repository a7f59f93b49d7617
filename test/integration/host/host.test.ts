import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createHost, type Host } from '../../../src/host/host.js';
import { defaultServerConfigs } from '../../../src/servers/default-servers.js';
import type { ServerConfig } from '../../../src/servers/types.js';
import { waitUntil } from '../../helpers/wait.js';

const FIXTURE_SERVER = fileURLToPath(new URL('../../fixtures/servers/fixture-server.mjs', import.meta.url));
const HANGING = fileURLToPath(new URL('../../fixtures/servers/hanging.json', import.meta.url));

let dataDir: string;
let host: Host;
let token: string;
const clients: Client[] = [];

async function writeSettings(dir: string, servers: ServerConfig[], extra: Record<string, unknown> = {}) {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(dir, 'settings.json'), JSON.stringify({ version: 1, servers, ...extra }), {
    mode: 0o600,
  });
}

async function agent(agentToken = token): Promise<Client> {
  const client = new Client({ name: 'integration-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(host.endpointUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${agentToken}` } },
    }),
  );
  clients.push(client);
  return client;
}

function callTool(client: Client, params: { name: string; arguments: Record<string, unknown> }) {
  return client.callTool(params) as Promise<CallToolResult>;
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

function payload(result: CallToolResult): Record<string, unknown> {
  return JSON.parse(text(result));
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-host-'));
  const [everything] = await defaultServerConfigs(dataDir);
  await writeSettings(
    dataDir,
    [
      everything!,
      {
        id: 'hanging',
        transport: 'stdio',
        command: process.execPath,
        args: [FIXTURE_SERVER, HANGING],
        enabled: true,
      },
    ],
    { callTimeoutMs: 1500 },
  );
  host = await createHost({ dataDir, port: 0, policyOverride: 'allow', log: () => undefined });
  await host.ready;
  token = (await host.agents.ensureDefault()).token;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the host behind the agent endpoint', () => {
  it('lists manage_connections and the bridge, finds, describes and runs a real tool', async () => {
    const client = await agent();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'manage_connections',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(tools[1]?.description).toContain('mcp__everything__echo');
    // No connector gateway is configured: tool_search says nothing of connectors.
    expect(tools[1]?.description).not.toContain('connectors__');

    const search = payload(
      await callTool(client, { name: 'tool_search', arguments: { queries: ['echo message'] } }),
    );
    const matches = (search.results as Array<{ matches: string[] }>)[0]!.matches;
    expect(matches).toContain('mcp__everything__echo');

    const described = payload(
      await callTool(client, { name: 'tool_describe', arguments: { names: ['mcp__everything__echo'] } }),
    );
    const echo = (described.tools as Record<string, { parameters: { required: string[] } }>)
      .mcp__everything__echo;
    expect(echo?.parameters.required).toEqual(['message']);

    const result = (await client.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello bridge' } }] },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Echo: hello bridge');
  });

  it('refuses bad or missing arguments before the server sees them', async () => {
    const client = await agent();
    const before = (await host.api.queryActivity({ toolName: 'mcp__everything__echo' })).entries.length;
    for (const args of [{}, { message: 42 }]) {
      const result = (await client.callTool({
        name: 'tool_call',
        arguments: { calls: [{ name: 'mcp__everything__echo', arguments: args }] },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      const error = payload(result);
      expect(error).toMatchObject({
        constraint: expect.any(String),
        path: expect.stringMatching(/^arguments/),
      });
      expect(error.parameters).toMatchObject({ required: ['message'] });
      expect(error.hint).toEqual(expect.any(String));
      expect(String(error.error)).toContain('NOT invoked');
    }
    // Nothing reached the server; issue #16: each refusal is in the activity log all the same.
    const { entries } = await host.api.queryActivity({ toolName: 'mcp__everything__echo' });
    expect(entries.length).toBe(before + 2);
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({ decision: 'deny', decidedBy: 'system', arguments: { message: 42 } }),
      expect.objectContaining({ decision: 'deny', decidedBy: 'system', arguments: {} }),
    ]);
  });

  it('times out a hung tool with a clear error, after the configured call timeout', async () => {
    const client = await agent();
    const result = (await client.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__hanging__hang', arguments: {} }] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    // The settings' 1.5 s reached the call, not a default.
    expect(JSON.parse(text(result))).toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining('Tool "hang" on server "hanging" did not answer within 1.5 s'),
    });
  });

  it('runs 20 concurrent agent calls correctly', async () => {
    const client = await agent();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.callTool({
          name: 'tool_call',
          arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: `call ${i}` } }] },
        }),
      ),
    );
    expect(results.map((result) => text(result as CallToolResult))).toEqual(
      Array.from({ length: 20 }, (_, i) => `Echo: call ${i}`),
    );
  });

  it('brings a killed server back and tells the agent', async () => {
    const client = await agent();
    let notifications = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notifications++;
    });
    await client.listTools();
    const pid = host.servers.snapshotOf('everything').pid!;
    const statuses: string[] = [];
    const off = host.api.on('serverStatusChanged', (view) => {
      if (view.id === 'everything') statuses.push(view.status);
    });
    process.kill(-pid, 'SIGKILL');
    await waitUntil(() => statuses.includes('error'), 'error status', 15_000);
    await waitUntil(
      () =>
        host.servers.snapshotOf('everything').status === 'connected' &&
        host.servers.snapshotOf('everything').pid !== pid,
      'reconnect',
      20_000,
    );
    off();
    await waitUntil(() => notifications > 0, 'list_changed');
    const search = payload(await callTool(client, { name: 'tool_search', arguments: { queries: ['echo'] } }));
    expect((search.results as Array<{ matches: string[] }>)[0]!.matches).toContain('mcp__everything__echo');
    const result = (await client.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: 'back' } }] },
    })) as CallToolResult;
    expect(text(result)).toBe('Echo: back');
  });

  it('refuses invalid server settings and leaves the file untouched', async () => {
    const file = path.join(dataDir, 'settings.json');
    const before = await fs.readFile(file, 'utf8');
    const bad = [
      { id: 'Bad Id', transport: 'stdio', command: 'node', enabled: true },
      { id: 'nourl', transport: 'http', enabled: true },
      { id: 'everything', transport: 'stdio', command: 'node', enabled: true },
      { id: 'x', transport: 'carrier-pigeon', enabled: true },
    ];
    for (const config of bad) {
      const error = await host.api.addServer(config as unknown as ServerConfig).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT'), JSON.stringify(config)).toBe(true);
      expect((error as Error).message.length).toBeGreaterThan(20);
    }
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(host.servers.ids()).toEqual(['everything', 'hanging']);
  });
});

describe('the agent endpoint of a real host', () => {
  it('refuses wrong, missing and query-string tokens, foreign origins and bad hosts', async () => {
    const url = host.endpointUrl!;
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (target: string, headers: Record<string, string>) =>
      fetch(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    expect((await post(url, {})).status).toBe(401);
    expect((await post(url, { Authorization: 'Bearer tb_wrong' })).status).toBe(401);
    expect((await post(`${url}?token=${token}`, {})).status).toBe(401);
    expect(
      (await post(url, { Authorization: `Bearer ${token}`, Origin: 'http://evil.example' })).status,
    ).toBe(403);
    const ok = await post(url, { Authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it('gives a created agent its own token and closes its sessions on revoke', async () => {
    const created = await host.api.createAgent('Second agent', 16_000);
    const connection = await host.api.getAgentConnection(created.id);
    expect(connection.endpointUrl).toBe(host.endpointUrl);
    expect(connection.token).not.toBe(token);
    expect(JSON.parse(connection.configs.cursor!).mcpServers.toolbridge.headers.Authorization).toBe(
      `Bearer ${connection.token}`,
    );
    const client = await agent(connection.token);
    const tier = await host.api.getTier({ agentId: created.id });
    expect(tier.contextLengthTokens).toBe(16_000);
    expect((await client.listTools()).tools.find((tool) => tool.name === 'tool_search')?.description).toBe(
      tier.toolSearchDescription,
    );
    await host.api.revokeAgent(created.id);
    await expect(client.listTools()).rejects.toThrow();
    expect(JSON.stringify(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'))).not.toContain(
      connection.token,
    );
  });
});
