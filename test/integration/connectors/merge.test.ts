import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import { describeConnectors, searchConnectors } from '../../../src/connectors/merge.js';
import { createToolIndex } from '../../../src/search/index.js';
import type { IndexEntry } from '../../../src/search/types.js';
import { type FixtureGateway, startFixtureGateway } from '../../fixtures/gateway/fixture-gateway.js';

let gateway: FixtureGateway;

function client(
  overrides: { baseUrl?: string | undefined; token?: string | undefined; searchMs?: number } = {},
): GatewayClient {
  return new GatewayClient({
    baseUrl: 'baseUrl' in overrides ? overrides.baseUrl : gateway.url,
    token: 'token' in overrides ? overrides.token : gateway.token,
    timeouts: { searchMs: overrides.searchMs ?? 5000, schemasMs: 5000 },
    retryDelayMs: 10,
  });
}

beforeEach(async () => {
  gateway = await startFixtureGateway({
    connectors: [
      { id: 'github', catalog: 'github.json', literal: ['get_me'] },
      { id: 'notion', catalog: 'notion.json' },
      {
        id: 'gmail',
        tools: [
          { slug: 'GMAIL_FETCH_PROFILE', description: 'Fetch the gmail profile (prefixed twin)' },
          { slug: 'FETCH_PROFILE', description: 'Fetch the gmail profile (literal twin)' },
          {
            slug: 'GMAIL_SEND_EMAIL',
            description: 'Send an email',
            inputSchema: { type: 'object', required: ['to'] },
          },
        ],
      },
    ],
  });
});

afterEach(async () => {
  await gateway.close();
});

describe('searchConnectors', () => {
  it('gives each query its own documents from one gateway request', async () => {
    const leg = await searchConnectors(client(), ['create a github issue', 'retrieve a notion page'], {
      warn: () => {},
    });
    expect(leg.status).toBeUndefined();
    expect(leg.documents[0]?.map((d) => d.name)).toContain('connectors__github__CREATE_ISSUE');
    expect(leg.documents[1]?.map((d) => d.name)).toContain('connectors__notion__RETRIEVE_A_PAGE');
    const issue = leg.documents[0]?.find((d) => d.name === 'connectors__github__CREATE_ISSUE');
    expect(issue).toMatchObject({ server: 'github', slug: 'GITHUB_CREATE_ISSUE' });
    expect(issue?.inputSchema).toMatchObject({
      required: expect.arrayContaining(['owner', 'repo', 'title']),
    });
    expect(gateway.requests.filter((r) => r.path === '/v1/connectors/search')).toHaveLength(1);
  });

  it('keeps the prefixed twin of a real gateway answer and warns once', async () => {
    const warnings: string[] = [];
    const leg = await searchConnectors(client(), ['gmail fetch profile'], { warn: (m) => warnings.push(m) });
    const profile = leg.documents[0]?.filter((d) => d.name === 'connectors__gmail__FETCH_PROFILE');
    expect(profile?.map((d) => d.slug)).toEqual(['GMAIL_FETCH_PROFILE']);
    expect(warnings).toHaveLength(1);
  });

  it('is silent and empty when dark', async () => {
    gateway.setMode('404');
    expect(await searchConnectors(client(), ['a', 'b'])).toEqual({ documents: [[], []] });
    expect(await searchConnectors(client({ baseUrl: undefined }), ['a'])).toEqual({ documents: [[]] });
  });

  it('names each other failure in a status object and returns no documents', async () => {
    gateway.setMode('500', { times: 1 });
    expect(await searchConnectors(client(), ['a'])).toMatchObject({
      documents: [[]],
      status: { status: 'unavailable', reason: 'unreachable' },
    });
    gateway.setMode('401', { times: 1, code: 'TOKEN_EXPIRED' });
    expect(await searchConnectors(client(), ['a'])).toMatchObject({
      status: { status: 'unavailable', reason: 'sign_in_expired' },
    });
    expect(await searchConnectors(client({ token: undefined }), ['a'])).toMatchObject({
      status: { status: 'not_set_up' },
    });
    gateway.setMode('slow', { times: 1 });
    expect(await searchConnectors(client({ searchMs: 300 }), ['a'])).toMatchObject({
      status: { status: 'unavailable', reason: 'unreachable' },
    });
  });
});

