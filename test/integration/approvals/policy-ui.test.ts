/**
 * The UI's policy methods on a real host with the real memory server (over stdio) and an agent on
 * the SDK's Client: a change is checked, written atomically, audited as the user's, and the very
 * next call follows it, with no restart. read_graph (allowed in the settings) shows what the
 * server really received.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { UI_ACTOR_ID } from '../../../src/approvals/approvals.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import {
  approvalCards,
  connectAgent,
  errorOf,
  hostForFile,
  referenceServers,
  text,
  toolCall,
} from './kit.js';

const CREATE = 'mcp__memory__create_entities';
const SEARCH = 'mcp__memory__search_nodes';
const entities = (name: string) => ({ entities: [{ name, entityType: 'probe', observations: ['x'] }] });

const running = hostForFile(async (dataDir) => ({
  servers: await referenceServers(dataDir, 'memory'),
  policies: { default: 'ask', tools: { mcp__memory__read_graph: 'allow' } },
}));
let agent: Client;

beforeAll(async () => {
  agent = await connectAgent(running);
});

const settingsFile = () => path.join(running.dataDir, 'settings.json');
const onDisk = async () =>
  JSON.parse(await fs.readFile(settingsFile(), 'utf8')) as {
    policies: { servers: Record<string, string>; tools: Record<string, string>; rules: unknown[] };
  };

async function names(): Promise<string[]> {
  const result = await toolCall(agent, 'mcp__memory__read_graph', {});
  expect(result.isError, text(result)).toBeFalsy();
  return (JSON.parse(text(result)) as { entities: Array<{ name: string }> }).entities.map((e) => e.name);
}

async function policyChanges() {
  return (await running.host.api.queryActivity({ decision: 'policy-change', limit: 100 })).entries;
}

/** Expects `call` to fail with `code` and to leave the settings file byte for byte as it was. */
async function refusedUntouched(call: () => Promise<unknown>, code: string, message: RegExp): Promise<void> {
  const before = await fs.readFile(settingsFile(), 'utf8');
  const changes = (await policyChanges()).length;
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(ToolbridgeError.is(error), String(error)).toBe(true);
  expect((error as ToolbridgeError).code).toBe(code);
  expect((error as ToolbridgeError).message).toMatch(message);
  expect(await fs.readFile(settingsFile(), 'utf8')).toBe(before);
  expect(await policyChanges()).toHaveLength(changes);
}

describe('bad requests', () => {
  it('an unknown tool or server, a bad policy or rule id: a clear error, settings and audit untouched', async () => {
    const api = running.host.api;
    await refusedUntouched(
      () => api.setToolPolicy('mcp__memory__nope', 'deny'),
      'NOT_FOUND',
      /No tool "mcp__memory__nope"/,
    );
    await refusedUntouched(
      () => api.setToolPolicy('memory__create_entities', null),
      'NOT_FOUND',
      /List the tools/,
    );
    await refusedUntouched(
      () => api.setServerPolicy('nope', 'deny'),
      'NOT_FOUND',
      /No server "nope". Known servers: memory/,
    );
    await refusedUntouched(
      () => api.setToolPolicy(CREATE, 'never' as never),
      'INVALID_ARGUMENT',
      /must be "allow", "ask" or "deny", or null to inherit; got "never"/,
    );
    await refusedUntouched(
      () => api.setServerPolicy('memory', undefined as never),
      'INVALID_ARGUMENT',
      /or null to inherit/,
    );
    await refusedUntouched(() => api.removePolicyRule('0123456789abcdef'), 'NOT_FOUND', /No saved rule/);
    await refusedUntouched(() => api.removePolicyRule(42 as never), 'INVALID_ARGUMENT', /id of a rule/);
  });
});

describe('a tool policy', () => {
  it('deny takes effect on the next call: the agent is DENIED and the server never sees it', async () => {
    const view = await running.host.api.setToolPolicy(CREATE, 'deny');
    expect(view.policy).toEqual({
      setting: 'deny',
      effective: 'deny',
      source: 'tool',
      reason: 'Set for this tool.',
    });
    expect((await onDisk()).policies.tools[CREATE]).toBe('deny');

    const result = await toolCall(agent, CREATE, entities('denied'));
    expect(result.isError).toBe(true);
    expect(errorOf(result).code).toBe('DENIED');
    expect(await names()).toEqual([]);
    expect(await policyChanges()).toEqual([
      expect.objectContaining({
        agentId: UI_ACTOR_ID,
        decidedBy: 'user',
        serverId: 'memory',
        toolName: CREATE,
        arguments: { setting: 'tool', policy: 'deny', previous: 'inherit' },
        message: `Set the policy of ${CREATE} to deny (was inherit).`,
      }),
    ]);
  });

  it('allow runs it; clearing it inherits the default again, which asks', async () => {
    await running.host.api.setToolPolicy(CREATE, 'allow');
    const allowed = await toolCall(agent, CREATE, entities('allowed'));
    expect(allowed.isError, text(allowed)).toBeFalsy();
    expect(await names()).toEqual(['allowed']);

    const cleared = await running.host.api.setToolPolicy(CREATE, null);
    expect(cleared.policy).toEqual({ effective: 'ask', source: 'default', reason: 'The default policy.' });
    expect((await onDisk()).policies.tools).toEqual({ mcp__memory__read_graph: 'allow' });
    const cards = approvalCards(running.host);
    const pending = toolCall(agent, CREATE, entities('asked'));
    const [card] = await cards;
    expect(card?.toolName).toBe(CREATE);
    await running.host.api.resolveCard(card!.id, { action: 'deny' });
    expect(errorOf(await pending).code).toBe('DENIED');
    expect(await names()).toEqual(['allowed']);
    expect((await policyChanges()).map((entry) => entry.arguments)).toEqual([
      { setting: 'tool', policy: 'inherit', previous: 'allow' },
      { setting: 'tool', policy: 'allow', previous: 'deny' },
      { setting: 'tool', policy: 'deny', previous: 'inherit' },
    ]);
  });

  it('setting the same value again writes and audits nothing', async () => {
    const before = await fs.readFile(settingsFile(), 'utf8');
    const changes = (await policyChanges()).length;
    await running.host.api.setToolPolicy(CREATE, null);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(before);
    expect(await policyChanges()).toHaveLength(changes);
  });
});

