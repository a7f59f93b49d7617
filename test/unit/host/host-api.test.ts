import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UI_METHODS, type UiEventMap } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { InMemorySecretStore } from '../../../src/base/secret-store.js';
import { createHost, type Host } from '../../../src/host/host.js';
import type { HostApi } from '../../../src/host/host-api.js';
import { waitUntil } from '../../helpers/wait.js';
import { inProcessTransport } from './in-process-server.js';

let dataDir: string;
let host: Host;
let serverCalls: string[];

async function start(settings: Record<string, unknown> = {}, policyOverride?: 'allow' | 'ask' | 'deny') {
  await fs.writeFile(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({
      version: 1,
      servers: [{ id: 'local', transport: 'stdio', command: 'unused-in-process', enabled: true }],
      ...settings,
    }),
    { mode: 0o600 },
  );
  host = await createHost({
    dataDir,
    port: 0,
    secretStore: new InMemorySecretStore(),
    ...(policyOverride === undefined ? {} : { policyOverride }),
    serverOptions: { createTransport: () => inProcessTransport(serverCalls) },
    log: () => undefined,
  });
  await host.ready;
}

function events<E extends keyof UiEventMap>(event: E): UiEventMap[E][] {
  const seen: UiEventMap[E][] = [];
  host.api.on(event, (payload) => seen.push(payload));
  return seen;
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ToolbridgeError.is(error), String(error)).toBe(true);
  expect((error as ToolbridgeError).code).toBe(code);
  return (error as Error).message;
}

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-api-'));
  serverCalls = [];
});

