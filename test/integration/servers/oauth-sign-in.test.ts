import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/host.js';
import { secretRef } from '../../../src/servers/server-secrets.js';
import { SECRETS_FILE_NAME } from '../../../src/store/file-secret-store.js';
import {
  consentInBrowser,
  freeLoopbackPort,
  type OAuthFixture,
  startOAuthMcpServer,
} from '../../fixtures/oauth/oauth-mcp-server.js';
import { type OAuthHost, startOAuthHost } from '../../helpers/oauth-host.js';
import { waitUntil } from '../../helpers/wait.js';
import { writeRemoteServerSettings } from './helpers.js';

let remote: OAuthHost | undefined;
let fixture: OAuthFixture;
let dataDir: string;
let host: Host;
let agent: Client;
let now = Date.now();
const logs: string[] = [];
/** Every UI API answer, kept to check that no token is ever in one. */
const answers: unknown[] = [];

const status = () => host.servers.snapshotOf('remote').status;
const refreshes = () => fixture.tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token');

async function whoami(): Promise<string> {
  const { tools } = await agent.listTools();
  const direct = tools.find((tool) => tool.name.endsWith('whoami'));
  const result = (
    direct !== undefined
      ? await agent.callTool({ name: direct.name, arguments: {} })
      : await agent.callTool({
          name: 'tool_call',
          arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] },
        })
  ) as CallToolResult;
  expect(result.isError, JSON.stringify(result)).not.toBe(true);
  return JSON.stringify(result.content);
}

beforeAll(async () => {
  remote = await startOAuthHost({
    fixture: { accessTokenTtlSeconds: 600 },
    settings: { version: 1 },
    host: { log: (line) => logs.push(line), signIn: { clock: () => now } },
  });
  ({ fixture, dataDir, host, agent } = remote);
});

afterAll(() => remote?.close());

