import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolbridgeError } from '../../../../src/base/errors.js';
import { InMemorySecretStore } from '../../../../src/base/secret-store.js';
import { ServerSignIn } from '../../../../src/host/server-sign-in.js';
import { McpOAuthClient, type McpOAuthOptions } from '../../../../src/servers/oauth/mcp-oauth.js';
import {
  consentInBrowser,
  freeLoopbackPort,
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthMcpServer,
} from '../../../fixtures/oauth/oauth-mcp-server.js';

let fixture: OAuthFixture;
let store: InMemorySecretStore;
let opened: URL[];
let now: number;
let logged: string[];

async function startFixture(options: OAuthFixtureOptions = {}): Promise<void> {
  await fixture?.close();
  fixture = await startOAuthMcpServer(options);
}

function oauth(
  overrides: Partial<McpOAuthOptions> = {},
  decision: 'allow' | 'deny' = 'allow',
): McpOAuthClient {
  return new McpOAuthClient({
    serverId: 'remote',
    serverUrl: fixture.url,
    store,
    openUrl: async (url) => {
      opened.push(url);
      await consentInBrowser(url, decision);
    },
    clock: () => now,
    ...overrides,
  });
}

async function whoami(client: McpOAuthClient): Promise<string> {
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(fixture.url), { fetch: client.fetch }));
  try {
    const result = await mcp.callTool({ name: 'whoami', arguments: {} });
    return (result.content as Array<{ text: string }>)[0]!.text;
  } finally {
    await mcp.close();
  }
}

const refreshRequests = () =>
  fixture.tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token');

beforeEach(async () => {
  store = new InMemorySecretStore();
  opened = [];
  now = Date.now();
  logged = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  }
  fixture = await startOAuthMcpServer();
});

afterEach(async () => {
  vi.restoreAllMocks();
  // Whatever a test did, no token ever reached a log line.
  const output = logged.join('\n');
  for (const token of fixture.issuedTokens) expect(output).not.toContain(token);
  await fixture.close();
});