describe('a server policy', () => {
  it('applies to its tools without their own setting, at once, and the tool views say so', async () => {
    const server = await running.host.api.setServerPolicy('memory', 'deny');
    expect(server.policy).toBe('deny');
    expect((await onDisk()).policies.servers).toEqual({ memory: 'deny' });
    expect(errorOf(await toolCall(agent, SEARCH, { query: 'x' })).code).toBe('DENIED');
    // read_graph keeps its own allow: a tool setting wins over its server's.
    expect(await names()).toEqual(['allowed']);
    const tools = await running.host.api.listTools('memory');
    expect(tools.find((tool) => tool.name === SEARCH)?.policy).toMatchObject({
      effective: 'deny',
      source: 'server',
      reason: 'Set for its server "memory".',
    });
    expect(tools.find((tool) => tool.name === 'mcp__memory__read_graph')?.policy.source).toBe('tool');

    const cleared = await running.host.api.setServerPolicy('memory', null);
    expect(cleared.policy).toBeUndefined();
    expect((await running.host.api.listServers())[0]?.policy).toBeUndefined();
    expect((await onDisk()).policies.servers).toEqual({});
    expect((await policyChanges()).slice(0, 2).map((entry) => [entry.toolName, entry.arguments])).toEqual([
      ['', { setting: 'server', policy: 'inherit', previous: 'deny' }],
      ['', { setting: 'server', policy: 'deny', previous: 'inherit' }],
    ]);
  });

  it('concurrent changes all land in one valid file, with no temporary file left behind', async () => {
    const tools = (await running.host.api.listTools('memory')).map((tool) => tool.name);
    const targets = tools.filter((name) => name !== 'mcp__memory__read_graph');
    await Promise.all([
      ...targets.map((name) => running.host.api.setToolPolicy(name, 'ask')),
      running.host.api.setServerPolicy('memory', 'allow'),
    ]);
    const saved = await onDisk();
    for (const name of targets) expect(saved.policies.tools[name]).toBe('ask');
    expect(saved.policies.servers).toEqual({ memory: 'allow' });
    expect((await fs.readdir(running.dataDir)).filter((file) => file.includes('.tmp'))).toEqual([]);
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o600);
    // Put things back for the next tests.
    await Promise.all([
      ...targets.map((name) => running.host.api.setToolPolicy(name, null)),
      running.host.api.setServerPolicy('memory', null),
    ]);
  });
});

describe('saved rules', () => {
  it('"Always allow" on a card is listed with when and why; removing it asks again on the next call', async () => {
    const api = running.host.api;
    expect(await api.listPolicyRules()).toEqual([]);
    const cards = approvalCards(running.host);
    const first = toolCall(agent, CREATE, entities('always'));
    const [card] = await cards;
    const beforeSave = Date.now();
    await api.resolveCard(card!.id, { action: 'always' });
    expect((await first).isError).toBeFalsy();
    expect((await toolCall(agent, CREATE, entities('no card'))).isError).toBeFalsy();

    const rules = await api.listPolicyRules();
    const listed = Date.now();
    expect(rules).toEqual([
      expect.objectContaining({
        serverId: 'memory',
        toolName: 'create_entities',
        name: CREATE,
        policy: 'allow',
        kind: 'always-allow',
        savedFrom: 'card',
        definition: 'current',
        description: expect.stringMatching(
          /^Always allow, saved from an approval card on \d{4}-\d\d-\d\d\. It matches the tool's current definition\.$/,
        ),
      }),
    ]);
    // Saved once the card was answered and before it was listed, however slow the machine.
    const savedAt = Date.parse(rules[0]!.savedAt!);
    expect(savedAt).toBeGreaterThanOrEqual(beforeSave);
    expect(savedAt).toBeLessThanOrEqual(listed);
    expect((await api.listTools('memory')).find((tool) => tool.name === CREATE)?.policy.source).toBe(
      'always-allow',
    );

    expect(await api.removePolicyRule(rules[0]!.id)).toEqual([]);
    expect((await onDisk()).policies.rules).toEqual([]);
    const [removal] = await policyChanges();
    expect(removal).toMatchObject({
      decidedBy: 'user',
      agentId: UI_ACTOR_ID,
      toolName: CREATE,
      arguments: {
        setting: 'rule',
        removed: { serverId: 'memory', toolName: 'create_entities', policy: 'allow' },
      },
      message: expect.stringContaining('Removed a saved rule: Always allow, saved from an approval card'),
    });

    // The rule also held in the gate's memory for this session; it must be gone there too.
    const again = approvalCards(running.host);
    const pending = toolCall(agent, CREATE, entities('asked again'));
    const asked = await Promise.race([again.then(([card]) => card), pending.then(() => undefined)]);
    expect(asked, 'the call ran without a card').toMatchObject({ toolName: CREATE });
    await api.resolveCard(asked!.id, { action: 'deny' });
    expect(errorOf(await pending).code).toBe('DENIED');
    expect(await names()).toEqual(['allowed', 'always', 'no card']);
  });
});