describe('signing in to a remote MCP server', () => {
  it('starts in needs-auth with a hint to sign in, and its tools are not offered', async () => {
    expect(status()).toBe('needs-auth');
    const [view] = await host.api.listServers();
    answers.push(view);
    expect(view!.lastError).toContain('Sign in to Remote: press Sign in (in Servers or Connections)');
    expect(await host.api.listTools('remote')).toEqual([]);
    // Nothing was sent but the bare request: no token exists yet.
    expect(fixture.mcpAuthorizations.every((header) => header === undefined)).toBe(true);
  });

  it('authorizeServer gives the sign-in page; after consent the server connects and its tool works', async () => {
    const answer = await host.api.authorizeServer('remote');
    answers.push(answer);
    const url = new URL(answer.authorizationUrl);
    expect(url.origin).toBe(fixture.origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(fixture.url);
    // A second click while the browser step is open reuses that sign-in.
    expect((await host.api.authorizeServer('remote')).authorizationUrl).toBe(answer.authorizationUrl);

    const back = await consentInBrowser(url);
    expect(back.status).toBe(200);
    await waitUntil(() => status() === 'connected', 'the server to connect', 15_000);
    await waitUntil(
      () => host.catalog.entries.some((entry) => entry.serverId === 'remote'),
      'its tools',
      15_000,
    );
    const tools = await host.api.listTools('remote');
    answers.push(tools);
    expect(tools.map((tool) => tool.toolName)).toEqual(['whoami']);
    expect(await whoami()).toContain('signed in as client-1');
    expect(fixture.registrations).toHaveLength(1);
    // The secret store holds the tokens, under the server's scope.
    expect(await host.secrets.keys('remote')).toContain('remote:oauth.tokens');
  });

  it('refreshes a token that is about to expire once, however many agent calls need it', async () => {
    expect(refreshes()).toHaveLength(0);
    now += 590_000; // 10 s left: inside the refresh margin
    const results = await Promise.all(Array.from({ length: 5 }, () => whoami()));
    for (const result of results) expect(result).toContain('signed in as client-1');
    expect(refreshes()).toHaveLength(1);
  });

  it('refreshes once when the server rejects the token, and the calls are retried with the new one', async () => {
    fixture.expireAccessTokens();
    const results = await Promise.all(Array.from({ length: 5 }, () => whoami()));
    for (const result of results) expect(result).toContain('signed in as client-1');
    expect(refreshes()).toHaveLength(2);
    expect(status()).toBe('connected');
  });

  it('goes back to needs-auth when the sign-in can no longer be refreshed', async () => {
    fixture.revokeRefreshTokens();
    fixture.expireAccessTokens();
    const result = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] },
    })) as CallToolResult;
    answers.push(result);
    expect(JSON.stringify(result.content)).toMatch(/sign in/i);
    await waitUntil(() => status() === 'needs-auth', 'needs-auth', 15_000);
    answers.push(await host.api.listServers());
  });

  it('a declined sign-in leaves it in needs-auth, and Sign in can be pressed again', async () => {
    const first = await host.api.authorizeServer('remote');
    await consentInBrowser(first.authorizationUrl, 'deny');
    await waitUntil(
      () => logs.some((line) => line.includes('did not finish')),
      'the refusal in the log',
      15_000,
    );
    expect(status()).toBe('needs-auth');
    const again = await host.api.authorizeServer('remote');
    expect(again.authorizationUrl).not.toBe(first.authorizationUrl);
    await consentInBrowser(again.authorizationUrl);
    await waitUntil(() => status() === 'connected', 'the server to connect again', 15_000);
    expect(await whoami()).toContain('signed in as');
    // Sign out on the server's side for the next test's checks: the refusal drops the tokens.
    fixture.revokeRefreshTokens();
    fixture.expireAccessTokens();
    const refused = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] },
    })) as CallToolResult;
    expect(JSON.stringify(refused.content)).toMatch(/sign in/i);
    await waitUntil(() => status() === 'needs-auth', 'needs-auth', 15_000);
  });

  it('never shows a token in settings, the audit log, the host log or a UI answer', async () => {
    answers.push(await host.api.getSettings(), await host.api.queryActivity({}));
    const files: string[] = [];
    for (const name of await fs.readdir(dataDir, { recursive: true })) {
      const file = path.join(dataDir, String(name));
      if (path.basename(file) === SECRETS_FILE_NAME || !(await fs.stat(file)).isFile()) continue;
      files.push(`${name}:\n${await fs.readFile(file, 'utf8')}`);
    }
    expect(files.join('\n')).toContain('"remote"'); // settings.json was read
    const haystack = [files.join('\n'), logs.join('\n'), JSON.stringify(answers)].join('\n');
    expect(fixture.issuedTokens.length).toBeGreaterThanOrEqual(6);
    for (const token of fixture.issuedTokens) expect(haystack).not.toContain(token);
    // The refused refresh dropped the tokens; the registration stays for the next sign-in.
    expect(await host.secrets.keys('remote')).toEqual(['remote:oauth.client', 'remote:oauth.server']);
  });

  it('deletes the sign-in with the server', async () => {
    await host.api.removeServer('remote');
    expect(await host.secrets.keys('remote')).toEqual([]);
  });
});

