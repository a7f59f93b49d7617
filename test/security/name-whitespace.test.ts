/**
 * Issue #12: the README says what happens to names with surrounding whitespace. They are trimmed
 * (JavaScript's trim: spaces, tabs, line breaks, no-break and other Unicode spaces, the BOM) and
 * must then be the exact name; the trimmed name is decided by the same rules, so trimming can
 * never reach a tool the exact name would not. Anything else (zero-width or inner spaces) is
 * refused. A real host, the fixture server over stdio and the SDK's real client.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent, fixtureServer, startHost } from '../helpers/host-kit.js';

const SURROUNDING = [' ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028'];

let dataDir: string;
let host: Host;
let agent: Client;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-name-space-'));
  host = await startHost(dataDir, {
    servers: [fixtureServer('basic', 'basic')],
    policies: { default: 'allow', rules: [{ serverId: 'basic', toolName: 'pid', policy: 'deny' }] },
  });
  agent = await connectDefaultAgent(host, 'name-space-agent');
});

afterAll(async () => {
  await agent?.close();
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function call(
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; text: string }> {
  const result = (await agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name, arguments: args }] },
  })) as CallToolResult;
  return { isError: result.isError === true, text: (result.content[0] as { text: string }).text };
}

describe('issue #12: surrounding whitespace in a tool name', () => {
  it('is trimmed, and the trimmed exact name runs', async () => {
    for (const space of SURROUNDING) {
      const result = await call(`${space}mcp__basic__echo${space}`, { message: 'hi' });
      expect(result, JSON.stringify(space)).toEqual({ isError: false, text: 'hi' });
    }
  });

  it('cannot dodge a rule: the trimmed name is denied like the exact one', async () => {
    for (const space of SURROUNDING) {
      const result = await call(`${space}mcp__basic__pid${space}`);
      expect(result.isError, JSON.stringify(space)).toBe(true);
      expect(JSON.parse(result.text).code, JSON.stringify(space)).toBe('DENIED');
    }
  });

  it('anything that is not surrounding whitespace is refused as unknown', async () => {
    for (const name of [
      '\u200bmcp__basic__echo',
      'mcp__basic__echo\u200b',
      'mcp__basic__ echo',
      'mcp__basic __echo',
    ]) {
      const result = await call(name, { message: 'hi' });
      expect(result.isError, JSON.stringify(name)).toBe(true);
      expect(result.text, JSON.stringify(name)).not.toBe('hi');
    }
  });

  it('tool_describe trims its names the same way', async () => {
    const result = (await agent.callTool({
      name: 'tool_describe',
      arguments: { names: ['\u00a0mcp__basic__echo\t'] },
    })) as CallToolResult;
    const payload = JSON.parse((result.content[0] as { text: string }).text) as {
      tools: Record<string, unknown>;
    };
    expect(Object.keys(payload.tools)).toEqual(['mcp__basic__echo']);
  });
});
