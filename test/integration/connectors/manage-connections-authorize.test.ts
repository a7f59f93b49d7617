import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCardView } from '../../../src/api/ui-api.js';
import type { Host } from '../../../src/host/host.js';
import { consentInBrowser, type OAuthFixture } from '../../fixtures/oauth/oauth-mcp-server.js';
import { callJson, recordEvents } from '../../helpers/host-kit.js';
import { type OAuthHost, remoteServer, startOAuthHost } from '../../helpers/oauth-host.js';
import { waitUntil } from '../../helpers/wait.js';

let remote: OAuthHost | undefined;
let fixture: OAuthFixture;
let host: Host;
let agent: Client;
const opened: string[] = [];

beforeEach(async () => {
  opened.length = 0;
  // No connector gateway: the MCP actions of manage_connections need none.
  remote = await startOAuthHost({
    servers: (url) => [remoteServer('remote', 'Remote', url), remoteServer('later', 'Later', url, false)],
    host: { openUrl: (url) => opened.push(url) },
  });
  ({ fixture, host, agent } = remote);
});

afterEach(() => remote?.close());

const status = (id = 'remote') => host.servers.snapshotOf(id).status;
const authorize = (name = 'remote') =>
  callJson(agent, 'manage_connections', { action: 'authorize', connectors: [{ name, mcp: true }] });

async function whoami(): Promise<CallToolResult> {
  return (await agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] },
  })) as CallToolResult;
}

describe('manage_connections authorize', () => {
  it('headless: answers at once with the sign-in link; after consent the tools are callable', async () => {
    expect(status()).toBe('needs-auth');
    // Nothing to search or call yet: only manage_connections is listed.
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(['manage_connections']);

    const answer = await authorize();
    const [row] = answer.results as Array<Record<string, string>>;
    expect(row).toMatchObject({ server: 'remote', status: 'initiated' });
    const url = new URL(row!.connect_url!);
    expect(url.origin).toBe(fixture.origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(row!.message).toContain('Show the user this link');
    expect(opened).toEqual([]);

    expect((await consentInBrowser(url)).status).toBe(200);
    await waitUntil(() => status() === 'connected', 'the server to connect');
    await waitUntil(() => host.catalog.entries.some((entry) => entry.serverId === 'remote'), 'its tools');
    const after = await whoami();
    expect(after.isError, JSON.stringify(after)).not.toBe(true);
    expect(JSON.stringify(after.content)).toContain('signed in as');
    expect(await authorize()).toEqual({
      results: [{ server: 'remote', status: 'unchanged', message: 'Already connected.' }],
    });
  });

  it('with a UI: a card blocks the call; Connect opens the sign-in page; after consent the call returns connected', async () => {
    host.api.attachUi();
    const cardsOpened = recordEvents(host, 'cardOpened');
    const cardsResolved = recordEvents(host, 'cardResolved');
    const pending = authorize();
    await waitUntil(() => cardsOpened.length === 1, 'the card');
    const card = cardsOpened[0] as ConnectionCardView;
    expect(card.agentId).toBe('default');
    const [row] = card.targets;
    expect(row).toMatchObject({ name: 'remote', kind: 'mcp', state: 'initiated' });
    // issue #14 (M12): the card names the scopes the sign-in asks for.
    expect(row!.message).toBe(`Sign in to Remote at ${fixture.url}, allowing the scopes mcp:tools.`);
    expect(new URL(row!.connectUrl!).origin).toBe(fixture.origin);

    // The person presses Connect: the host opens the sign-in page, where they allow access.
    await host.api.resolveConnectionTarget(card.id, 'remote', 'connect');
    expect(opened).toEqual([row!.connectUrl]);
    expect((await consentInBrowser(opened[0]!)).status).toBe(200);

    const answer = await pending;
    expect(answer.results).toEqual([
      {
        server: 'remote',
        status: 'connected',
        message: 'Signed in. Its tools are available through tool_search and tool_call.',
      },
    ]);
    // The answer never carries the link; the card closed itself.
    expect(JSON.stringify(answer)).not.toContain(fixture.origin);
    await waitUntil(() => cardsResolved.length === 1, 'the card to close');
    expect(await host.api.listCards()).toEqual([]);
    await waitUntil(() => host.catalog.entries.some((entry) => entry.serverId === 'remote'), 'its tools');
    const result = await whoami();
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    expect(JSON.stringify(result.content)).toContain('signed in as');
  });

  it('with a UI: Skip on the card answers skipped and leaves the server signed out', async () => {
    host.api.attachUi();
    const cardsOpened = recordEvents(host, 'cardOpened');
    const pending = authorize();
    await waitUntil(() => cardsOpened.length === 1, 'the card');
    await host.api.resolveConnectionTarget(cardsOpened[0]!.id, 'remote', 'skip');
    expect((await pending).results).toEqual([
      expect.objectContaining({ server: 'remote', status: 'skipped' }),
    ]);
    expect(status()).toBe('needs-auth');
    expect(opened).toEqual([]);
  });

  it('headless: enabling a remote server the user configured runs at once and says what to do next', async () => {
    expect(status('later')).toBe('disabled');
    const answer = await callJson(agent, 'manage_connections', {
      action: 'enable',
      connectors: [{ name: 'later', mcp: true }],
    });
    expect(answer.results).toEqual([
      expect.objectContaining({
        server: 'later',
        status: 'enabled',
        message: expect.stringContaining('call authorize'),
      }),
    ]);
    await waitUntil(() => status('later') === 'needs-auth', 'the enabled server to ask for sign-in');
    expect((await authorize('later')).results).toEqual([
      expect.objectContaining({ server: 'later', status: 'initiated', connect_url: expect.any(String) }),
    ]);
  });
});