describe('McpOAuthClient.signIn', () => {
  it('registers, sends PKCE S256, state and the resource, exchanges the code and calls the server', async () => {
    const client = oauth();
    expect(await client.status()).toBe('signed_out');
    await client.signIn();

    expect(opened).toHaveLength(1);
    const [authorize] = fixture.authorizeRequests;
    expect(authorize?.get('code_challenge_method')).toBe('S256');
    expect(authorize?.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize?.get('resource')).toBe(fixture.url);
    expect(authorize?.get('scope')).toBe('mcp:tools');
    expect(authorize?.get('state')?.length).toBeGreaterThanOrEqual(40);
    expect(authorize?.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    expect(fixture.registrations).toHaveLength(1);

    const [exchange] = fixture.tokenRequests;
    expect(exchange?.get('grant_type')).toBe('authorization_code');
    expect(exchange?.get('resource')).toBe(fixture.url);
    expect(exchange?.get('code_verifier')).toBeTruthy();

    expect(await client.status()).toBe('signed_in');
    expect(await whoami(client)).toBe('signed in as client-1 with mcp:tools');
    const token = await client.accessToken();
    expect(fixture.mcpAuthorizations.at(-1)).toBe(`Bearer ${token}`);
  });

  it('keeps tokens in the secret store only, under the server’s own keys', async () => {
    await oauth().signIn();
    const keys = await store.keys();
    expect(keys).toEqual(['remote:oauth.client', 'remote:oauth.server', 'remote:oauth.tokens']);
    const [access, refresh] = fixture.issuedTokens;
    for (const key of keys) {
      const value = (await store.get(key)) ?? '';
      const holdsToken = value.includes(access!) || value.includes(refresh!);
      expect(holdsToken, key).toBe(key === 'remote:oauth.tokens');
    }
  });

  it('uses a pre-registered client without registering', async () => {
    const port = await freeLoopbackPort();
    await startFixture({
      preRegistered: { clientId: 'pre-1', redirectUris: [`http://127.0.0.1:${port}/oauth/callback`] },
    });
    const client = oauth({ client: { clientId: 'pre-1', redirectPort: port } });
    await client.signIn();
    expect(fixture.registrations).toEqual([]);
    expect(fixture.authorizeRequests[0]?.get('client_id')).toBe('pre-1');
    expect(await whoami(client)).toContain('signed in as pre-1');
  });

  it('sends a pre-registered client secret, read from the store when needed, to the token endpoint', async () => {
    const port = await freeLoopbackPort();
    await startFixture({
      dynamicRegistration: false,
      preRegistered: {
        clientId: 'pre-2',
        clientSecret: 'pre-secret-canary',
        redirectUris: [`http://127.0.0.1:${port}/oauth/callback`],
      },
    });
    await store.set('remote:oauth.clientSecret', 'pre-secret-canary');
    const client = oauth({
      client: {
        clientId: 'pre-2',
        redirectPort: port,
        clientSecret: () => store.get('remote:oauth.clientSecret'),
      },
    });
    await client.signIn();
    expect(await whoami(client)).toContain('signed in as pre-2');
    fixture.expireAccessTokens();
    expect(await whoami(client)).toContain('signed in as pre-2');
    expect(fixture.tokenRequests.map((form) => form.get('client_secret'))).toEqual([
      'pre-secret-canary',
      'pre-secret-canary',
    ]);
    // The client lives in settings and the store's own key: it is not copied next to the tokens.
    expect(await store.keys()).toEqual([
      'remote:oauth.clientSecret',
      'remote:oauth.server',
      'remote:oauth.tokens',
    ]);
  });

  it('without registration support and without a client, says what to set and opens nothing', async () => {
    await startFixture({ dynamicRegistration: false });
    const error = await oauth()
      .signIn()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(String((error as Error).message)).toMatch(
      /set the client ID, the client secret if one was issued/,
    );
    expect(opened).toEqual([]);
    expect(fixture.registrations).toEqual([]);
  });

  it('asks for the union of old and new scopes on step-up', async () => {
    const client = oauth();
    await client.signIn();
    await client.signIn({ scope: 'mcp:admin' });
    expect(fixture.authorizeRequests[1]?.get('scope')).toBe('mcp:tools mcp:admin');
    expect(await whoami(client)).toContain('with mcp:tools mcp:admin');
  });

  it('does not ask again for scopes the user declined, unless forced', async () => {
    const declined = oauth({}, 'deny');
    await expect(declined.signIn()).rejects.toMatchObject({ code: 'DENIED' });
    expect(opened).toHaveLength(1);
    await expect(declined.signIn()).rejects.toMatchObject({ code: 'DENIED' });
    expect(opened).toHaveLength(1);
    await expect(declined.signIn({ force: true })).rejects.toMatchObject({ code: 'DENIED' });
    expect(opened).toHaveLength(2);
    expect(fixture.tokenRequests).toEqual([]);
  });

  it.each([
    ['resource metadata', undefined],
    ['only metadata at its origin (2025-03-26)', 'origin-metadata'],
  ] as const)(
    'refuses a server with %s that does not declare PKCE S256, before opening anything',
    async (_label, legacy) => {
      await startFixture({ omitPkceMetadata: true, ...(legacy === undefined ? {} : { legacy }) });
      const error = await oauth()
        .signIn()
        .catch((e: unknown) => e);
      expect(ToolbridgeError.is(error, 'DENIED')).toBe(true);
      expect(String((error as Error).message)).toContain('PKCE');
      expect(opened).toEqual([]);
      expect(fixture.authorizeRequests).toEqual([]);
    },
  );

  it.each([
    ['a different issuer', 'wrong'],
    ['no issuer though the server promised one', 'absent'],
  ] as const)('discards a response naming %s, with no call to the token endpoint', async (_label, iss) => {
    await startFixture({ issParameter: iss });
    await expect(oauth().signIn()).rejects.toMatchObject({ code: 'DENIED' });
    expect(opened).toHaveLength(1);
    expect(fixture.tokenRequests).toEqual([]);
    expect(await store.get('remote:oauth.tokens')).toBeUndefined();
  });

  it.each([
    ['cloud metadata', { authorizationServers: ['https://169.254.169.254/'] }],
    ['a private address', { authorizationServers: ['https://10.0.0.1/'] }],
    ['plain http elsewhere', { authorizationServers: ['http://public.example/'] }],
    ['a token endpoint on a private network', { tokenEndpoint: 'http://10.0.0.1/token' }],
  ] as Array<[string, OAuthFixtureOptions]>)(
    'refuses an authorization server pointing at %s',
    async (_label, options) => {
      await startFixture(options);
      const resolveHost = async () => ['93.184.216.34'];
      await expect(oauth({ resolveHost }).signIn()).rejects.toMatchObject({ code: 'DENIED' });
      expect(opened).toEqual([]);
      expect(fixture.tokenRequests).toEqual([]);
    },
  );
});

describe('issue #14: McpOAuthClient scopes', () => {
  const askedScope = () => fixture.authorizeRequests.at(-1)?.get('scope') ?? null;

  it('issue #14: asks for the protected resource’s scopes_supported, not the authorization server’s', async () => {
    await startFixture({ challengeScope: null, resourceScopes: ['mcp:tools', 'mcp:read'] });
    await oauth().signIn();
    expect(askedScope()).toBe('mcp:tools mcp:read');
  });

  it('issue #14: the scope in the challenge wins over scopes_supported', async () => {
    await startFixture({ challengeScope: 'mcp:read', resourceScopes: ['mcp:tools', 'mcp:read'] });
    await oauth().signIn();
    expect(askedScope()).toBe('mcp:read');
  });

  it('issue #14: leaves scope out when neither the challenge nor the resource names any', async () => {
    // The authorization server's metadata lists mcp:tools and mcp:admin: not a reason to ask for them.
    await startFixture({ challengeScope: null, resourceScopes: null });
    const client = oauth();
    await client.signIn();
    expect(fixture.authorizeRequests).toHaveLength(1);
    expect(askedScope()).toBeNull();
    expect(fixture.registrations[0]).not.toHaveProperty('scope');
    expect(await whoami(client)).toBe('signed in as client-1 with no scope');
  });

  it('issue #14: a 403 insufficient_scope makes the next sign-in ask for the union, and the call then works', async () => {
    await startFixture({ stepUpScope: 'mcp:write' });
    const client = oauth();
    await client.signIn();
    expect(client.scopeNeeded()).toBeUndefined();
    await expect(whoami(client)).rejects.toMatchObject({ code: 403 });
    expect(client.scopeNeeded()).toBe('mcp:tools mcp:write');

    await client.signIn();
    expect(fixture.authorizeRequests).toHaveLength(2);
    expect(askedScope()).toBe('mcp:tools mcp:write');
    expect(client.scopeNeeded()).toBeUndefined();
    // A new loopback port means a new registration: client-2.
    expect(await whoami(client)).toBe('signed in as client-2 with mcp:tools mcp:write');
    expect(fixture.stepUpRefusals).toBe(1);
  });

  it('issue #14: no step-up loop: a 403 naming only scopes already granted asks for nothing', async () => {
    await startFixture({ alwaysInsufficient: true });
    const client = oauth();
    await client.signIn();
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(whoami(client)).rejects.toMatchObject({ code: 403 });
      expect(client.scopeNeeded()).toBeUndefined();
    }
    expect(opened).toHaveLength(1);
  });

  it('issue #14: a 403 whose challenge does not say insufficient_scope is no step-up', async () => {
    await startFixture({ stepUpScope: 'mcp:write', stepUpError: null });
    const client = oauth();
    await client.signIn();
    await expect(whoami(client)).rejects.toThrow(/insufficient_scope/);
    expect(fixture.stepUpRefusals).toBe(1);
    expect(client.scopeNeeded()).toBeUndefined();
  });
});

