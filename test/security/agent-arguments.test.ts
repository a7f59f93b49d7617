/**
 * Issue #12: arguments nested 2,000 deep gave "internal error" (a stack overflow) and a
 * non-object `arguments` gave -32603 with a schema dump. Both are refused at the agent edge with
 * -32602 and a message saying what to send; a bridge tool's own bad argument is INVALID_ARGUMENT.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/base/json.js';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent } from '../helpers/host-kit.js';
import { startTestHost, type TestHost } from './listener-kit.js';

let running: TestHost;
let host: Host;
let agent: Client;

beforeAll(async () => {
  running = await startTestHost('allow');
  host = running.host;
  agent = await connectDefaultAgent(host, 'fuzzy');
});

afterAll(async () => {
  await agent?.close();
  await running?.close();
});

function nested(depth: number, asArray = false): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

async function rpcError(name: string, args: unknown): Promise<McpError> {
  const failure = await agent.callTool({ name, arguments: args as Record<string, unknown> }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(McpError);
  return failure as McpError;
}

const echo = (value: unknown) => ({ calls: [{ name: 'mcp__basic__echo', arguments: { message: value } }] });

describe('issue #12: agent-supplied JSON is bounded at the edge', () => {
  it('issue #12: arguments nested past the bound (objects or arrays) get -32602 saying how deep is allowed', async () => {
    // The SDK's own client overflows its stack before it can send 2,000 levels; raw posts below do.
    for (const args of [
      echo(nested(300)),
      echo(nested(300, true)),
      { queries: nested(MAX_JSON_DEPTH + 1, true) },
    ]) {
      for (const tool of ['tool_call', 'tool_search']) {
        const error = await rpcError(tool, args);
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(new RegExp(`nests more than ${MAX_JSON_DEPTH} levels deep`));
        expect(error.message).not.toMatch(/internal error|Maximum call stack/i);
      }
    }
  });

  it('issue #12: just under the bound still runs end to end (coercion, validation, hashing, audit)', async () => {
    const result = (await agent.callTool({
      name: 'tool_call',
      arguments: {
        calls: [
          { name: 'mcp__basic__echo', arguments: { message: 'leaf', extra: nested(MAX_JSON_DEPTH - 8) } },
        ],
      },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('leaf');
  });

  it('issue #12: a non-object `arguments` gets -32602 naming what was sent and what to send, never a schema dump', async () => {
    for (const args of [[1, 2], 'text', 5, true, null]) {
      const error = await rpcError('tool_call', args);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/"arguments" must be a JSON object/);
      expect(error.message).toMatch(/Send \{"name": "tool_call", "arguments"/);
      expect(error.message).not.toMatch(/invalid_type|"path"|"code":/);
    }
  });

  it("issue #12: a bridge tool's own bad argument (a non-object entry argument) is a tool error in words", async () => {
    for (const inner of [[1], 7, true]) {
      const result = (await agent.callTool({
        name: 'tool_call',
        arguments: { calls: [{ name: 'mcp__basic__echo', arguments: inner }] },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(JSON.parse(text)).toEqual({ error: 'calls[0].arguments must be an object.' });
    }
  });

  it('issue #12: JSON hidden in a string (a stringified `calls` or `arguments`) is held to the same bound', async () => {
    const deepText = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    for (const args of [
      { calls: [{ name: 'mcp__basic__echo', arguments: `{"message":"x","extra":${deepText}}` }] },
      { calls: `[{"name":"mcp__basic__echo","arguments":{"extra":${deepText}}}]` },
    ]) {
      const result = (await agent.callTool({ name: 'tool_call', arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/nests more than 64 levels deep/);
    }
  });

  it('issue #12: raw JSON-RPC with non-object params, a non-string name or a deep batch entry gets -32602 by id', async () => {
    const url = host.endpointUrl!;
    const token = (await host.agents.ensureDefault()).token;
    const headers = {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const post = async (body: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: await rpcAnswer(response) };
    };
    for (const [params, words] of [
      [5, 'params must be a JSON object'],
      [[1], 'params must be a JSON object'],
      [{ name: 42, arguments: {} }, '"name" must be'],
      [{ name: 'tool_call', arguments: nested(2000) }, 'nests more than 64 levels deep'],
      [{ name: 'tool_call', arguments: echo(nested(2000, true)) }, 'nests more than 64 levels deep'],
    ] as const) {
      const answer = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      expect((answer.body as { error: { message: string } }).error.message).toContain(words);
    }
    // 100,000 levels (built as text: JSON.stringify itself would overflow) are refused just the same.
    const levels = 100_000;
    const huge = await post(
      `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"tool_search","arguments":{"queries":${'['.repeat(levels)}${']'.repeat(levels)}}}}`,
    );
    expect(huge.status).toBeLessThan(500);
    expect(JSON.stringify(huge.body)).toMatch(/-32602|-32700/);
    // Deep params on any other method are refused the same way.
    const listed = await post({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/list',
      params: { cursor: nested(500) },
    });
    expect(listed.body).toMatchObject({ id: 8, error: { code: -32602 } });
    // The session is unharmed.
    const ok = await post({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    expect(ok.body).toMatchObject({ id: 9, result: { tools: expect.any(Array) } });
  });
});

/**
 * The JSON-RPC answer of a POST: a JSON body (refused at the edge) or the last message of the SSE
 * stream the endpoint answers calls with (issue #14: what belongs to a call travels with it).
 */
async function rpcAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
  return data.at(-1);
}
