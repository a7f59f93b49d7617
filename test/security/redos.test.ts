import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type ScenarioTool, scenarioServer } from '../helpers/host-kit.js';
import { withoutNativePatterns } from '../helpers/native-regexp.js';
import { approvalCards, connectAgent, hostForFile, text, toolCall } from '../integration/approvals/kit.js';

const EVIL = `${'a'.repeat(30)}!`;
const LONG_EVIL = `${'a'.repeat(5000)}!`;

const string = (pattern: string) => ({ type: 'string', pattern });
const evilTools = [
  { name: 'nested', schema: { properties: { message: string('^(a+)+$') } } },
  { name: 'pinned', schema: { properties: { message: string('^(a+)+$') } } },
  { name: 'alternation', schema: { properties: { message: string('^(a|aa)+$') } } },
  {
    name: 'keys',
    schema: { patternProperties: { '^(a+)+$': { type: 'number' } }, additionalProperties: false },
  },
  { name: 'names', schema: { propertyNames: string('^(a+)+$') } },
  {
    name: 'deep',
    schema: { properties: { message: { $ref: '#/$defs/evil' } }, $defs: { evil: string('^(\\w+\\s?)*$') } },
  },
  { name: 'items', schema: { properties: { message: { type: 'array', items: string('^(a+)+$') } } } },
  { name: 'lookahead', schema: { properties: { message: string('^(?=(a+)+$)a*$') } } },
  { name: 'backreference', schema: { properties: { message: string('^(a+)\\1$') } } },
];

const running = hostForFile(async (dataDir) => {
  const server = (name: string, tools: ScenarioTool[]) => scenarioServer(dataDir, name, tools);
  return {
    servers: [
      await server(
        'evil',
        evilTools.map(({ name, schema }) => ({
          name,
          behavior: 'echo',
          inputSchema: { type: 'object', ...schema },
        })),
      ),
      await server('other', [{ name: 'echo', behavior: 'echo' }]),
    ],
    policies: { default: 'allow', tools: { mcp__evil__backreference: 'ask' } },
    tools: { mcp__evil__pinned: { pinned: true } },
  };
});

/**
 * Runs `work` with V8's engine refusing every pattern the evil server sends: V8 stalls 18 s on
 * "^(a+)+$" against EVIL, so a check that reached it fails here at once instead of merely taking long.
 */
function onLinearEngineOnly<T>(work: () => Promise<T>): Promise<T> {
  return withoutNativePatterns(
    ['^(a+)+$', '^(a|aa)+$', '^(\\w+\\s?)*$', '^(?=(a+)+$)a*$', '^(a+)\\1$'],
    work,
  );
}

function validationError(result: CallToolResult): { constraint: string; error: string } {
  expect(result.isError, text(result)).toBe(true);
  return JSON.parse(text(result));
}

describe('issue #12: schema patterns from servers', () => {
  it('issue #12: "^(a+)+$" against 30 a and a "!" is refused at once, while another server and the UI answer', async () => {
    const agent = await connectAgent(running);
    const value = await onLinearEngineOnly(() =>
      Promise.all([
        toolCall(agent, 'mcp__evil__nested', { message: EVIL }),
        toolCall(agent, 'mcp__other__echo', { message: 'still here' }),
        running.host.api.listServers(),
      ]),
    );
    const [evil, other, servers] = value;
    expect(validationError(evil)).toMatchObject({ constraint: 'pattern' });
    expect(text(other)).toBe('still here');
    expect(servers.map((server) => server.id).sort()).toEqual(['evil', 'other']);
  });

  it('issue #12: the variants (alternation, patternProperties, propertyNames, $ref, items, 5,000 characters, a pinned tool) never stall', async () => {
    const agent = await connectAgent(running);
    const calls: [string, Record<string, unknown>][] = [
      ['mcp__evil__nested', { message: LONG_EVIL }],
      ['mcp__evil__alternation', { message: EVIL }],
      ['mcp__evil__keys', { [EVIL]: 1 }],
      ['mcp__evil__keys', { aaaa: 'not a number' }],
      ['mcp__evil__names', { [EVIL]: 1 }],
      ['mcp__evil__deep', { message: `${'word '.repeat(2000)}!` }],
      ['mcp__evil__items', { message: [EVIL, LONG_EVIL] }],
    ];
    const value = await onLinearEngineOnly(async () => {
      const results = await Promise.all(calls.map(([name, args]) => toolCall(agent, name, args)));
      // A pinned tool is called directly, without tool_call: the same check.
      const direct = (await agent.callTool({
        name: 'mcp__evil__pinned',
        arguments: { message: EVIL },
      })) as CallToolResult;
      return [...results, direct];
    });
    for (const result of value) expect(validationError(result).error).toMatch(/NOT invoked/);
  });

  it('issue #12: a pattern RE2 cannot run (lookahead, backreference) is not enforced and never run on the event loop', async () => {
    const agent = await connectAgent(running);
    const cards = approvalCards(running.host);
    const value = await onLinearEngineOnly(async () => {
      const calls = Promise.all([
        toolCall(agent, 'mcp__evil__lookahead', { message: EVIL }),
        toolCall(agent, 'mcp__evil__backreference', { message: EVIL }),
      ]);
      // The card says plainly which pattern was not checked.
      const [card] = await cards;
      expect(card!.validation).toEqual({ ok: true, notEnforced: ['^(a+)\\1$'] });
      await running.host.api.resolveCard(card!.id, { action: 'approve' });
      return calls;
    });
    // The server judges the value itself; Toolbridge did not hold the call on a check it cannot make.
    expect(value.map(text)).toEqual([EVIL, EVIL]);
  });
});
