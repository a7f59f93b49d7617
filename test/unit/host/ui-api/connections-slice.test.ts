/**
 * The Connections view's UI methods on a real host against the fixture connector gateway (real
 * loopback HTTP): apps and accounts, linking through the gateway's Allow page, renaming, and
 * per-tool policies the gate applies to an agent's tool_call.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../../src/base/errors.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, InMemorySecretStore } from '../../../../src/base/secret-store.js';
import type { Host } from '../../../../src/host/host.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../../fixtures/gateway/fixture-gateway.js';
import { recordEvents, startHost } from '../../../helpers/host-kit.js';
import { waitUntil } from '../../../helpers/wait.js';

let dataDir: string;
let gateway: FixtureGateway;
let host: Host | undefined;

async function start(
  options: { token?: boolean; url?: boolean; enabled?: boolean; policy?: 'ask' | 'allow' } = {},
) {
  const secrets = new InMemorySecretStore();
  if (options.token !== false) await secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  host = await startHost(
    dataDir,
    {
      servers: [],
      ...(options.url === false
        ? {}
        : { connectors: { gatewayUrl: gateway.url, enabled: options.enabled !== false } }),
    },
    { secretStore: secrets, policyOverride: options.policy ?? 'allow' },
  );
  return host.api;
}

function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return host!.surfaceFor('default').callTool('tool_call', { name, arguments: args }, { agentId: 'default' });
}

async function rejection(promise: Promise<unknown>): Promise<ToolbridgeError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolbridgeError.is(error)) throw new Error(`expected a ToolbridgeError, got ${String(error)}`);
  return error;
}

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-connections-'));
  gateway = await startFixtureGateway({ connected: ['github'] });
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  await gateway.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('listConnections', () => {
  it('lists every app with its name, logo and accounts, the default first', async () => {
    const api = await start();
    const view = await api.listConnections();
    expect(view.state).toBe('ready');
    expect(view.apps.map((app) => app.connector)).toEqual(['github', 'notion', 'slack']);
    const github = view.apps[0]!;
    expect(github.app.title).toBe('GitHub');
    expect(github.app.logo?.path.length).toBeGreaterThan(10);
    expect(github.connected).toBe(true);
    expect(github.accounts).toEqual([
      expect.objectContaining({ alias: 'github-account', default: true, connected: true }),
    ]);
    expect(view.apps[1]).toMatchObject({ connected: false, accounts: [] });
  });

  it('says why there is no list instead of failing: no gateway, switched off, signed out, refused, unreachable', async () => {
    let api = await start({ url: false });
    expect(await api.listConnections()).toMatchObject({ state: 'not_configured', apps: [] });
    expect((await api.listConnections()).message).toContain('Settings → Connectors');
    await host!.close();
    api = await start({ enabled: false });
    expect((await api.listConnections()).state).toBe('disabled');
    await host!.close();
    api = await start({ token: false });
    expect((await api.listConnections()).state).toBe('signed_out');
    await host!.close();
    api = await start();
    gateway.setMode('401', { times: 1 });
    expect((await api.listConnections()).state).toBe('sign_in_expired');
    gateway.setMode('reset', { times: 2 });
    const down = await api.listConnections();
    expect(down.state).toBe('unreachable');
    expect(down.message).toContain('could not be reached');
    // Methods that need the gateway refuse with what to set up, never a crash.
    await host!.close();
    api = await start({ url: false });
    const refused = await rejection(api.connectApp('github'));
    expect(refused.code).toBe('SERVER_UNAVAILABLE');
    expect(refused.message).toContain('Settings → Connectors');
  });
});

describe('connectApp', () => {
  it('answers the gateway page; after Allow there the app is connected and the view is told', async () => {
    const api = await start();
    const changed = recordEvents(host!, 'connectionsChanged');
    const started = await api.connectApp('notion');
    expect(started.status).toBe('waiting');
    expect(started.connectUrl).toContain('/authorize?connection_id=');
    await allowInBrowser(started.connectUrl!);
    await waitUntil(
      () => changed.filter((event) => event.connector === 'notion').length >= 2,
      'notion linked',
    );
    const notion = (await api.listConnections()).apps.find((app) => app.connector === 'notion');
    expect(notion).toMatchObject({
      connected: true,
      accounts: [expect.objectContaining({ connected: true })],
    });
    // Already connected: nothing left to open.
    expect(await api.connectApp('notion')).toEqual({ status: 'connected' });
    // Reconnect starts a new link even so, and a new alias links a second account.
    expect((await api.connectApp('notion', { reconnect: true })).status).toBe('waiting');
    expect((await api.connectApp('github', { alias: 'work' })).status).toBe('waiting');
    expect(gateway.accounts('github').map((account) => account.alias)).toEqual(['github-account', 'work']);
  });

  it('a Connect in the view also runs a tool_call entry waiting on its card for that app', async () => {
    const api = await start();
    host!.api.attachUi();
    const opened = recordEvents(host!, 'cardOpened');
    const pending = call('connectors__slack__CHAT_POST_MESSAGE', { text: 'hi' });
    await waitUntil(() => opened.length === 1, 'the connection card');
    const started = await api.connectApp('slack');
    await allowInBrowser(started.connectUrl!);
    const result = await pending;
    expect(JSON.stringify(result.content)).toContain('SLACK_CHAT_POST_MESSAGE');
    expect(gateway.executions.map((run) => run.slug)).toEqual(['SLACK_CHAT_POST_MESSAGE']);
  });

  it('a Skip on a card tells the view, which then shows the link as skipped', async () => {
    const api = await start();
    host!.api.attachUi();
    const opened = recordEvents(host!, 'cardOpened');
    const changed = recordEvents(host!, 'connectionsChanged');
    const pending = call('connectors__notion__POST_SEARCH', { query: 'x' });
    await waitUntil(() => opened.length === 1, 'the connection card');
    await api.resolveConnectionTarget(opened[0]!.id, 'notion', 'skip');
    await pending;
    expect(changed.map((event) => event.connector)).toContain('notion');
    const notion = (await api.listConnections()).apps.find((app) => app.connector === 'notion');
    expect(notion?.accounts[0]).toMatchObject({ connected: false, connectionStatus: 'skipped' });
  });

  it('refuses a malformed app or alias with what to send', async () => {
    const api = await start();
    const app = await rejection(api.connectApp('Git Hub!'));
    expect(app.code).toBe('INVALID_ARGUMENT');
    expect(app.message).toContain('connector id');
    const alias = await rejection(api.connectApp('github', { alias: 'Work Account' }));
    expect(alias.code).toBe('INVALID_ARGUMENT');
    expect(alias.message).toContain('1–32 lower-case letters');
    expect(gateway.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});

describe('renameConnectorAccount', () => {
  it('renames an alias and lists the apps again; a refusal names the aliases there are', async () => {
    const api = await start();
    const view = await api.renameConnectorAccount('github', 'github-account', 'home');
    expect(view.apps[0]!.accounts.map((account) => account.alias)).toEqual(['home']);
    const unknown = await rejection(api.renameConnectorAccount('github', 'nope', 'x'));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.message).toBe('github has no account "nope"; its accounts: home.');
    const invalid = await rejection(api.renameConnectorAccount('github', 'home', 'Not Valid'));
    expect(invalid.message).toContain('The new alias "Not Valid" is not valid');
    const missing = await rejection(
      api.renameConnectorAccount('github', 'home', undefined as unknown as string),
    );
    expect(missing.message).toContain('Send the new alias');
  });
});

describe('connector tool policies', () => {
  it('lists an app’s tools with their policies; Deny is applied to an agent’s tool_call', async () => {
    const api = await start();
    const listed = await api.listConnectorTools('github');
    expect(listed.listed).toBe(true);
    const github = [...gateway.tools.values()].filter((tool) => tool.connector === 'github');
    expect(listed.tools.length).toBe(github.length);
    expect(github.length).toBeGreaterThan(100);
    const createIssue = listed.tools.find((tool) => tool.name === 'connectors__github__CREATE_ISSUE');
    expect(createIssue).toMatchObject({ toolName: 'CREATE_ISSUE', policy: { effective: 'allow' } });
    expect(createIssue?.policy.setting).toBeUndefined();

    const denied = await api.setConnectorToolPolicy('connectors__github__CREATE_ISSUE', 'deny');
    expect(denied.policy).toMatchObject({ setting: 'deny', effective: 'deny', source: 'tool' });
    const result = await call('connectors__github__CREATE_ISSUE', { title: 'x' });
    expect(JSON.stringify(result.content)).toContain('DENIED');
    expect(gateway.executions).toEqual([]);

    const cleared = await api.setConnectorToolPolicy('connectors__github__CREATE_ISSUE', null);
    expect(cleared.policy.setting).toBeUndefined();
    await call('connectors__github__CREATE_ISSUE', { title: 'x' });
    expect(gateway.executions.map((run) => run.slug)).toEqual(['GITHUB_CREATE_ISSUE']);
  });

  it('refuses names that are not exactly a connector tool’s', async () => {
    const api = await start();
    const bad = await rejection(api.setConnectorToolPolicy('mcp__files__read', 'deny'));
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(bad.message).toContain('connectors__<app>__<tool>');
    const misnamed = await rejection(
      api.setConnectorToolPolicy('connectors__github__GITHUB_CREATE_ISSUE', 'deny'),
    );
    expect(misnamed.code).toBe('INVALID_ARGUMENT');
    expect(misnamed.message).toContain('connectors__github__CREATE_ISSUE');
    const unknown = await rejection(api.setConnectorToolPolicy('connectors__github__NO_SUCH_TOOL', 'deny'));
    expect(unknown.code).toBe('NOT_FOUND');
    const policy = await rejection(
      api.setConnectorToolPolicy('connectors__github__CREATE_ISSUE', 'never' as 'deny'),
    );
    expect(policy.code).toBe('INVALID_ARGUMENT');
    expect(host!.settings.current.policies.tools).toEqual({});
  });

  it('says so when the gateway cannot list an app’s tools', async () => {
    const api = await start();
    gateway.setMode('404', { only: 'tools' });
    const listed = await api.listConnectorTools('github');
    expect(listed).toMatchObject({ listed: false, tools: [] });
    expect(listed.message).toContain('cannot list');
  });
});
