/**
 * Connectors through the whole host: settings name the fixture gateway (real loopback HTTP), the
 * token sits in the secret store, and the agent sees manage_connections, connector search hits,
 * connector calls through the approval gate, and connection cards driven from the UI API.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCardView, UiEventMap } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, InMemorySecretStore } from '../../../src/base/secret-store.js';
import type { Host } from '../../../src/host/host.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';
import { recordEvents, startHost } from '../../helpers/host-kit.js';
import { waitUntil } from '../../helpers/wait.js';
import { inProcessTransport } from './in-process-server.js';

let dataDir: string;
let gateway: FixtureGateway;
let host: Host;
const opened: string[] = [];

async function start(policy: 'allow' | 'ask' | 'deny', options: { gateway?: boolean } = {}) {
  const secrets = new InMemorySecretStore();
  await secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  host = await startHost(
    dataDir,
    {
      servers: [{ id: 'local', transport: 'stdio', command: 'unused-in-process', enabled: true }],
      ...(options.gateway === false ? {} : { connectors: { gatewayUrl: gateway.url, enabled: true } }),
    },
    {
      secretStore: secrets,
      policyOverride: policy,
      serverOptions: { createTransport: () => inProcessTransport() },
      openUrl: (url) => opened.push(url),
    },
  );
}

function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return host.surfaceFor('default').callTool(name, args, { agentId: 'default' });
}

function json(result: CallToolResult): Record<string, unknown> {
  return JSON.parse((result.content[0] as { text: string }).text);
}

const events = <E extends keyof UiEventMap>(event: E) => recordEvents(host, event);

/** manage_connections install of one catalog server, as the agent sends it. */
const install = (name: string) =>
  call('manage_connections', { action: 'install', connectors: [{ name, mcp: true }] });

/** With a UI open: installs `name`, answers its card's one target with `answer`, gives the agent's results. */
async function installFromCard(name: string, answer: 'connect' | 'skip'): Promise<unknown> {
  host.api.attachUi();
  const cardsOpened = events('cardOpened');
  const pending = install(name);
  await waitUntil(() => cardsOpened.length === 1, 'the connection card');
  await host.api.resolveConnectionTarget(cardsOpened[0]!.id, name, answer);
  return json(await pending).results;
}

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-conn-'));
  gateway = await startFixtureGateway({ connected: ['github'] });
  opened.length = 0;
});

