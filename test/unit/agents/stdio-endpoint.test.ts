import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentEndpoint } from '../../../src/agents/agent-endpoint.js';
import { LoopbackServer } from '../../../src/agents/loopback-server.js';
import { StdioEndpoint } from '../../../src/agents/stdio-endpoint.js';
import { StdioRelay } from '../../../src/agents/stdio-relay.js';
import { waitUntil } from '../../helpers/wait.js';
import { FakeSurface, StreamClientTransport } from './fake-surface.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Pipes an agent (SDK Client) would hold to a stdio server, plus the server's ends. */
function pipes() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  return { stdin: toServer, stdout: toClient, client: new StreamClientTransport(toClient, toServer) };
}

async function connectClient(transport: StreamClientTransport): Promise<Client> {
  const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

describe('StdioEndpoint', () => {
  it('serves the surface over stdio, notifies and cancels', async () => {
    const surface = new FakeSurface('stdio');
    const io = pipes();
    const endpoint = new StdioEndpoint('stdio', () => surface, io);
    await endpoint.start();
    cleanups.push(() => endpoint.close());
    const client = await connectClient(io.client);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'wait']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'stdio: hi' }]);
    expect(surface.calls[0]?.agentId).toBe('stdio');

    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    surface.extraTool = true;
    endpoint.notifyToolsChanged();
    await notified;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('extra');

    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await waitUntil(() => surface.calls.length === 2, 'the wait call to reach the surface', 5_000);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(() => surface.aborted.length === 1, 'the surface to see the abort', 5_000);
  });

  it('finishes when the agent closes stdin', async () => {
    const io = pipes();
    const endpoint = new StdioEndpoint('stdio', () => new FakeSurface('x'), io);
    await endpoint.start();
    io.stdin.end();
    await endpoint.done;
  });
});

describe('StdioRelay', () => {
  async function host() {
    const surface = new FakeSurface('relayed');
    const token = 'relay-token-0123456789abcdef';
    const endpoint = new AgentEndpoint({
      agents: {
        authenticate: (given) =>
          given === token
            ? { id: 'desk', name: 'Desk', contextLengthTokens: 200_000, createdAt: '' }
            : undefined,
      },
      surfaces: () => surface,
    });
    const server = new LoopbackServer();
    server.route('/mcp', endpoint.handle);
    await server.listen();
    cleanups.push(async () => {
      await endpoint.close();
      await server.close();
    });
    return { surface, token, endpoint, url: `${server.url}/mcp` };
  }

  it('relays an agent on stdio to the HTTP endpoint, notifications included', async () => {
    const { surface, token, endpoint, url } = await host();
    const io = pipes();
    const relay = new StdioRelay({ endpointUrl: url, token, ...io, log: () => undefined });
    await relay.start();
    cleanups.push(() => relay.close());
    const client = await connectClient(io.client);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'wait']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'through' } });
    expect(result.content).toEqual([{ type: 'text', text: 'relayed: through' }]);
    expect(surface.calls[0]?.agentId).toBe('desk');

    let notified = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified = true;
    });
    await waitUntil(
      () => {
        endpoint.notifyToolsChanged();
        return notified;
      },
      'the tools/list_changed notification',
      5_000,
    );
  });

  it('answers with an error when the token is wrong, instead of hanging', async () => {
    const { url } = await host();
    const io = pipes();
    const lines: string[] = [];
    const relay = new StdioRelay({
      endpointUrl: url,
      token: 'wrong-token-0123456789',
      ...io,
      log: (line) => lines.push(line),
    });
    await relay.start();
    cleanups.push(() => relay.close());
    await expect(connectClient(io.client)).rejects.toThrow(/unreachable|401/i);
    expect(lines.join('\n')).not.toContain('wrong-token');
  });
});

describe('StdioEndpoint at the agent edge', () => {
  it('issue #12: answers lines the SDK would drop silently (not JSON, non-object params, deep params) and keeps serving', async () => {
    const surface = new FakeSurface('stdio');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const endpoint = new StdioEndpoint('stdio', () => surface, { stdin, stdout });
    await endpoint.start();
    cleanups.push(() => endpoint.close());
    const answers: Array<{ id: unknown; error?: { code: number; message: string }; result?: unknown }> = [];
    let rest = '';
    stdout.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) if (part.trim() !== '') answers.push(JSON.parse(part));
    });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    stdin.write('not json\n');
    stdin.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":5}\n');
    stdin.write(
      `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":${deep}}}\r\n`,
    );
    stdin.write('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":[1]}}\n');
    stdin.write('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
    await waitUntil(() => answers.length >= 5, 'the five answers', 5_000);
    expect(answers.find((answer) => answer.id === null)?.error?.code).toBe(-32700);
    for (const id of [5, 6, 7]) expect(answers.find((answer) => answer.id === id)?.error?.code).toBe(-32602);
    expect(answers.find((answer) => answer.id === 6)?.error?.message).toMatch(
      /nests more than 64 levels deep/,
    );
    expect(answers.find((answer) => answer.id === 8)).toMatchObject({ result: {} });
  });
});
