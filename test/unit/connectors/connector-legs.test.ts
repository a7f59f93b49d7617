/**
 * The connector legs of tool_search and tool_describe against the fixture gateway over real
 * loopback HTTP: the real GatewayClient, the real legs, the real engine.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { ConnectorExecutor } from '../../../src/connectors/connector-executor.js';
import { gatewayConnectorLegs } from '../../../src/connectors/connector-legs.js';
import { GatewayClient, type GatewayTimeouts } from '../../../src/connectors/gateway-client.js';
import {
  type FixtureGateway,
  type FixtureGatewayOptions,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';
import {
  buildSurface,
  CONTEXT,
  fakeConnectorBackend,
  mcpEntry,
  payloadOf,
} from '../bridge/bridge-fixtures.js';

/** Local tools that share "email" and "send" with a Gmail tool, but never say "gmail". */
const TRACKER = [
  mcpEntry('tracker', 'create_issue', 'Create an issue. Sends an email notification to the team.', {
    type: 'object',
    properties: { title: { type: 'string' } },
    required: ['title'],
  }),
  mcpEntry('tracker', 'list_issues', 'List issues in a project. Email digests are optional.'),
  mcpEntry('tracker', 'send_digest', 'Send the weekly email digest of a project.'),
  mcpEntry('mailer', 'send_email', 'Send an email from the team mailbox.'),
  mcpEntry('mailer', 'send_bulk_email', 'Send one email to many recipients.'),
];
const FILES = [
  mcpEntry('files', 'read_file', 'Read a file from disk.'),
  mcpEntry('files', 'write_file', 'Write a file to disk.'),
];
const LOCAL = [...TRACKER, ...FILES];

const GMAIL = {
  id: 'gmail',
  tools: [
    {
      slug: 'GMAIL_SEND_EMAIL',
      description: 'Send an email from your gmail account.',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to', 'subject'] },
    },
    { slug: 'GMAIL_FETCH_PROFILE', description: 'Fetch the gmail profile (prefixed twin).' },
    { slug: 'FETCH_PROFILE', description: 'Fetch the gmail profile (literal twin).' },
  ],
};

let gateway: FixtureGateway;
let warnings: string[];

async function start(options: FixtureGatewayOptions = {}): Promise<void> {
  gateway = await startFixtureGateway({
    connectors: [{ id: 'github', catalog: 'github.json', literal: ['get_me'] }, GMAIL],
    ...options,
  });
}

beforeEach(async () => {
  warnings = [];
  await start();
});

afterEach(async () => {
  await gateway.close();
});

function client(
  options: {
    baseUrl?: string | undefined;
    token?: string | undefined;
    timeouts?: Partial<GatewayTimeouts>;
  } = {},
): GatewayClient {
  return new GatewayClient({
    baseUrl: 'baseUrl' in options ? options.baseUrl : gateway.url,
    token: 'token' in options ? options.token : gateway.token,
    timeouts: { searchMs: 5000, schemasMs: 5000, executeMs: 5000, ...options.timeouts },
    retryDelayMs: 5,
  });
}

/** A surface with connectors in scope whose legs talk to the fixture gateway. */
function surface(gatewayClient: GatewayClient = client(), entries = LOCAL) {
  return buildSurface({
    entries,
    connectors: new ConnectorExecutor({ client: gatewayClient }),
    legs: gatewayConnectorLegs(gatewayClient, { warn: (message) => warnings.push(message) }),
  }).surface;
}

/** The same session with no connector legs: what an agent sees from local tools alone. */
function localOnly(entries = LOCAL) {
  return buildSurface({ entries, connectors: fakeConnectorBackend() }).surface;
}

const searchRequests = () => gateway.requests.filter((r) => r.path === '/v1/connectors/search');
const schemasRequests = () => gateway.requests.filter((r) => r.path === '/v1/connectors/schemas');

async function search(target: ReturnType<typeof surface>, args: Record<string, unknown>) {
  const result = await target.callTool('tool_search', args, CONTEXT);
  expect(result.isError).toBeUndefined();
  return { text: (result.content[0] as { text: string }).text, payload: payloadOf(result) };
}

function groups(payload: Record<string, unknown>): Array<{ query: string; matches: string[] }> {
  return payload.results as Array<{ query: string; matches: string[] }>;
}

