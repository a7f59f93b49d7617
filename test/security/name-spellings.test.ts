import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureGateway, startFixtureGateway } from '../fixtures/gateway/fixture-gateway.js';
import { linkGateway, scenarioServer } from '../helpers/host-kit.js';
import {
  connectAgent,
  type RunningHost,
  startFreshHost,
  text,
  toolCall,
} from '../integration/approvals/kit.js';

/** Cyrillic а (U+0430) and е (U+0435), Greek ο (U+03BF): look like Latin a, e, o. */
const CYRILLIC_DANGER = 'd\u0430nger';
const LOCAL_TOOLS = ['danger', CYRILLIC_DANGER, 'dan\u200Bger', 'DANGER', 'safe'];

let gateway: FixtureGateway;
let running: RunningHost;

beforeAll(async () => {
  gateway = await startFixtureGateway({
    connected: ['github', 'notion', 'slack', 'sl\u0430ck'],
    connectors: [
      { id: 'github', catalog: 'github.json' },
      { id: 'notion', catalog: 'notion.json' },
      { id: 'slack', catalog: 'slack-web-api.json' },
      // A gateway (or a vendor) offering a look-alike of a denied connector.
      { id: 'sl\u0430ck', tools: [{ slug: 'SL\u0410CK_CHAT_POST_MESSAGE' }] },
    ],
  });
  running = await startFreshHost(async (dataDir) => {
    return {
      servers: [
        await scenarioServer(
          dataDir,
          'local',
          LOCAL_TOOLS.map((name) => ({ name, behavior: 'echo' })),
        ),
      ],
      connectors: await linkGateway(dataDir, gateway),
      policies: {
        default: 'allow',
        tools: { mcp__local__danger: 'deny' },
        rules: [
          { serverId: 'github', toolName: 'CREATE_ISSUE', policy: 'deny' },
          { serverId: 'slack', policy: 'deny' },
        ],
      },
    };
  });
});

afterAll(async () => {
  await running?.close();
  await gateway?.close();
});

/** Slugs a deny covers: github's CREATE_ISSUE and every tool of slack (or its look-alike). */
function denied(slug: string): boolean {
  return slug === 'GITHUB_CREATE_ISSUE' || /^SL.CK_/u.test(slug);
}

async function call(name: string): Promise<CallToolResult> {
  const agent = running.clients[0] ?? (await connectAgent(running));
  return toolCall(agent, name, {
    owner: 'o',
    repo: 'r',
    title: 't',
    channel: 'c',
    text: 'x',
    message: 'RAN',
  });
}

function entryError(result: CallToolResult): { code: string; message: string } | undefined {
  const payload = JSON.parse(text(result)) as { results?: { error?: { code: string; message: string } }[] };
  return payload.results?.[0]?.error;
}