afterEach(async () => {
  await host?.close();
  await gateway.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('connectors in the host', () => {
  it('lists manage_connections and finds and runs connector tools through the gate', async () => {
    await start('allow');
    const names = host
      .surfaceFor('default')
      .listTools()
      .map((tool) => tool.name);
    expect(names).toEqual(['manage_connections', 'tool_search', 'tool_describe', 'tool_call']);
    const search = json(await call('tool_search', { queries: ['github create issue'] }));
    const matches = (search.results as Array<{ matches: string[] }>)[0]!.matches;
    expect(matches).toContain('connectors__github__CREATE_ISSUE');

    const activity = events('activityAppended');
    const result = await call('tool_call', {
      calls: [{ name: 'connectors__github__CREATE_ISSUE', arguments: { owner: 'o', repo: 'r', title: 't' } }],
    });
    expect(result.isError).toBeFalsy();
    expect(gateway.executions.map((run) => run.slug)).toEqual(['GITHUB_CREATE_ISSUE']);
    await waitUntil(() => activity.length === 1, 'the activity entry');
    expect(activity[0]).toMatchObject({ toolName: 'connectors__github__CREATE_ISSUE', serverId: 'github' });
  });

  it('a deny policy stops connector entries before the gateway', async () => {
    await start('deny');
    const result = await call('tool_call', {
      calls: [{ name: 'connectors__github__CREATE_ISSUE', arguments: { owner: 'o', repo: 'r', title: 't' } }],
    });
    expect(JSON.stringify(result)).toMatch(/DENIED|policy/);
    expect(gateway.executions).toEqual([]);
  });

  it('connect opens a connection card; the person connects one target and skips the other', async () => {
    await start('allow');
    // The test plays the person at an open UI.
    host.api.attachUi();
    const cardsOpened = events('cardOpened');
    const cardsResolved = events('cardResolved');
    const pending = call('manage_connections', { action: 'connect', connectors: ['notion', 'slack'] });
    await waitUntil(() => cardsOpened.length === 1, 'the connection card');
    const card = cardsOpened[0] as ConnectionCardView;
    expect(card).toMatchObject({ kind: 'connection', agentId: 'default' });
    expect((await host.api.listCards()).map((listed) => listed.id)).toEqual([card.id]);

    const notion = card.targets.find((row) => row.name === 'notion')!;
    expect(notion.connectUrl).toMatch(/^http/);
    await host.api.resolveConnectionTarget(card.id, 'notion', 'connect');
    expect(opened).toEqual([notion.connectUrl]);
    await allowInBrowser(notion.connectUrl!);
    await host.api.resolveConnectionTarget(card.id, 'slack', 'skip');

    const answer = json(await pending);
    expect(answer.results).toEqual([
      { connector: 'notion', status: 'connected' },
      { connector: 'slack', status: 'skipped' },
    ]);
    expect(JSON.stringify(answer)).not.toContain('http');
    await waitUntil(() => cardsResolved.length === 1, 'the card to close');
    expect(cardsResolved[0]).toEqual({ id: card.id, outcome: 'closed' });
    expect(await host.api.listCards()).toEqual([]);
    await expect(host.api.resolveConnectionTarget(card.id, 'slack', 'skip')).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'NOT_FOUND'),
    );
  });

  it('stop on a connection card skips every open target', async () => {
    await start('allow');
    host.api.attachUi();
    const cardsOpened = events('cardOpened');
    const pending = call('manage_connections', { action: 'connect', connectors: ['notion'] });
    await waitUntil(() => cardsOpened.length === 1, 'the connection card');
    await expect(host.api.resolveCard(cardsOpened[0]!.id, { action: 'approve' })).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'INVALID_ARGUMENT'),
    );
    await host.api.resolveCard(cardsOpened[0]!.id, { action: 'stop' });
    expect(json(await pending).results).toEqual([{ connector: 'notion', status: 'skipped' }]);
  });

  it('with no UI open, connect answers at once with the sign-in links and no card', async () => {
    await start('allow');
    const cardsOpened = events('cardOpened');
    const ui = host.api.attachUi();
    ui.dispose();
    const answer = json(await call('manage_connections', { action: 'connect', connectors: ['notion'] }));
    expect(answer.results).toEqual([
      expect.objectContaining({
        connector: 'notion',
        status: 'initiated',
        connect_url: expect.stringMatching(/^http/),
      }),
    ]);
    expect(cardsOpened).toEqual([]);
    const entry = json(await call('tool_call', { name: 'connectors__notion__GET_SELF', arguments: {} }));
    expect(JSON.stringify(entry)).toContain('CONNECTION_REQUIRED');
    expect(JSON.stringify(entry)).not.toContain('connect_card_available');
  });

  it('install adds a catalog server once the person approves the exact command on a card', async () => {
    await start('allow');
    host.api.attachUi();
    const cardsOpened = events('cardOpened');
    const pending = install('memory');
    await waitUntil(() => cardsOpened.length === 1, 'the install card');
    const card = cardsOpened[0] as ConnectionCardView;
    const row = card.targets[0]!;
    expect(row).toMatchObject({ name: 'memory', kind: 'mcp', state: 'pending' });
    expect(row.message).toContain('server-memory/dist/index.js');
    expect(row.message).toContain('MEMORY_FILE_PATH');
    expect((await host.api.listServers()).map((server) => server.id)).not.toContain('memory');
    await host.api.resolveConnectionTarget(card.id, 'memory', 'connect');
    expect(json(await pending).results).toEqual([
      expect.objectContaining({ server: 'memory', status: 'installed' }),
    ]);
    expect((await host.api.listServers()).map((server) => server.id)).toContain('memory');
  });

  it('install is refused without a UI, skipped from the card, and unknown names are listed', async () => {
    await start('allow');
    const headless = json(await install('memory'));
    expect(headless.results).toEqual([
      expect.objectContaining({
        server: 'memory',
        status: 'failed',
        message: expect.stringContaining('approve'),
      }),
    ]);
    expect(await installFromCard('everything', 'skip')).toEqual([
      expect.objectContaining({ server: 'everything', status: 'skipped' }),
    ]);
    const unknown = json(await install('nope'));
    expect(JSON.stringify(unknown)).toContain('everything, filesystem, memory');
    expect((await host.api.listServers()).map((server) => server.id)).toEqual(['local']);
  });

  it('refuses mixed sides, unknown target keys and aliases on MCP targets', async () => {
    await start('allow');
    const error = async (args: Record<string, unknown>) => {
      const result = await call('manage_connections', args);
      expect(result.isError).toBe(true);
      return String(json(result).error);
    };
    expect(await error({ action: 'install', connectors: ['memory'] })).toContain('"mcp": true');
    expect(await error({ action: 'connect', connectors: [{ name: 'memory', mcp: true }] })).toContain(
      'install, enable or authorize',
    );
    expect(
      await error({ action: 'connect', connectors: ['github', { name: 'memory', mcp: true }] }),
    ).toContain('separately');
    expect(
      await error({ action: 'install', connectors: [{ name: 'x', mcp: true, command: 'sh' }] }),
    ).toContain('never from the call');
    expect(await error({ action: 'install', connectors: [{ name: 'x', mcp: true, alias: 'a' }] })).toContain(
      'no alias',
    );
    expect(
      await error({ action: 'connect', connectors: [{ name: 'github', alias: 'Bad Alias' }] }),
    ).toContain('lower-case');
  });

  it('without a gateway: manage_connections is listed, MCP actions work, connector names are out of scope', async () => {
    await start('allow', { gateway: false });
    expect(
      host
        .surfaceFor('default')
        .listTools()
        .map((tool) => tool.name),
    ).toEqual(['manage_connections', 'tool_search', 'tool_describe', 'tool_call']);
    const status = await call('manage_connections', { action: 'connect', connectors: ['github'] });
    expect(json(status)).toMatchObject({ status: 'not_set_up', hint: expect.stringContaining('Settings') });
    const search = json(await call('tool_search', { queries: ['github create issue'] }));
    expect(JSON.stringify(search)).not.toContain('connectors');
    const entry = await call('tool_call', { name: 'connectors__github__CREATE_ISSUE', arguments: {} });
    expect(JSON.stringify(entry)).toContain('Connectors are not available in this session');
    expect(gateway.requests).toEqual([]);

    expect(await installFromCard('memory', 'connect')).toEqual([
      expect.objectContaining({ server: 'memory', status: 'installed' }),
    ]);
  });

  it('issue #16: Tiers counts the connector tools the gateway offers, none without a gateway', async () => {
    await start('allow');
    const offered = [...gateway.tools.values()].length;
    const tier = await host.api.getTier({ contextLengthTokens: 200_000 });
    expect(tier.connectorTools).toEqual({ count: offered, apps: 3, uncountedApps: 0 });
    expect(offered).toBeGreaterThan(20);
    await host.api.updateSettings({ connectors: { enabled: false } });
    expect(await host.api.getTier({ contextLengthTokens: 200_000 })).not.toHaveProperty('connectorTools');
  });

  it('issue #16: a gateway older than toolCount leaves its apps uncounted; a failing one says why', async () => {
    await gateway.close();
    gateway = await startFixtureGateway({ toolCounts: false });
    await start('allow');
    expect((await host.api.getTier({})).connectorTools).toEqual({ count: 0, apps: 3, uncountedApps: 3 });
    await host.secrets.delete(CONNECTOR_GATEWAY_TOKEN_KEY);
    const signedOut = (await host.api.getTier({ contextLengthTokens: 100_000 })).connectorTools;
    expect(signedOut).toMatchObject({ count: 0, apps: 0 });
    expect(signedOut?.problem).toMatch(/token|sign/i);
  });

  it('Settings: the gateway is switched and signed in/out from the UI API; the token is never read back', async () => {
    await start('allow');
    const names = () =>
      host
        .surfaceFor('default')
        .listTools()
        .map((tool) => tool.name);
    const searchDescription = () =>
      host
        .surfaceFor('default')
        .listTools()
        .find((tool) => tool.name === 'tool_search')?.description;
    const settingsSeen = events('settingsChanged');
    expect(names()).toContain('manage_connections');
    expect((await host.api.getSettings()).connectors).toEqual({
      gatewayUrl: gateway.url,
      enabled: true,
      signedIn: true,
    });

    let view = await host.api.signOutConnectorGateway();
    expect(view.connectors.signedIn).toBe(false);
    expect(await host.secrets.get(CONNECTOR_GATEWAY_TOKEN_KEY)).toBeUndefined();
    const signedOut = json(await call('manage_connections', { action: 'status' }));
    expect(signedOut.reason).toBe('not_set_up');

    view = await host.api.signInConnectorGateway(` ${gateway.token} `);
    expect(view.connectors.signedIn).toBe(true);
    expect(JSON.stringify(view)).not.toContain(gateway.token);
    expect(json(await call('manage_connections', { action: 'status' })).connectors).toBeDefined();
    await expect(host.api.signInConnectorGateway('  ')).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'INVALID_ARGUMENT'),
    );

    view = await host.api.updateSettings({ connectors: { enabled: false } });
    expect(view.connectors).toEqual({ gatewayUrl: gateway.url, enabled: false, signedIn: true });
    // manage_connections stays (its MCP actions need no gateway); connector tools leave scope.
    expect(names()).toEqual(['manage_connections', 'tool_search', 'tool_describe', 'tool_call']);
    expect(searchDescription()).not.toContain('connectors__');
    expect(json(await call('manage_connections', {})).status).toBe('not_set_up');
    view = await host.api.updateSettings({ connectors: { enabled: true, gatewayUrl: null } });
    expect(view.connectors.gatewayUrl).toBeUndefined();
    expect(searchDescription()).not.toContain('connectors__');
    await host.api.updateSettings({ connectors: { gatewayUrl: gateway.url } });
    expect(searchDescription()).toContain('connectors__');
    await expect(host.api.updateSettings({ connectors: { gatewayUrl: 'ftp://x' } })).rejects.toThrow();
    await waitUntil(() => settingsSeen.length >= 5, 'five settings changes');
    expect(JSON.stringify(settingsSeen)).not.toContain(gateway.token);
  });
});