afterEach(async () => {
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('HostApi', () => {
  it("implements exactly UI_METHODS, plus on() and the transports' attachUi() and redactText()", async () => {
    await start({}, 'allow');
    // The domain slices are spread into one object: its own keys are the whole API.
    const own = Object.keys(host.api);
    // attachUi (a page or window is open) and redactText (error replies, issue #12) are for the
    // transports, never forwarded by name: not in UI_METHODS.
    for (const helper of ['attachUi', 'redactText'])
      expect((UI_METHODS as readonly string[]).includes(helper)).toBe(false);
    expect(own.sort()).toEqual([...UI_METHODS, 'on', 'attachUi', 'redactText'].sort());
    for (const method of UI_METHODS) expect(typeof host.api[method]).toBe('function');
  });

  it('lists servers and their tools, all deferred behind the bridge', async () => {
    await start({}, 'allow');
    const [server] = await host.api.listServers();
    expect(server).toMatchObject({ id: 'local', status: 'connected', toolCount: 3, enabled: true });
    const tools = await host.api.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'mcp__local__echo',
      'mcp__local__add',
      'mcp__local__weather',
    ]);
    expect(tools.every((tool) => tool.deferred && tool.enabled && !tool.pinned)).toBe(true);
    expect(await host.api.listTools('other')).toEqual([]);
  });

  it('pins a tool: listed directly, saved in settings, and the catalog change is announced', async () => {
    await start({}, 'allow');
    const changes = events('catalogChanged');
    const view = await host.api.setToolPinned('mcp__local__add', true);
    expect(view).toMatchObject({ pinned: true, deferred: false });
    const tier = await host.api.getTier({});
    expect(tier.visibleToolNames).toEqual([
      'mcp__local__add',
      'manage_connections',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.tools.mcp__local__add).toEqual({ pinned: true });
    await waitUntil(() => changes.length > 0, 'a catalog change', 5_000);
    expect(changes.at(-1)).toEqual({ toolCount: 3 });
  });

  it('a disabled tool is neither found nor called', async () => {
    await start({}, 'allow');
    await host.api.setToolEnabled('mcp__local__weather', false);
    const { response } = await host.api.search(['weather forecast city']);
    expect(JSON.stringify(response)).not.toContain('mcp__local__weather');
    const result = await host.api.call('mcp__local__weather', { city: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(serverCalls).toEqual([]);
  });

  it('search gives the exact tool_search answer plus the engine explanation', async () => {
    await start({}, 'allow');
    const { response, explanations } = await host.api.search(['echo message'], 2);
    expect(response).toMatchObject({ queries: ['echo message'], total_available: 3 });
    const results = response.results as Array<{ matches: string[] }>;
    expect(results[0]!.matches[0]).toBe('mcp__local__echo');
    const agentView = host.surfaceFor('default');
    const viaAgent = await agentView.callTool(
      'tool_search',
      { queries: ['echo message'], limit: 2 },
      { agentId: 'default' },
    );
    expect(JSON.parse(text(viaAgent))).toEqual(response);
    expect(explanations).toHaveLength(1);
    expect(explanations[0]!.matches[0]).toMatchObject({
      name: 'mcp__local__echo',
      score: expect.any(Number),
    });
    expect(explanations[0]!.answerableTerms.length).toBeGreaterThan(0);
  });

  it('describe gives the full schema', async () => {
    await start({}, 'allow');
    const described = await host.api.describe(['mcp__local__add']);
    expect(described).toMatchObject({ tools: { mcp__local__add: { parameters: { required: ['a', 'b'] } } } });
  });

  it('the playground call goes through approvals: a card under ask, run once approved, audited', async () => {
    await start({ policies: { default: 'ask', servers: {}, tools: {} } });
    const opened = events('cardOpened');
    const activity = events('activityAppended');
    const call = host.api.call('mcp__local__add', { a: 2, b: 3 });
    await waitUntil(() => opened.length === 1, 'the approval card', 5_000);
    expect(opened[0]).toMatchObject({ kind: 'approval', agentId: 'playground', toolName: 'mcp__local__add' });
    expect(await host.api.listCards()).toHaveLength(1);
    expect(serverCalls).toEqual([]);
    await host.api.resolveCard(opened[0]!.id, { action: 'approve' });
    expect(text(await call)).toBe('5');
    expect(serverCalls).toEqual(['add']);
    await waitUntil(() => activity.length === 1, 'the activity entry', 5_000);
    expect(activity[0]).toMatchObject({ toolName: 'mcp__local__add', decision: 'allow', decidedBy: 'user' });
    const page = await host.api.queryActivity({});
    expect(page.entries.map((entry) => entry.toolName)).toEqual(['mcp__local__add']);
    expect(await host.api.exportActivity('jsonl')).toContain('mcp__local__add');
  });

  it('"always allow" is saved in the settings and skips the card from then on', async () => {
    await start({ policies: { default: 'ask', servers: {}, tools: {} } });
    const opened = events('cardOpened');
    const first = host.api.call('mcp__local__echo', { message: 'one' });
    await waitUntil(() => opened.length === 1, 'the approval card', 5_000);
    await host.api.resolveCard(opened[0]!.id, { action: 'always' });
    expect(text(await first)).toBe('Echo: one');
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.policies.rules).toEqual([
      expect.objectContaining({
        serverId: 'local',
        toolName: 'echo',
        policy: 'allow',
        definitionHash: expect.any(String),
      }),
    ]);
    expect(text(await host.api.call('mcp__local__echo', { message: 'two' }))).toBe('Echo: two');
    expect(opened).toHaveLength(1);
  });

  it('deny policy refuses without reaching the server', async () => {
    await start({}, 'deny');
    const result = await host.api.call('mcp__local__echo', { message: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/policy/);
    expect(serverCalls).toEqual([]);
  });

  it('getTier sizes the listing by context length', async () => {
    await start({}, 'allow');
    const small = await host.api.getTier({ contextLengthTokens: 4_000 });
    const large = await host.api.getTier({ contextLengthTokens: 200_000 });
    expect(small.budgetTokens).toBe(200);
    expect(large.budgetTokens).toBe(4_000);
    expect(large.deferredCount).toBe(3);
    expect(large.toolSearchDescription).toContain('mcp__local__echo');
    await rejectsWith(host.api.getTier({ agentId: 'nobody' }), 'NOT_FOUND');
  });

  it('settings: a run-only policy shows until the user picks one; bad patches change nothing', async () => {
    await start({}, 'allow');
    const file = path.join(dataDir, 'settings.json');
    expect((await host.api.getSettings()).defaultPolicy).toBe('allow');
    expect(JSON.parse(await fs.readFile(file, 'utf8')).policies.default).toBe('ask');
    const changed = events('settingsChanged');
    const next = await host.api.updateSettings({ defaultPolicy: 'deny', callTimeoutMs: 5_000 });
    expect(next).toMatchObject({
      defaultPolicy: 'deny',
      callTimeoutMs: 5_000,
      dataDir,
      secretStoreKind: 'memory',
    });
    expect(changed).toHaveLength(1);
    const before = await fs.readFile(file, 'utf8');
    await rejectsWith(host.api.updateSettings({ callTimeoutMs: -1 }), 'INVALID_ARGUMENT');
    await rejectsWith(
      host.api.updateSettings({ dataDir: '/elsewhere' } as unknown as Parameters<
        HostApi['updateSettings']
      >[0]),
      'INVALID_ARGUMENT',
    );
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('agents: create, list, update, connection info, revoke', async () => {
    await start({}, 'allow');
    const changed = events('agentsChanged');
    const agent = await host.api.createAgent('Cursor', 32_000);
    expect((await host.api.listAgents()).map((item) => item.id)).toContain(agent.id);
    expect(await host.api.updateAgent(agent.id, { contextLengthTokens: 64_000 })).toMatchObject({
      contextLengthTokens: 64_000,
    });
    const info = await host.api.getAgentConnection(agent.id);
    expect(info.endpointUrl).toBe(host.endpointUrl);
    expect(Object.keys(info.configs).sort()).toEqual(['claude-desktop', 'cursor', 'vscode']);
    await host.api.revokeAgent(agent.id);
    expect((await host.api.listAgents()).map((item) => item.id)).not.toContain(agent.id);
    await rejectsWith(host.api.getAgentConnection(agent.id), 'NOT_FOUND');
    expect(changed.length).toBe(3);
  });

  it('servers: disable, enable, restart and remove, with events', async () => {
    await start({}, 'allow');
    const statuses = events('serverStatusChanged');
    const removed = events('serverRemoved');
    expect((await host.api.setServerEnabled('local', false)).status).toBe('disabled');
    expect((await host.api.listTools()).length).toBe(0);
    expect((await host.api.setServerEnabled('local', true)).status).toBe('connected');
    expect((await host.api.restartServer('local')).status).toBe('connected');
    expect(statuses.some((view) => view.status === 'disabled')).toBe(true);
    await host.api.removeServer('local');
    expect(await host.api.listServers()).toEqual([]);
    expect(removed).toEqual([{ id: 'local' }]);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8')).servers).toEqual([]);
  });

  it('imports a client config all or nothing, secrets kept out of the settings file', async () => {
    await start({}, 'allow');
    const file = path.join(dataDir, 'settings.json');
    const before = await fs.readFile(file, 'utf8');
    for (const bad of [
      '{not json',
      '[]',
      '{"mcpServers": {"broken": {"args": ["no command"]}, "ftp": {"url": "ftp://nope"}}}',
      '{"servers": {}}',
    ]) {
      const message = await rejectsWith(host.api.reviewImport(bad), 'INVALID_ARGUMENT');
      expect(message.length).toBeGreaterThan(20);
      expect(await fs.readFile(file, 'utf8')).toBe(before);
      expect(host.servers.ids()).toEqual(['local']);
    }
    const review = await host.api.reviewImport(
      '{"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh"], "env": {"GITHUB_TOKEN": "ghp_canary123456"}}}}',
    );
    // issue #12: a review changes and starts nothing, and holds no secret value.
    expect(review.servers).toEqual([
      {
        id: 'github',
        transport: 'stdio',
        enabled: true,
        command: 'npx',
        args: ['-y', 'gh'],
        envNames: ['GITHUB_TOKEN'],
        callouts: [],
      },
    ]);
    expect(JSON.stringify(review)).not.toContain('ghp_canary123456');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(host.servers.ids()).toEqual(['local']);
    const added = await host.api.confirmImport(review.id);
    expect(added.map((view) => view.id)).toEqual(['github']);
    expect(added[0]!.status).toBe('connected');
    expect(JSON.stringify(added)).not.toContain('ghp_canary123456');
    expect(await fs.readFile(file, 'utf8')).not.toContain('ghp_canary123456');
    expect(host.servers.ids()).toEqual(['local', 'github']);
    // A review is spent once confirmed; an unknown id is refused.
    await rejectsWith(host.api.confirmImport(review.id), 'NOT_FOUND');
    await rejectsWith(host.api.confirmImport('nope'), 'NOT_FOUND');
  });

  it('says clearly what does not exist', async () => {
    await start({}, 'allow');
    await rejectsWith(host.api.removeServer('nope'), 'NOT_FOUND');
    await rejectsWith(host.api.restartServer('nope'), 'NOT_FOUND');
    await rejectsWith(host.api.setToolPinned('mcp__local__nope', true), 'NOT_FOUND');
    await rejectsWith(host.api.call('mcp__local__nope', {}), 'NOT_FOUND');
    await rejectsWith(host.api.resolveCard('no-such-card', { action: 'approve' }), 'NOT_FOUND');
    expect(() => host.api.on('noSuchEvent' as keyof UiEventMap, () => undefined)).toThrow(/Unknown UI event/);
  });
});