describe('issue #14: McpOAuthClient registration', () => {
  const documentUrl = 'https://toolbridge.example/oauth/client-metadata.json';

  it('issue #14: uses the Client ID Metadata Document URL as client_id where supported, registering nothing', async () => {
    await startFixture({ clientMetadataDocuments: [documentUrl] });
    const client = oauth({ clientMetadataUrl: documentUrl });
    await client.signIn();
    expect(fixture.registrations).toEqual([]);
    expect(fixture.authorizeRequests[0]?.get('client_id')).toBe(documentUrl);
    expect(fixture.tokenRequests[0]?.get('client_id')).toBe(documentUrl);
    expect(await whoami(client)).toBe(`signed in as ${documentUrl} with mcp:tools`);
    // Refreshing uses the same client ID, also in a process started without the document's URL
    // (toolbridge mcp on the same data folder).
    now += 3_600_000;
    expect(await whoami(oauth())).toBe(`signed in as ${documentUrl} with mcp:tools`);
    expect(refreshRequests().map((form) => form.get('client_id'))).toEqual([documentUrl]);
    expect(JSON.parse((await store.get('remote:oauth.client'))!)).toEqual({
      client_id: documentUrl,
      issuer: fixture.issuer,
    });
  });

  it('issue #14: falls back to dynamic registration where the server does not take metadata documents', async () => {
    const client = oauth({ clientMetadataUrl: documentUrl });
    await client.signIn();
    expect(fixture.registrations).toHaveLength(1);
    expect(fixture.authorizeRequests[0]?.get('client_id')).toBe('client-1');
  });

  it.each(['http://toolbridge.example/client.json', 'https://toolbridge.example/', 'not a url'])(
    'issue #14: refuses %s as a client metadata document URL, saying what to give',
    (url) => {
      expect(() => oauth({ clientMetadataUrl: url })).toThrow(/not an https URL with a path/);
      // The host refuses it when it starts, not at the first sign-in.
      const parts = { secrets: store, dataDir: '/nonexistent', reconnect: async () => {}, log: () => {} };
      expect(() => new ServerSignIn({ ...parts, options: { clientMetadataUrl: url } })).toThrow(
        /not an https URL with a path/,
      );
    },
  );
});

