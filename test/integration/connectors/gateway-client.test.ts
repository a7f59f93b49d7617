import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { GatewayClient, type GatewayClientOptions } from '../../../src/connectors/gateway-client.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';

/** Roomy, so a loaded machine never trips a test that is not about timeouts; those pass `SHORT`. */
const ROOMY = {
  searchMs: 5000,
  schemasMs: 5000,
  executeMs: 5000,
  listMs: 5000,
  connectMs: 5000,
  statusMs: 5000,
  renameMs: 5000,
};
const SHORT = 300;

let gateway: FixtureGateway;

function clientFor(overrides: Partial<GatewayClientOptions> = {}): GatewayClient {
  return new GatewayClient({
    baseUrl: gateway.url,
    token: gateway.token,
    timeouts: ROOMY,
    retryDelayMs: 10,
    ...overrides,
  });
}

function apiRequests() {
  return gateway.requests.filter((r) => r.path.startsWith('/v1/') || r.path.startsWith('/api/'));
}

beforeEach(async () => {
  gateway = await startFixtureGateway();
});

afterEach(async () => {
  await gateway.close();
});

describe('GatewayClient.search', () => {
  it('sends the use cases in order with the bearer token and reads groups and schemas', async () => {
    const result = await clientFor().search(['create a github issue', 'post a message to a slack channel']);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.results).toHaveLength(2);
    expect(result.value.results[0]?.useCase).toBe('create a github issue');
    expect(result.value.results[0]?.tools).toContain('GITHUB_CREATE_ISSUE');
    expect(result.value.schemas.GITHUB_CREATE_ISSUE?.connector).toBe('github');
    expect(result.value.schemas.GITHUB_CREATE_ISSUE?.inputSchema).toMatchObject({ type: 'object' });
    expect(result.value.results[1]?.tools.some((slug) => slug.startsWith('SLACK_CHAT'))).toBe(true);

    const [request] = apiRequests();
    expect(request?.path).toBe('/v1/connectors/search');
    expect(request?.authorization).toBe(`Bearer ${gateway.token}`);
    expect(request?.body).toEqual({
      queries: [{ useCase: 'create a github issue' }, { useCase: 'post a message to a slack channel' }],
    });
  });

  it('refuses more than 7 use cases, or none, before sending anything', async () => {
    const client = clientFor();
    const eight = Array.from({ length: 8 }, (_, i) => `query ${i}`);
    await expect(client.search(eight)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.search([])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(apiRequests()).toEqual([]);
    const seven = await client.search(eight.slice(0, 7));
    expect(seven.ok).toBe(true);
  });

  it('gives up on a slow search after its timeout and never retries it', async () => {
    gateway.setMode('slow');
    // The gateway never answers: a client without its own timeout would hang here.
    const result = await clientFor({ timeouts: { searchMs: SHORT } }).search(['github issue']);
    expect(gateway.held).toBe(1);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
    if (!result.ok) expect(result.failure.message).toContain('no answer within 300 ms');
    expect(apiRequests()).toHaveLength(1);
  });

  it('does not retry a search that failed with 500', async () => {
    gateway.setMode('500', { times: 1 });
    const result = await clientFor().search(['github issue']);
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'unreachable', status: 500, code: 'INTERNAL' },
    });
    expect(apiRequests()).toHaveLength(1);
  });

  it('is cancelled by the caller’s signal with CANCELLED, not a gateway failure', async () => {
    gateway.setMode('slow');
    const controller = new AbortController();
    const pending = clientFor({ timeouts: { searchMs: 600_000 } }).search(['github issue'], {
      signal: controller.signal,
    });
    // Abort once the gateway holds the request, so it is the abort that ends the wait.
    await expect.poll(() => gateway.held).toBe(1);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'CANCELLED')).toBe(true);
  });
});