describe('a stored sign-in', () => {
  it('is used after a restart: the server connects without signing in again', async () => {
    const remote = await startOAuthMcpServer();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-oauth-restart-'));
    const open = () => createHost({ dataDir: dir, listen: false, log: () => undefined });
    try {
      await writeRemoteServerSettings(dir, 'again', remote.url);
      const first = await open();
      try {
        await first.ready;
        expect(first.servers.snapshotOf('again').status).toBe('needs-auth');
        await consentInBrowser((await first.api.authorizeServer('again')).authorizationUrl);
        await waitUntil(() => first.servers.snapshotOf('again').status === 'connected', 'connected', 15_000);
      } finally {
        await first.close();
      }
      const second = await open();
      try {
        await second.ready;
        expect(second.servers.snapshotOf('again').status).toBe('connected');
        expect(remote.authorizeRequests).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await remote.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a pre-registered OAuth client, for a server without dynamic registration', () => {
  const SECRET = 'pre-registered-client-secret-CANARY-5f1c';
  let remote: OAuthFixture;
  let dir: string;
  let preHost: Host;
  let port: number;
  const lines: string[] = [];
  const seen: unknown[] = [];
  const state = () => preHost.servers.snapshotOf('pre').status;

  beforeAll(async () => {
    port = await freeLoopbackPort();
    remote = await startOAuthMcpServer({
      dynamicRegistration: false,
      preRegistered: {
        clientId: 'toolbridge-pre',
        clientSecret: SECRET,
        redirectUris: [`http://127.0.0.1:${port}/oauth/callback`],
      },
    });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-oauth-pre-'));
    await writeRemoteServerSettings(dir, 'pre', remote.url);
    preHost = await createHost({
      dataDir: dir,
      listen: false,
      policyOverride: 'allow',
      log: (line) => lines.push(line),
    });
    await preHost.ready;
  });

  afterAll(async () => {
    await preHost?.close();
    await remote?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const call = async () =>
    (await preHost
      .surfaceFor('agent')
      .callTool(
        'tool_call',
        { calls: [{ name: 'mcp__pre__whoami', arguments: {} }] },
        { agentId: 'agent' },
      )) as CallToolResult;

  it('without a client, Sign in says exactly what to set, and registers nothing', async () => {
    expect(state()).toBe('needs-auth');
    const error = await preHost.api.authorizeServer('pre').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const message = String((error as Error).message);
    expect(message).toContain('does not let apps register themselves');
    expect(message).toContain('http://127.0.0.1:<port>/oauth/callback');
    expect(message).toContain("open this server's OAuth client and set the client ID");
    expect(message).toContain('servers[…].oauth.clientId, .clientSecret, .redirectPort');
    expect(remote.registrations).toEqual([]);
    expect(remote.authorizeRequests).toEqual([]);
  });

  it('set in the server form, it signs in; the secret is in the secret store only', async () => {
    const [view] = await preHost.api.listServers();
    const config = view!.config;
    if (config.transport === 'stdio') throw new Error('expected a remote server');
    seen.push(
      await preHost.api.updateServer('pre', {
        ...config,
        oauth: { clientId: 'toolbridge-pre', clientSecret: SECRET, redirectPort: port },
      }),
    );
    const settingsText = await fs.readFile(path.join(dir, 'settings.json'), 'utf8');
    expect(JSON.parse(settingsText).servers[0].oauth).toEqual({
      clientId: 'toolbridge-pre',
      clientSecret: secretRef('pre:oauth.clientSecret'),
      redirectPort: port,
    });
    expect(await preHost.secrets.get('pre:oauth.clientSecret')).toBe(SECRET);
    const [masked] = await preHost.api.listServers();
    seen.push(masked);
    expect(masked!.config).toMatchObject({ oauth: { clientId: 'toolbridge-pre', clientSecret: '••••' } });

    const { authorizationUrl } = await preHost.api.authorizeServer('pre');
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get('client_id')).toBe('toolbridge-pre');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/oauth/callback`);
    expect((await consentInBrowser(url)).status).toBe(200);
    await waitUntil(() => state() === 'connected', 'the server to connect', 15_000);
    expect(JSON.stringify((await call()).content)).toContain('signed in as toolbridge-pre');
    // The token endpoint checked the secret (a wrong one is invalid_client).
    expect(remote.tokenRequests.map((form) => form.get('client_secret'))).toEqual([SECRET]);
    expect(remote.registrations).toEqual([]);
  });

  it('refreshes with it, and saving the form with the masked secret keeps it', async () => {
    const [view] = await preHost.api.listServers();
    seen.push(await preHost.api.updateServer('pre', { ...view!.config, name: 'Pre' }));
    expect(await preHost.secrets.get('pre:oauth.clientSecret')).toBe(SECRET);
    await waitUntil(() => state() === 'connected', 'the server to reconnect', 15_000);
    remote.expireAccessTokens();
    const result = await call();
    seen.push(result);
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    const refreshed = remote.tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token');
    expect(refreshed.map((form) => [form.get('client_id'), form.get('client_secret')])).toEqual([
      ['toolbridge-pre', SECRET],
    ]);
  });

  it('never shows the client secret in settings, the audit log, the log or a UI answer', async () => {
    seen.push(await preHost.api.queryActivity({}), await preHost.api.getSettings());
    const files: string[] = [];
    for (const name of await fs.readdir(dir, { recursive: true })) {
      const file = path.join(dir, String(name));
      if (path.basename(file) === SECRETS_FILE_NAME || !(await fs.stat(file)).isFile()) continue;
      files.push(await fs.readFile(file, 'utf8'));
    }
    expect(files.join('\n')).toContain('mcp__pre__whoami'); // the audit log was read
    const haystack = [files.join('\n'), lines.join('\n'), JSON.stringify(seen)].join('\n');
    expect(haystack).not.toContain(SECRET);
    for (const token of remote.issuedTokens) expect(haystack).not.toContain(token);
  });
});