describe('issue #14: McpOAuthClient with 2025-03-26 servers', () => {
  it('issue #14: without resource metadata, finds the authorization server metadata at the server’s origin', async () => {
    await startFixture({ legacy: 'origin-metadata' });
    const client = oauth();
    await client.signIn();
    expect(fixture.registrations).toHaveLength(1);
    expect(await whoami(client)).toBe('signed in as client-1 with mcp:tools');
  });

  it('issue #14: accepts an issuer elsewhere on the server’s own origin there, and checks iss against it', async () => {
    await startFixture({ legacy: 'origin-metadata', issuer: (origin) => `${origin}/oauth` });
    const client = oauth();
    await client.signIn();
    expect(await whoami(client)).toBe('signed in as client-1 with mcp:tools');
    await startFixture({
      legacy: 'origin-metadata',
      issuer: (origin) => `${origin}/oauth`,
      issParameter: 'wrong',
    });
    await expect(oauth().signIn()).rejects.toMatchObject({ code: 'DENIED' });
  });

  it.each([
    ['a 2025-03-26 server names an issuer on another origin', 'origin-metadata'],
    ['a server with resource metadata names an issuer that is not its authorization server', undefined],
  ] as const)('issue #14: refuses the metadata when %s', async (_label, legacy) => {
    await startFixture({
      ...(legacy === undefined ? {} : { legacy }),
      issuer: (origin) => (legacy === undefined ? `${origin}/oauth` : 'https://other.example/'),
    });
    const error = await oauth()
      .signIn()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DENIED' });
    expect(String((error as Error).message)).toContain('names issuer');
    expect(opened).toEqual([]);
  });

  it('issue #14: without any metadata, uses /authorize, /token and /register at the server’s origin, with PKCE', async () => {
    await startFixture({ legacy: 'no-metadata' });
    const client = oauth();
    await client.signIn();
    expect(opened[0]?.href.startsWith(`${fixture.origin}/authorize?`)).toBe(true);
    expect(fixture.authorizeRequests[0]?.get('code_challenge_method')).toBe('S256');
    expect(fixture.registrations).toHaveLength(1);
    expect(fixture.tokenRequests).toHaveLength(1);
    expect(await whoami(client)).toBe('signed in as client-1 with mcp:tools');
  });

  it('issue #14: resource metadata naming an authorization server with no metadata is still refused', async () => {
    const empty = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
    try {
      const port = (empty.address() as AddressInfo).port;
      await startFixture({ authorizationServers: [`http://127.0.0.1:${port}/`] });
      await expect(oauth().signIn()).rejects.toMatchObject({ code: 'DENIED' });
      expect(opened).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => empty.close(() => resolve()));
    }
  });
});