describe('GatewayClient degradations', () => {
  it('is dark without a base URL and sends nothing', async () => {
    const client = clientFor({ baseUrl: undefined });
    expect(client.configured).toBe(false);
    expect(await client.search(['x'])).toMatchObject({ ok: false, failure: { kind: 'dark' } });
    expect(gateway.requests).toEqual([]);
  });

  it('is dark when the gateway answers 404', async () => {
    gateway.setMode('404');
    expect(await clientFor().search(['x'])).toMatchObject({
      ok: false,
      failure: { kind: 'dark', status: 404 },
    });
  });

  it('keeps the base URL’s path, so a gateway mounted elsewhere is dark, not broken', async () => {
    const result = await clientFor({ baseUrl: `${gateway.url}api` }).search(['x']);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'dark' } });
    expect(apiRequests()[0]?.path).toBe('/api/v1/connectors/search');
  });

  it('is not_set_up without a token, whether fixed or from a function, and sends nothing', async () => {
    for (const token of [undefined, '', () => undefined, async () => undefined]) {
      const result = await clientFor({ token }).search(['x']);
      expect(result).toMatchObject({ ok: false, failure: { kind: 'not_set_up' } });
    }
    const throwing = await clientFor({
      token: () => {
        throw new ToolbridgeError('SECRET_STORE_UNAVAILABLE', 'The keychain is locked.');
      },
    }).search(['x']);
    expect(throwing).toMatchObject({ ok: false, failure: { kind: 'not_set_up' } });
    expect(gateway.requests).toEqual([]);
  });

  it('reads the token from a function before each request', async () => {
    let calls = 0;
    const client = clientFor({
      token: async () => {
        calls += 1;
        return gateway.token;
      },
    });
    expect((await client.search(['x'])).ok).toBe(true);
    expect((await client.search(['y'])).ok).toBe(true);
    expect(calls).toBe(2);
  });

  it('is sign_in_expired on 401, on the token codes and on a wrong token, without echoing the token', async () => {
    gateway.setMode('401', { times: 1 });
    const plain = await clientFor().search(['x']);
    expect(plain).toMatchObject({
      ok: false,
      failure: { kind: 'sign_in_expired', status: 401, code: 'UNAUTHORIZED' },
    });

    gateway.setMode('401', { times: 1, code: 'TOKEN_EXPIRED' });
    const expired = await clientFor().schemas(['GITHUB_GET_ME']);
    expect(expired).toMatchObject({ ok: false, failure: { kind: 'sign_in_expired', code: 'TOKEN_EXPIRED' } });

    const wrong = await clientFor({ token: 'not-the-token' }).search(['x']);
    expect(wrong).toMatchObject({ ok: false, failure: { kind: 'sign_in_expired', code: 'INVALID_TOKEN' } });
    for (const result of [plain, expired, wrong]) {
      expect(JSON.stringify(result)).not.toContain(gateway.token);
      expect(JSON.stringify(result)).not.toContain('not-the-token');
    }
    // 401s are never retried.
    expect(apiRequests()).toHaveLength(3);
  });

  it('is unreachable when nothing listens on the port', async () => {
    const closed = await startFixtureGateway();
    const url = closed.url;
    await closed.close();
    const result = await clientFor({ baseUrl: url }).search(['x']);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
    if (!result.ok) expect(result.failure.message).toContain('ECONNREFUSED');
  });

  it('is unreachable on a body that is not the protocol, and on 429 with the wait time', async () => {
    gateway.setMode('garbage', { times: 1 });
    expect(await clientFor().search(['x'])).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
    gateway.setMode('429', { times: 1 });
    expect(await clientFor().search(['x'])).toMatchObject({
      ok: false,
      failure: { kind: 'unreachable', status: 429, retryAfterMs: 2000 },
    });
  });

  it('refuses a base URL that is not http(s) or carries credentials', () => {
    expect(() => clientFor({ baseUrl: 'ftp://127.0.0.1/' })).toThrow(/http or https/);
    expect(() => clientFor({ baseUrl: 'http://user:secret@127.0.0.1/' })).toThrow(/user name or password/);
    expect(() => clientFor({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});

describe('GatewayClient.schemas', () => {
  it('answers only the slugs the gateway knows', async () => {
    const result = await clientFor().schemas(['GITHUB_CREATE_ISSUE', 'CREATE_ISSUE', 'NOTION_GET_USER']);
    expect(result.ok && Object.keys(result.value).sort()).toEqual(['GITHUB_CREATE_ISSUE', 'NOTION_GET_USER']);
    expect(apiRequests()[0]?.body).toEqual({
      tools: ['GITHUB_CREATE_ISSUE', 'CREATE_ISSUE', 'NOTION_GET_USER'],
    });
  });

  it('retries once after a 500 or a reset socket', async () => {
    gateway.setMode('500', { times: 1 });
    expect((await clientFor().schemas(['GITHUB_GET_ME'])).ok).toBe(true);
    gateway.setMode('reset', { times: 1 });
    expect((await clientFor().schemas(['GITHUB_GET_ME'])).ok).toBe(true);
    expect(apiRequests()).toHaveLength(4);
  });

  it('retries a timeout once, then reports unreachable', async () => {
    gateway.setMode('slow');
    const result = await clientFor({ timeouts: { schemasMs: SHORT } }).schemas(['GITHUB_GET_ME']);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
    expect(apiRequests()).toHaveLength(2);
  });

  it('does not retry a 4xx', async () => {
    gateway.setMode('429');
    await clientFor().schemas(['GITHUB_GET_ME']);
    expect(apiRequests()).toHaveLength(1);
  });
});

describe('GatewayClient.execute', () => {
  it('sends one idempotency key per call, the tool and the optional returnTo and op', async () => {
    gateway = await restartWith({ connected: ['github'] });
    const client = clientFor({ returnTo: 'toolbridge-desktop' });
    const tool = { connector: 'github', tool: 'GITHUB_GET_ME', arguments: {} };
    const first = await client.execute([tool], { op: 'op-1' });
    await client.execute([tool]);
    expect(first).toEqual({
      ok: true,
      value: [
        { data: { ran: 'GITHUB_GET_ME', connector: 'github', arguments: {} }, account: 'github-account' },
      ],
    });
    const [a, b] = apiRequests();
    expect(a?.body).toEqual({ tools: [tool], returnTo: 'toolbridge-desktop', op: 'op-1' });
    expect(a?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.idempotencyKey).not.toBe(a?.idempotencyKey);
  });

  it('retries a 500 once with the same idempotency key', async () => {
    gateway = await restartWith({ connected: ['github'] });
    gateway.setMode('500', { times: 1 });
    const result = await clientFor().execute([{ connector: 'github', tool: 'GITHUB_GET_ME', arguments: {} }]);
    expect(result.ok).toBe(true);
    const [first, retry] = apiRequests();
    expect(retry?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(gateway.executions).toHaveLength(1);
  });

  it('retries a timed-out call with the same key, and the gateway runs the tool only once', async () => {
    gateway = await restartWith({ connected: ['github'] });
    gateway.setMode('slow', { times: 1 });
    const result = await clientFor({ timeouts: { executeMs: SHORT } }).execute([
      { connector: 'github', tool: 'GITHUB_CREATE_ISSUE', arguments: { title: 't' } },
    ]);
    expect(result.ok).toBe(true);
    const keys = apiRequests().map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(gateway.executions.map((e) => e.slug)).toEqual(['GITHUB_CREATE_ISSUE']);
  });

  it('reports unreachable after two transport failures', async () => {
    gateway.setMode('reset');
    const result = await clientFor().execute([{ connector: 'github', tool: 'GITHUB_GET_ME', arguments: {} }]);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable' } });
    expect(apiRequests()).toHaveLength(2);
  });
});

describe('GatewayClient connections', () => {
  it('follows the cursor through every page', async () => {
    gateway = await restartWith({ pageSize: 1, connected: ['notion'] });
    const result = await clientFor().listConnections();
    expect(result.ok && result.value.map((row) => [row.connector, row.connected])).toEqual([
      ['github', false],
      ['notion', true],
      ['slack', false],
    ]);
    expect(apiRequests().map((r) => r.path)).toEqual([
      '/v1/connectors/connections?limit=50',
      '/v1/connectors/connections?limit=50&cursor=1',
      '/v1/connectors/connections?limit=50&cursor=2',
    ]);
  });

  it('stops after 20 pages', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `c${i}`, tools: [{ slug: `C${i}_PING` }] }));
    gateway = await restartWith({ pageSize: 1, connectors: many });
    const result = await clientFor().listConnections();
    expect(result.ok && result.value).toHaveLength(20);
    expect(apiRequests()).toHaveLength(20);
  });

  it('starts a link, which a user completes on the authorization page', async () => {
    const client = clientFor();
    const started = await client.initiateConnections(['slack', 'nope']);
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const [slack, nope] = started.value;
    expect(slack).toMatchObject({ connector: 'slack', status: 'initiated' });
    expect(nope).toMatchObject({ connector: 'nope', status: 'failed', message: 'Unknown connector.' });
    expect(await client.connectionStatus(slack!.connectionId!)).toMatchObject({
      ok: true,
      value: { connector: 'slack', connected: false, connectionStatus: 'initiated' },
    });

    const page = await allowInBrowser(slack!.connectUrl!);
    expect(page).toContain('Connected slack');
    expect(await client.connectionStatus(slack!.connectionId!)).toMatchObject({
      ok: true,
      value: { connected: true, connectionStatus: 'active', account: 'slack-account' },
    });
    // The connect link does not carry the token.
    expect(slack!.connectUrl).not.toContain(gateway.token);
  });

  it('never retries starting a link', async () => {
    gateway.setMode('500', { only: 'connections' });
    const result = await clientFor().initiateConnections(['slack']);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'unreachable', status: 500 } });
    expect(apiRequests()).toHaveLength(1);
  });
});