describe('issue #12: connector names resolve to the one tool that runs before the policy decides', () => {
  it('issue #12: the ten spellings of the review never run a denied tool, and each misspelling names the real tool', async () => {
    const spellings = [
      'connectors__github__CREATE_ISSUE',
      'connectors__GitHub__CREATE_ISSUE',
      'connectors__GITHUB__CREATE_ISSUE',
      'connectors__github__GITHUB_CREATE_ISSUE',
      'connectors__GITHUB__GITHUB_CREATE_ISSUE',
      'connectors__notion__GITHUB_CREATE_ISSUE',
      'connectors__slack__CHAT_POST_MESSAGE',
      'connectors__Slack__CHAT_POST_MESSAGE',
      'connectors__slack__SLACK_CHAT_POST_MESSAGE',
      'connectors__notion__SLACK_CHAT_POST_MESSAGE',
    ];
    for (const name of spellings) {
      const error = entryError(await call(name));
      expect(error, name).toBeDefined();
      expect(['DENIED', 'TOOL_NOT_FOUND'], name).toContain(error!.code);
      if (error!.code === 'TOOL_NOT_FOUND')
        expect(error!.message, name).toMatch(/call it by exactly that name/);
    }
    expect(gateway.executions.filter((run) => denied(run.slug))).toEqual([]);
    const misspelt = entryError(await call('connectors__notion__SLACK_CHAT_POST_MESSAGE'))!;
    expect(misspelt.message).toContain("'connectors__slack__CHAT_POST_MESSAGE'");
  });

  it('issue #12: a name that only spells an allowed tool differently is refused too, and the exact one runs', async () => {
    const before = gateway.executions.length;
    expect(entryError(await call('connectors__GitHub__LIST_ISSUES'))?.message).toContain(
      "'connectors__github__LIST_ISSUES'",
    );
    expect(gateway.executions.length).toBe(before);
    expect(entryError(await call('connectors__github__LIST_ISSUES'))).toBeUndefined();
    expect(gateway.executions.at(-1)?.slug).toBe('GITHUB_LIST_ISSUES');
  });

  it('issue #12: tool_describe of a misspelt name says which tool it spells, without its schema', async () => {
    const agent = running.clients[0] ?? (await connectAgent(running));
    const result = (await agent.callTool({
      name: 'tool_describe',
      arguments: { names: ['connectors__notion__SLACK_CHAT_POST_MESSAGE'] },
    })) as CallToolResult;
    const payload = JSON.parse(text(result));
    expect(payload.tools).toEqual({});
    expect(payload.errors.connectors__notion__SLACK_CHAT_POST_MESSAGE).toContain(
      'connectors__slack__CHAT_POST_MESSAGE',
    );
  });

  it('issue #12: a deny on all of slack covers a connector whose name only looks like slack', async () => {
    const error = entryError(await call('connectors__sl\u0430ck__CHAT_POST_MESSAGE'));
    expect(error?.code).toBe('DENIED');
    expect(gateway.executions.filter((run) => denied(run.slug))).toEqual([]);
  });

  it('issue #12: property: case, prefix, cross-connector and confusable variants never reach a denied tool', async () => {
    const confusable: Record<string, string[]> = {
      a: ['\u0430', '\u0251'],
      e: ['\u0435'],
      o: ['\u03bf', '\u043e'],
      i: ['\u0456'],
      c: ['\u0441'],
      s: ['\u0455'],
      E: ['\u0415'],
      A: ['\u0410'],
      O: ['\u041e'],
      C: ['\u0421'],
      I: ['\u0406'],
    };
    const mutate = (word: string) =>
      fc
        .array(fc.tuple(fc.nat(), fc.constantFrom('upper', 'lower', 'confusable', 'invisible')), {
          maxLength: 3,
        })
        .map((edits) => {
          const chars = [...word];
          for (const [at, edit] of edits) {
            const index = at % chars.length;
            const char = chars[index]!;
            if (edit === 'upper') chars[index] = char.toUpperCase();
            else if (edit === 'lower') chars[index] = char.toLowerCase();
            else if (edit === 'invisible') chars[index] = `${char}\u200b`;
            else chars[index] = confusable[char]?.[at % (confusable[char]?.length ?? 1)] ?? char;
          }
          return chars.join('');
        });
    const target = fc.constantFrom(
      { connector: 'github', tool: 'CREATE_ISSUE' },
      { connector: 'slack', tool: 'CHAT_POST_MESSAGE' },
      { connector: 'slack', tool: 'CONVERSATIONS_LIST' },
    );
    const name = target.chain(({ connector, tool }) =>
      fc
        .record({
          connector: fc.oneof(
            fc.constant(connector),
            mutate(connector),
            fc.constantFrom('notion', 'github', 'slack'),
          ),
          prefix: fc.constantFrom('', `${connector.toUpperCase()}_`, `${connector}_`),
          tool: fc.oneof(fc.constant(tool), mutate(tool)),
        })
        .map((parts) => `connectors__${parts.connector}__${parts.prefix}${parts.tool}`),
    );
    await fc.assert(
      fc.asyncProperty(name, async (spelling) => {
        await call(spelling);
        expect(gateway.executions.filter((run) => denied(run.slug))).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});

describe('issue #12: look-alike local tool names', () => {
  it("issue #12: a deny on danger covers the same server's Cyrillic, invisible and upper-case look-alikes", async () => {
    for (const tool of LOCAL_TOOLS.filter((name) => name !== 'safe')) {
      const result = await call(`mcp__local__${tool}`);
      expect(result.isError, JSON.stringify(tool)).toBe(true);
      expect(JSON.parse(text(result)).code, JSON.stringify(tool)).toBe('DENIED');
    }
    expect(text(await call('mcp__local__safe'))).toBe('RAN');
  });
});