describe('describeConnectors', () => {
  it('asks for every candidate once, in order, and maps slugs back to names', async () => {
    const leg = await describeConnectors(client(), [
      'connectors__gmail__SEND_EMAIL',
      'connectors__gmail__FETCH_PROFILE',
      'connectors__github__GET_ME',
      'connectors__gmail__GONE_TOOL',
      'connectors__broken',
    ]);
    const request = gateway.requests.find((r) => r.path === '/v1/connectors/schemas');
    expect(request?.body).toEqual({
      tools: [
        'GMAIL_SEND_EMAIL',
        'SEND_EMAIL',
        'GMAIL_FETCH_PROFILE',
        'FETCH_PROFILE',
        'GITHUB_GET_ME',
        'GET_ME',
        'GMAIL_GONE_TOOL',
        'GONE_TOOL',
      ],
    });
    expect(leg.tools.map((t) => [t.name, t.slug])).toEqual([
      ['connectors__gmail__SEND_EMAIL', 'GMAIL_SEND_EMAIL'],
      // Both twins exist; the prefixed one wins.
      ['connectors__gmail__FETCH_PROFILE', 'GMAIL_FETCH_PROFILE'],
      // Only the literal slug exists.
      ['connectors__github__GET_ME', 'GET_ME'],
    ]);
    expect(leg.tools[0]?.inputSchema).toEqual({ type: 'object', required: ['to'] });
    expect(leg.notFound).toEqual(['connectors__gmail__GONE_TOOL', 'connectors__broken']);
    expect(leg.status).toBeUndefined();
  });

  it('issue #12: describes a slug only under its exact name, and names it for a misspelling', async () => {
    const leg = await describeConnectors(client(), [
      'connectors__github__GMAIL_SEND_EMAIL',
      'connectors__gmail__SEND_EMAIL',
    ]);
    expect(leg.tools.map((t) => [t.name, t.slug])).toEqual([
      ['connectors__gmail__SEND_EMAIL', 'GMAIL_SEND_EMAIL'],
    ]);
    expect(leg.notFound).toEqual(['connectors__github__GMAIL_SEND_EMAIL']);
    expect(leg.misnamed).toEqual({ connectors__github__GMAIL_SEND_EMAIL: 'connectors__gmail__SEND_EMAIL' });
    const request = gateway.requests.find((r) => r.path === '/v1/connectors/schemas');
    expect(request?.body).toEqual({ tools: ['GITHUB_GMAIL_SEND_EMAIL', 'GMAIL_SEND_EMAIL', 'SEND_EMAIL'] });
  });

  it('reports every name not found when dark', async () => {
    gateway.setMode('404');
    expect(await describeConnectors(client(), ['connectors__gmail__SEND_EMAIL'])).toEqual({
      tools: [],
      notFound: ['connectors__gmail__SEND_EMAIL'],
    });
  });

  it('names the unanswered names in the status when the leg fails, after one retry', async () => {
    gateway.setMode('500');
    const leg = await describeConnectors(client(), ['connectors__gmail__SEND_EMAIL', 'connectors__broken']);
    expect(leg).toEqual({
      tools: [],
      notFound: ['connectors__broken'],
      status: expect.objectContaining({
        status: 'unavailable',
        reason: 'unreachable',
        names: ['connectors__gmail__SEND_EMAIL'],
      }),
    });
    expect(gateway.requests.filter((r) => r.path === '/v1/connectors/schemas')).toHaveLength(2);
  });
});

describe('connector documents in the engine', () => {
  // Local tools that share "email" with the query but not the app's name.
  const local: IndexEntry[] = [
    {
      name: 'mcp__tracker__create_issue',
      server: 'tracker',
      description: 'Create an issue. Sends an email notification to the team.',
    },
    {
      name: 'mcp__tracker__list_issues',
      server: 'tracker',
      description: 'List issues in a project. Email digests are optional.',
    },
    {
      name: 'mcp__tracker__archive_project',
      server: 'tracker',
      description: 'Archive a project and its issues.',
    },
  ];

  it('ranks local and connector tools as one corpus, so the app named in the query wins', async () => {
    const query = 'send gmail email';
    const leg = await searchConnectors(client(), [query], { warn: () => {} });
    const index = createToolIndex([...local, ...leg.documents[0]!]);
    const { matches } = index.search(query, { limit: 5 });
    expect(matches[0]).toBe('connectors__gmail__SEND_EMAIL');
  });

  it('lets one limit cover both legs', async () => {
    const query = 'create a github issue';
    const leg = await searchConnectors(client(), [query], { warn: () => {} });
    const { matches } = createToolIndex([...local, ...leg.documents[0]!]).search(query, { limit: 3 });
    expect(matches).toHaveLength(3);
    expect(matches).toContain('connectors__github__CREATE_ISSUE');
  });
});