describe('GatewayClient accounts', () => {
  it('links a second account under an alias; the list shows every account, the default first', async () => {
    gateway = await restartWith({ connected: ['github'] });
    const client = clientFor();
    const started = await client.initiateConnections([{ connector: 'github', alias: 'work' }]);
    expect(apiRequests()[0]?.body).toEqual({
      connectors: [{ connector: 'github', alias: 'work' }],
      reinitiate: false,
    });
    expect(started).toMatchObject({
      ok: true,
      value: [{ connector: 'github', alias: 'work', status: 'initiated' }],
    });
    await allowInBrowser((started.ok && started.value[0]?.connectUrl) || '');

    const listed = await client.listConnections();
    const github = listed.ok ? listed.value.find((row) => row.connector === 'github') : undefined;
    expect(github).toMatchObject({ connected: true, account: 'github-account' });
    expect(github?.accounts).toEqual([
      {
        alias: 'github-account',
        default: true,
        connected: true,
        connectionStatus: 'active',
        connectionId: 'conn_github',
      },
      expect.objectContaining({ alias: 'work', default: false, connected: true, connectionStatus: 'active' }),
    ]);
  });

  it('runs a tool under the account it names, the default one otherwise, and refuses an unknown alias', async () => {
    gateway = await restartWith({ connected: ['github'] });
    const client = clientFor();
    const started = await client.initiateConnections([{ connector: 'github', alias: 'work' }]);
    await allowInBrowser((started.ok && started.value[0]?.connectUrl) || '');
    const tool = { connector: 'github', tool: 'GITHUB_GET_ME', arguments: {} };
    const run = async (account?: string) => {
      const result = await client.execute([account === undefined ? tool : { ...tool, account }]);
      return result.ok ? result.value[0] : undefined;
    };
    expect(await run('work')).toMatchObject({ account: 'work' });
    expect(await run()).toMatchObject({ account: 'github-account' });
    expect(await run('home')).toEqual({
      error: {
        code: 'UNKNOWN_ACCOUNT',
        message: 'github has no account "home"; its accounts: github-account, work.',
        connector: 'github',
      },
    });
    expect(gateway.executions.map((e) => e.account)).toEqual(['work', 'github-account']);
    expect(apiRequests().at(-1)?.body).toEqual({ tools: [{ ...tool, account: 'home' }] });
  });

  it('renames an account; a refusal is an answer, not a failure, and nothing is retried', async () => {
    gateway = await restartWith({ connected: ['github'] });
    const client = clientFor();
    expect(await client.renameAccount('github', 'github-account', 'personal')).toEqual({
      ok: true,
      value: {
        connector: 'github',
        account: expect.objectContaining({ alias: 'personal', default: true, connected: true }),
      },
    });
    expect(apiRequests()[0]).toMatchObject({
      method: 'POST',
      path: '/v1/connectors/accounts/rename',
      body: { connector: 'github', alias: 'github-account', to: 'personal' },
    });
    expect(await client.renameAccount('github', 'nope', 'x')).toMatchObject({
      ok: true,
      value: { error: { code: 'UNKNOWN_ACCOUNT' } },
    });
    const started = await client.initiateConnections([{ connector: 'github', alias: 'work' }]);
    expect(started.ok).toBe(true);
    expect(await client.renameAccount('github', 'work', 'personal')).toMatchObject({
      ok: true,
      value: { error: { code: 'ALIAS_TAKEN', message: 'github already has an account "personal".' } },
    });
    gateway.setMode('500', { only: 'rename' });
    const before = apiRequests().length;
    expect(await client.renameAccount('github', 'work', 'office')).toMatchObject({
      ok: false,
      failure: { kind: 'unreachable', status: 500 },
    });
    expect(apiRequests()).toHaveLength(before + 1);
  });
});

async function restartWith(options: Parameters<typeof startFixtureGateway>[0]): Promise<FixtureGateway> {
  await gateway.close();
  return startFixtureGateway(options);
}