describe('issue #14: McpOAuthClient with an authorization server on another loopback port', () => {
  let authServer: OAuthFixture;
  beforeEach(async () => {
    authServer = await startOAuthMcpServer();
  });
  afterEach(async () => {
    await authServer.close();
  });

  it('issue #14: signs in there when the MCP server itself is on loopback', async () => {
    await startFixture({ authorizationServers: [authServer.issuer] });
    const client = oauth();
    await client.signIn();
    expect(opened[0]?.origin).toBe(authServer.origin);
    expect(authServer.registrations).toHaveLength(1);
    expect(authServer.tokenRequests).toHaveLength(1);
    expect(authServer.tokenRequests[0]?.get('resource')).toBe(fixture.url);
    expect(fixture.tokenRequests).toEqual([]);
    expect(await client.status()).toBe('signed_in');
  });

  it('issue #14: never on one of Toolbridge’s own ports', async () => {
    await startFixture({ authorizationServers: [authServer.issuer] });
    const ownPort = Number(new URL(authServer.origin).port);
    await expect(oauth({ ownPorts: () => [ownPort] }).signIn()).rejects.toMatchObject({ code: 'DENIED' });
    expect(opened).toEqual([]);
    expect(authServer.registrations).toEqual([]);
  });
});

describe('McpOAuthClient tokens', () => {
  it('refreshes shortly before expiry, once for many callers, and the new token works', async () => {
    const client = oauth();
    await client.signIn();
    const first = await client.accessToken();
    expect(refreshRequests()).toEqual([]);

    now += 3600_000 - 30_000; // inside the 60 s refresh window
    const tokens = await Promise.all(Array.from({ length: 5 }, () => client.accessToken()));
    expect(refreshRequests()).toHaveLength(1);
    expect(refreshRequests()[0]?.get('resource')).toBe(fixture.url);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(await whoami(client)).toContain('signed in as client-1');
    expect(fixture.mcpAuthorizations.at(-1)).toBe(`Bearer ${tokens[0]}`);
  });

  it('refreshes and retries once when the server rejects a token early', async () => {
    const client = oauth();
    await client.signIn();
    expect(await whoami(client)).toContain('client-1');
    fixture.expireAccessTokens();
    expect(await whoami(client)).toContain('client-1');
    expect(refreshRequests()).toHaveLength(1);
  });

  it('signs out when the refresh token is no longer accepted', async () => {
    const client = oauth();
    await client.signIn();
    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    await expect(whoami(client)).rejects.toThrow(/401|Unauthorized|invalid_token/i);
    expect(await client.status()).toBe('signed_out');
    expect(await store.get('remote:oauth.tokens')).toBeUndefined();
  });

  it('reports an expired sign-in with no refresh token as expired, and gives no token', async () => {
    const client = oauth();
    await client.signIn();
    const stored = JSON.parse((await store.get('remote:oauth.tokens'))!) as Record<string, unknown>;
    delete stored.refresh_token;
    await store.set('remote:oauth.tokens', JSON.stringify(stored));
    now += 3600_000 + 1;
    expect(await client.status()).toBe('expired');
    expect(await client.accessToken()).toBeUndefined();
  });

  it('never sends the token to another origin', async () => {
    const client = oauth();
    await client.signIn();
    const seen: Array<string | undefined> = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('ok');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      await (await client.fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: '{}' })).text();
      expect(seen).toEqual([undefined]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('keeps tokens out of error messages', async () => {
    const client = oauth();
    await client.signIn();
    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    const error = await whoami(client).catch((e: unknown) => e);
    for (const token of fixture.issuedTokens) expect(String(error)).not.toContain(token);
  });
});
