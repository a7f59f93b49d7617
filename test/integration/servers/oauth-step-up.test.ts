import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/host.js';
import { consentInBrowser, type OAuthFixture } from '../../fixtures/oauth/oauth-mcp-server.js';

import { type OAuthHost, remoteServer, startOAuthHost } from '../../helpers/oauth-host.js';
import { waitUntil } from '../../helpers/wait.js';

let remote: OAuthHost | undefined;
let fixture: OAuthFixture;
let host: Host;
let agent: Client;

const status = () => host.servers.snapshotOf('remote').status;

async function callWhoami(): Promise<CallToolResult> {
  return (await agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] },
  })) as CallToolResult;
}

async function signIn(): Promise<URL> {
  const { authorizationUrl } = await host.api.authorizeServer('remote');
  const url = new URL(authorizationUrl);
  await consentInBrowser(url);
  await waitUntil(() => status() === 'connected', 'the server to connect');
  await waitUntil(() => host.catalog.entries.some((entry) => entry.serverId === 'remote'), 'its tools');
  return url;
}

beforeAll(async () => {
  // Listing tools needs mcp:tools (the 401's scope); calling one needs mcp:write as well.
  remote = await startOAuthHost({ fixture: { stepUpScope: 'mcp:write' }, settings: { version: 1 } });
  ({ fixture, host, agent } = remote);
});

afterAll(() => remote?.close());

describe('issue #14: step-up sign-in on 403 insufficient_scope', () => {
  it('issue #14: the first sign-in asks for the scope of the 401 only', async () => {
    const url = await signIn();
    expect(url.searchParams.get('scope')).toBe('mcp:tools');
  });

  it('issue #14: a call refused with insufficient_scope tells the agent and the person which scopes to allow', async () => {
    const result = await callWhoami();
    const text = JSON.stringify(result.content);
    expect(text).toContain('needs more access than the sign-in granted');
    expect(text).toContain('mcp:tools mcp:write');
    expect(text).not.toContain('not a valid MCP tool result');
    await waitUntil(() => status() === 'needs-auth', 'needs-auth');
    const [view] = await host.api.listServers();
    expect(view?.lastError).toContain(
      'Sign in to Remote again to allow more access (scopes mcp:tools mcp:write)',
    );
    expect(fixture.stepUpRefusals).toBe(1);
  });

  it('issue #14: signing in again asks for the union of the scopes, and the call then works', async () => {
    const url = await signIn();
    expect(url.searchParams.get('scope')).toBe('mcp:tools mcp:write');
    const result = await callWhoami();
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    expect(JSON.stringify(result.content)).toContain('with mcp:tools mcp:write');
    expect(fixture.stepUpRefusals).toBe(1);
    expect(fixture.authorizeRequests).toHaveLength(2);
  });
});

describe('issue #14: step-up while connecting', () => {
  let lister: OAuthHost | undefined;

  afterAll(() => lister?.close());

  it('issue #14: a tools/list refused with insufficient_scope leaves the server in needs-auth naming the scopes; Sign in again connects it', async () => {
    lister = await startOAuthHost({
      fixture: { stepUpScope: 'mcp:list', stepUpMethod: 'tools/list' },
      servers: (url) => [remoteServer('lister', 'Lister', url)],
      settings: { version: 1 },
    });
    const { fixture: listing, host: listingHost } = lister;
    const listerStatus = () => listingHost.servers.snapshotOf('lister');
    const first = new URL((await listingHost.api.authorizeServer('lister')).authorizationUrl);
    expect(first.searchParams.get('scope')).toBe('mcp:tools');
    await consentInBrowser(first);
    await waitUntil(
      () => listing.stepUpRefusals === 1 && listerStatus().status === 'needs-auth',
      'the step-up',
    );
    expect(listerStatus().lastError).toContain('allow more access (scopes mcp:tools mcp:list)');

    const second = new URL((await listingHost.api.authorizeServer('lister')).authorizationUrl);
    expect(second.searchParams.get('scope')).toBe('mcp:tools mcp:list');
    await consentInBrowser(second);
    await waitUntil(() => listerStatus().status === 'connected', 'the server to connect');
    expect(listerStatus().tools.map((tool) => tool.name)).toEqual(['whoami']);
  });
});