describe('tool_search with connectors in scope', () => {
  it('merges connector hits into the ranking, records them and counts them in total_available', async () => {
    const { payload } = await search(surface(), { queries: ['github create issue'], limit: 5 });
    const [group] = groups(payload);
    expect(group!.matches).toContain('connectors__github__CREATE_ISSUE');
    expect(group!.matches.length).toBeLessThanOrEqual(5);
    const records = payload.tools as Record<string, Record<string, unknown>>;
    expect(records.connectors__github__CREATE_ISSUE).toEqual({
      source: 'connectors',
      source_name: 'github',
      description: gateway.tools.get('GITHUB_CREATE_ISSUE')!.description.slice(0, 500),
      required: expect.arrayContaining(['owner', 'repo', 'title']),
    });
    const connectorNames = Object.keys(records).filter((name) => name.startsWith('connectors__'));
    expect(connectorNames.length).toBeGreaterThan(0);
    expect(payload.total_available).toBe(LOCAL.length + connectorNames.length);
    expect(Object.keys(records).sort()).toEqual([...new Set(group!.matches)].sort());
  });

  it('sends one request with every query, and ranks each query over the local tools and its own hits', async () => {
    const queries = ['github create issue', 'read file', 'send gmail email'];
    const { payload } = await search(surface(), { queries, limit: 3 });
    expect(searchRequests().map((r) => r.body)).toEqual([
      { queries: queries.map((useCase) => ({ useCase })) },
    ]);
    const [github, files, gmail] = groups(payload);
    expect(github!.matches[0]).toBe('connectors__github__CREATE_ISSUE');
    expect(files!.matches[0]).toBe('mcp__files__read_file');
    expect(gmail!.matches[0]).toBe('connectors__gmail__SEND_EMAIL');
    for (const group of groups(payload)) expect(group.matches.length).toBeLessThanOrEqual(3);
  });

  it('does not crowd out a connector holding the rare word with local tools sharing a common one', async () => {
    const { payload } = await search(surface(), { queries: ['send gmail email'], limit: 2 });
    expect(groups(payload)[0]!.matches[0]).toBe('connectors__gmail__SEND_EMAIL');
    // Five local tools say "send" and "email"; locally alone they would fill the group.
    const local = await search(localOnly(), { queries: ['send email'], limit: 2 });
    expect(groups(local.payload)[0]!.matches).toHaveLength(2);
  });

  it('keeps only the prefixed twin when two slugs give one name, and warns once', async () => {
    const { payload } = await search(surface(), { queries: ['gmail fetch profile'] });
    const [group] = groups(payload);
    expect(group!.matches.filter((name) => name === 'connectors__gmail__FETCH_PROFILE')).toHaveLength(1);
    expect(
      (payload.tools as Record<string, { description: string }>).connectors__gmail__FETCH_PROFILE,
    ).toMatchObject({
      description: 'Fetch the gmail profile (prefixed twin).',
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('GMAIL_FETCH_PROFILE');
  });

  it('skips the gateway when every query already has `limit` local tools', async () => {
    const { payload } = await search(surface(), { queries: ['send email', 'file'], limit: 2 });
    expect(groups(payload).map((group) => group.matches.length)).toEqual([2, 2]);
    expect(searchRequests()).toEqual([]);
    expect(payload).not.toHaveProperty('connectors');
  });

  it('asks the gateway when a single query is short of `limit`', async () => {
    await search(surface(), { queries: ['send email', 'create a github issue'], limit: 2 });
    expect(searchRequests()).toHaveLength(1);
  });

  it('never reaches the gateway without manage_connections (connectors out of scope)', async () => {
    const gatewayClient = client();
    const { surface: outOfScope } = buildSurface({
      entries: LOCAL,
      legs: gatewayConnectorLegs(gatewayClient),
    });
    const { text } = await search(outOfScope, { queries: ['send gmail email'] });
    const baseline = await search(buildSurface({ entries: LOCAL }).surface, {
      queries: ['send gmail email'],
    });
    expect(text).toBe(baseline.text);
    const described = payloadOf(
      await outOfScope.callTool('tool_describe', { names: ['connectors__gmail__SEND_EMAIL'] }, CONTEXT),
    );
    expect(described.not_found).toEqual(['connectors__gmail__SEND_EMAIL']);
    expect(gateway.requests).toEqual([]);
  });

  it('answers through the BridgeSurface data method as the agent sees it', async () => {
    const target = surface();
    const data = await target.toolSearch({ queries: ['send gmail email'] });
    const { payload } = await search(target, { queries: ['send gmail email'] });
    expect(data).toEqual(payload);
  });
});

describe('tool_search when the gateway fails', () => {
  const ARGS = { queries: ['send gmail email', 'read file'], limit: 3 };

  async function degraded(target: ReturnType<typeof surface>) {
    const { payload } = await search(target, ARGS);
    const { connectors, ...rest } = payload;
    const local = await search(localOnly(), ARGS);
    // Local results stand exactly; only the status object is added, last.
    expect(JSON.stringify(rest)).toBe(local.text);
    expect(Object.keys(payload).at(-1)).toBe('connectors');
    return connectors as Record<string, unknown>;
  }

  it('is silent when the gateway has no connectors (404): byte-identical to local only', async () => {
    gateway.setMode('404');
    const { text } = await search(surface(), ARGS);
    expect(text).toBe((await search(localOnly(), ARGS)).text);
    expect(searchRequests()).toHaveLength(1);
  });

  it('is silent, and sends nothing, when no gateway is configured', async () => {
    const { text } = await search(surface(client({ baseUrl: undefined })), ARGS);
    expect(text).toBe((await search(localOnly(), ARGS)).text);
    expect(gateway.requests).toEqual([]);
  });

  it('says "unreachable" on a server error, a reset connection or an answer that is not the protocol', async () => {
    for (const mode of ['500', 'reset', 'garbage'] as const) {
      gateway.setMode(mode, { only: 'search', times: 1 });
      const status = await degraded(surface());
      expect(status).toMatchObject({ status: 'unavailable', reason: 'unreachable' });
      expect(String(status.hint)).toContain('Do not conclude');
    }
    // Search is never retried.
    expect(searchRequests()).toHaveLength(3);
  });

  it('says "sign_in_expired" when the gateway refuses the token', async () => {
    gateway.setMode('401', { code: 'TOKEN_EXPIRED' });
    expect(await degraded(surface())).toMatchObject({ status: 'unavailable', reason: 'sign_in_expired' });
    expect(await degraded(surface(client({ token: 'wrong' })))).toMatchObject({ reason: 'sign_in_expired' });
  });

  it('says "not_set_up" when nobody has signed in to the gateway yet, without sending anything', async () => {
    const status = await degraded(surface(client({ token: undefined })));
    expect(status).toMatchObject({ status: 'not_set_up' });
    expect(String(status.hint)).toContain('manage_connections');
    expect(gateway.requests).toEqual([]);
  });

  it('gives up after the search timeout and keeps the local results', async () => {
    gateway.setMode('slow', { only: 'search' });
    // The gateway never answers: only the client's search timeout ends the wait.
    const status = await degraded(surface(client({ timeouts: { searchMs: 150 } })));
    expect(status).toMatchObject({ status: 'unavailable', reason: 'unreachable' });
    expect(gateway.held).toBe(1);
  });

  it("stops at the caller's abort instead of waiting for the gateway", async () => {
    gateway.setMode('slow', { only: 'search' });
    const controller = new AbortController();
    const pending = surface().callTool('tool_search', ARGS, { ...CONTEXT, signal: controller.signal });
    // Abort once the gateway holds the search, so it is the abort that ends the wait.
    await expect.poll(() => gateway.held).toBe(1);
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(ToolbridgeError.is(error) && error.code).toBe('CANCELLED');
  });
});

describe('tool_describe with connectors in scope', () => {
  async function describeNames(target: ReturnType<typeof surface>, names: string[]) {
    const result = await target.callTool('tool_describe', { names }, CONTEXT);
    expect(result.isError).toBeUndefined();
    return payloadOf(result);
  }

  it('describes connector names from one schemas request, prefixed slug first, then the literal one', async () => {
    const payload = await describeNames(surface(), [
      'connectors__gmail__SEND_EMAIL',
      'mcp__files__read_file',
      'connectors__github__GET_ME',
      'connectors__gmail__FETCH_PROFILE',
      'connectors__gmail__GONE_TOOL',
      'connectors__broken',
    ]);
    expect(Object.keys(payload.tools as object)).toEqual([
      'connectors__gmail__SEND_EMAIL',
      'mcp__files__read_file',
      'connectors__github__GET_ME',
      'connectors__gmail__FETCH_PROFILE',
    ]);
    const tools = payload.tools as Record<string, { description: string; parameters: unknown }>;
    expect(tools.connectors__gmail__SEND_EMAIL).toEqual({
      description: 'Send an email from your gmail account.',
      parameters: GMAIL.tools[0]!.inputSchema,
    });
    expect(tools.connectors__gmail__FETCH_PROFILE!.description).toContain('prefixed twin');
    expect(tools.connectors__github__GET_ME!.description).toBe(gateway.tools.get('GET_ME')!.description);
    expect(payload.not_found).toEqual(['connectors__gmail__GONE_TOOL', 'connectors__broken']);
    expect(payload.hint).toContain('Re-run tool_search');
    expect(payload).not.toHaveProperty('errors');
    expect(payload).not.toHaveProperty('connectors');
    expect(schemasRequests()).toHaveLength(1);
    expect((schemasRequests()[0]!.body as { tools: string[] }).tools.slice(0, 2)).toEqual([
      'GMAIL_SEND_EMAIL',
      'SEND_EMAIL',
    ]);
  });

  it('sends nothing when no connector name is asked for', async () => {
    await describeNames(surface(), ['mcp__files__read_file', 'nope']);
    expect(gateway.requests).toEqual([]);
  });

  it('lists the names a failed leg could not answer under connectors, not in not_found or errors', async () => {
    gateway.setMode('500', { only: 'schemas' });
    const payload = await describeNames(surface(), [
      'connectors__gmail__SEND_EMAIL',
      'mcp__files__read_file',
      'connectors__broken',
    ]);
    expect(Object.keys(payload.tools as object)).toEqual(['mcp__files__read_file']);
    expect(payload.not_found).toEqual(['connectors__broken']);
    expect(payload).not.toHaveProperty('errors');
    expect(payload.connectors).toMatchObject({
      status: 'unavailable',
      reason: 'unreachable',
      names: ['connectors__gmail__SEND_EMAIL'],
    });
    // Schemas are retried once on a 5xx.
    expect(schemasRequests()).toHaveLength(2);
  });

  it('names an expired sign-in, a missing sign-in and a timeout', async () => {
    gateway.setMode('401', { only: 'schemas', times: 1 });
    expect((await describeNames(surface(), ['connectors__gmail__SEND_EMAIL'])).connectors).toMatchObject({
      reason: 'sign_in_expired',
      names: ['connectors__gmail__SEND_EMAIL'],
    });
    expect(
      (await describeNames(surface(client({ token: undefined })), ['connectors__gmail__SEND_EMAIL']))
        .connectors,
    ).toMatchObject({ status: 'not_set_up', names: ['connectors__gmail__SEND_EMAIL'] });

    gateway.setMode('slow', { only: 'schemas' });
    const slow = surface(client({ timeouts: { schemasMs: 150 } }));
    const payload = await describeNames(slow, ['connectors__gmail__SEND_EMAIL']);
    expect(payload.connectors).toMatchObject({
      reason: 'unreachable',
      names: ['connectors__gmail__SEND_EMAIL'],
    });
    expect(payload).not.toHaveProperty('not_found');
  });

  it('puts connector names in not_found when the gateway is dark', async () => {
    gateway.setMode('404');
    const payload = await describeNames(surface(), ['connectors__gmail__SEND_EMAIL']);
    expect(payload).toEqual({
      tools: {},
      not_found: ['connectors__gmail__SEND_EMAIL'],
      hint: 'Names in not_found are not currently available. Re-run tool_search to refresh.',
    });
  });
});

describe('search, describe and call a connector tool end to end', () => {
  it('finds, describes and runs connectors__gmail__SEND_EMAIL on the linked account', async () => {
    await gateway.close();
    await start({ connected: ['gmail'] });
    const target = surface();
    const found = payloadOf(await target.callTool('tool_search', { queries: ['send gmail email'] }, CONTEXT));
    const [name] = groups(found)[0]!.matches;
    expect(name).toBe('connectors__gmail__SEND_EMAIL');
    const described = payloadOf(await target.callTool('tool_describe', { names: [name] }, CONTEXT));
    expect(
      (described.tools as Record<string, { parameters: { required: string[] } }>)[name!]!.parameters.required,
    ).toEqual(['to', 'subject']);
    const args = { to: 'ada@example.com', subject: 'Hi' };
    const ran = payloadOf(
      await target.callTool('tool_call', { calls: [{ name, arguments: args }] }, CONTEXT),
    );
    expect(ran).toMatchObject({
      results: [
        { index: 0, name, response: { ran: 'GMAIL_SEND_EMAIL', arguments: args }, account: 'gmail-account' },
      ],
      success_count: 1,
    });
    expect(gateway.executions.map((run) => run.slug)).toEqual(['GMAIL_SEND_EMAIL']);
  });
});
