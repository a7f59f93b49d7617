/**
 * Deny rules hold end to end, whatever way the agent reaches the tool: the real memory server
 * (mcp-server-memory over stdio) must never see a denied create_entities, which read_graph and
 * its file on disk would show.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait.js';
import { connectAgent, errorOf, hostForFile, referenceServers, text, toolCall } from './kit.js';

const CREATE = 'mcp__memory__create_entities';
const entities = (name: string) => ({ entities: [{ name, entityType: 'probe', observations: ['x'] }] });

const running = hostForFile(async (dataDir) => ({
  servers: await referenceServers(dataDir, 'everything', 'memory'),
  policies: {
    default: 'allow',
    rules: [{ serverId: 'memory', toolName: 'create_entities', policy: 'deny' }],
  },
}));
let agent: Client;

beforeAll(async () => {
  agent = await connectAgent(running);
});

async function graph(): Promise<{ entities: Array<{ name: string }> }> {
  const result = await toolCall(agent, 'mcp__memory__read_graph', {});
  expect(result.isError, text(result)).toBeFalsy();
  return JSON.parse(text(result));
}

/**
 * Every way the call came back, it must be a refusal. The gate answers `{code, message}`; the
 * bridge refuses a name it does not know (or a pinned tool sent through tool_call) before the gate
 * with `{error: "…"}`, counted here as BRIDGE.
 */
function expectRefused(result: CallToolResult, codes: string[], label: string): void {
  expect(result.isError, `${label}: ${text(result)}`).toBe(true);
  const payload = JSON.parse(text(result)) as { error?: unknown };
  const code = typeof payload.error === 'string' ? 'BRIDGE' : errorOf(result).code;
  expect(codes, `${label}: ${text(result)}`).toContain(code);
}

/** Waits until the agent's own tool list does (or does not) show a name. */
async function untilListed(name: string, listed: boolean): Promise<void> {
  await waitUntil(
    async () => (await agent.listTools()).tools.some((tool) => tool.name === name) === listed,
    `${name} to be ${listed ? 'listed' : 'unlisted'}`,
    15_000,
  );
}

describe('a deny rule', () => {
  it('blocks the tool through tool_call, and the server is never called', async () => {
    expectRefused(await toolCall(agent, CREATE, entities('exact')), ['DENIED'], 'exact name');
    expect((await graph()).entities).toEqual([]);
  });

  it('blocks other spellings of the name: case, NFKC, zero-width, separators', async () => {
    const spellings = [
      'MCP__memory__CREATE_ENTITIES',
      'mcp__Memory__Create_Entities',
      'mcp__memory__create-entities',
      'mcp__memory__create entities',
      'ｍｃｐ__ｍｅｍｏｒｙ__ｃｒｅａｔｅ_ｅｎｔｉｔｉｅｓ',
      'mcp__memory__create\u200b_entities',
      ' mcp__memory__create_entities ',
    ];
    for (const name of spellings) {
      const result = await toolCall(agent, name, entities(`spelling ${name}`));
      // Either the name folds to the real tool (and the rule denies it) or it is refused as unknown.
      expectRefused(result, ['DENIED', 'NOT_FOUND', 'BRIDGE'], JSON.stringify(name));
    }
    expect((await graph()).entities).toEqual([]);
  });

  it('blocks the tool when it is pinned and called directly', async () => {
    const view = await running.host.api.setToolPinned(CREATE, true);
    expect(view.pinned).toBe(true);
    const direct = view.directName ?? CREATE;
    await untilListed(direct, true);
    const result = (await agent.callTool({ name: direct, arguments: entities('pinned') })) as CallToolResult;
    expectRefused(result, ['DENIED'], 'pinned');
    // Through tool_call too, now that it is pinned.
    expectRefused(
      await toolCall(agent, CREATE, entities('pinned via bridge')),
      ['DENIED', 'BRIDGE'],
      'pinned via bridge',
    );
    await running.host.api.setToolPinned(CREATE, false);
    await untilListed(direct, false);
    expect((await graph()).entities).toEqual([]);
  });

  it('leaves other tools of the server working, so the server really was reachable', async () => {
    const result = await toolCall(agent, 'mcp__memory__search_nodes', { query: 'probe' });
    expect(result.isError, text(result)).toBeFalsy();
    expect((await graph()).entities).toEqual([]);
    // The memory server writes its graph file on the first change; nothing ever changed it.
    const file = path.join(running.dataDir, 'memory.jsonl');
    const content = await fs.readFile(file, 'utf8').catch(() => '');
    expect(content).not.toContain('probe');
    const denied = await running.host.api.queryActivity({ toolName: CREATE, decision: 'deny', limit: 100 });
    // The exact name and the pinned tool reached the gate; the other spellings stopped earlier.
    expect(denied.entries.length).toBeGreaterThanOrEqual(2);
    expect(denied.entries.map((entry) => entry.decidedBy)).toEqual(denied.entries.map(() => 'policy'));
  });

  it('the control: with the rule gone, the same call does reach the server', async () => {
    await running.host.settings.update((draft) => {
      draft.policies.rules = [];
      return draft;
    });
    const result = await toolCall(agent, CREATE, entities('allowed'));
    expect(result.isError, text(result)).toBeFalsy();
    expect((await graph()).entities.map((entity) => entity.name)).toEqual(['allowed']);
  });
});

describe('the bridge tools', () => {
  it('refuse a tool_call entry naming a bridge tool', async () => {
    for (const name of ['tool_call', 'tool_search', 'tool_describe', 'TOOL_CALL']) {
      const result = (await agent.callTool({
        name: 'tool_call',
        arguments: {
          calls: [{ name, arguments: { calls: [{ name: CREATE, arguments: entities('nested') }] } }],
        },
      })) as CallToolResult;
      expect(result.isError, `${name}: ${text(result)}`).toBe(true);
      expect(text(result)).not.toContain('"entities"');
    }
    expect((await graph()).entities.map((entity) => entity.name)).not.toContain('nested');
  });
});
