import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeRealCall } from '../../../src/approvals/real-call.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { connectorEntry } from '../../../src/bridge/connector-routing.js';
import type { ConnectorBackend, ToolExecutor } from '../../../src/bridge/types.js';
import {
  CARD_HINT,
  ConnectorExecutor,
  type ConnectSurface,
} from '../../../src/connectors/connector-executor.js';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';

let gateway: FixtureGateway;

function executor(
  options: { surface?: ConnectSurface; baseUrl?: string | undefined; token?: string } = {},
): ConnectorExecutor {
  const client = new GatewayClient({
    baseUrl: 'baseUrl' in options ? options.baseUrl : gateway.url,
    token: options.token ?? gateway.token,
    timeouts: { executeMs: 5000 },
    retryDelayMs: 10,
  });
  return new ConnectorExecutor(
    options.surface === undefined ? { client } : { client, surface: options.surface },
  );
}

const executeRequests = () => gateway.requests.filter((r) => r.path === '/v1/connectors/execute');
const sentSlugs = () =>
  executeRequests().map((r) => (r.body as { tools: Array<{ tool: string }> }).tools[0]?.tool);

beforeEach(async () => {
  gateway = await startFixtureGateway({
    connectors: [
      {
        id: 'github',
        catalog: 'github.json',
        literal: ['get_me'],
        blocked: ['GITHUB_DELETE_REPOSITORY'],
        failing: ['GITHUB_FORK_REPOSITORY'],
      },
      { id: 'slack', catalog: 'slack-web-api.json' },
    ],
    connected: ['github'],
  });
});

afterEach(async () => {
  await gateway.close();
});

describe('ConnectorExecutor.execute', () => {
  it('sends the prefixed slug with the arguments and returns the response and account', async () => {
    const args = { owner: 'octo', repo: 'hello', title: 'Bug', labels: ['x'] };
    const outcome = await executor().execute({ name: 'connectors__github__CREATE_ISSUE' }, args);
    expect(outcome).toEqual({
      response: { ran: 'GITHUB_CREATE_ISSUE', connector: 'github', arguments: args },
      account: 'github-account',
    });
    expect(executeRequests().map((r) => r.body)).toEqual([
      { tools: [{ connector: 'github', tool: 'GITHUB_CREATE_ISSUE', arguments: args }] },
    ]);
  });

  it('runs the literal slug a name is exactly the name of, without sending the prefixed one first', async () => {
    const outcome = await executor().execute({ name: 'connectors__github__GET_ME' }, {});
    expect(outcome).toMatchObject({ response: { ran: 'GET_ME' } });
    expect(sentSlugs()).toEqual(['GET_ME']);
  });

  it('reports TOOL_NOT_FOUND when neither slug exists, and sends nothing to run', async () => {
    const outcome = await executor().execute({ name: 'connectors__github__NO_SUCH_TOOL' }, {});
    expect(outcome).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
    expect(sentSlugs()).toEqual([]);
  });

  it('issue #12: runs nothing for a name that only spells a tool differently, and names the tool', async () => {
    for (const [name, canonical] of [
      ['connectors__GitHub__CREATE_ISSUE', 'connectors__github__CREATE_ISSUE'],
      ['connectors__GITHUB__CREATE_ISSUE', 'connectors__github__CREATE_ISSUE'],
      ['connectors__github__GITHUB_CREATE_ISSUE', 'connectors__github__CREATE_ISSUE'],
      ['connectors__notion__SLACK_CHAT_POST_MESSAGE', 'connectors__slack__CHAT_POST_MESSAGE'],
    ]) {
      const outcome = await executor().execute({ name: name! }, {});
      expect(outcome, name).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
      if ('error' in outcome) expect(outcome.error.message).toContain(`'${canonical}'`);
    }
    expect(sentSlugs()).toEqual([]);
  });

  it('runs exactly the slug the caller resolved, with no second guess', async () => {
    const outcome = await executor().execute({ name: 'connectors__github__GET_ME' }, {}, { slug: 'GET_ME' });
    expect(outcome).toMatchObject({ response: { ran: 'GET_ME' } });
    expect(gateway.requests.filter((r) => r.path === '/v1/connectors/schemas')).toEqual([]);
  });

  it('passes TOOL_NOT_ALLOWED and PROVIDER_ERROR through without retrying', async () => {
    const blocked = await executor().execute({ name: 'connectors__github__DELETE_REPOSITORY' }, {});
    expect(blocked).toEqual({
      error: { code: 'TOOL_NOT_ALLOWED', message: 'GITHUB_DELETE_REPOSITORY is disabled for this account.' },
    });
    const failing = await executor().execute({ name: 'connectors__github__FORK_REPOSITORY' }, {});
    expect(failing).toMatchObject({ error: { code: 'PROVIDER_ERROR' } });
    expect(sentSlugs()).toEqual(['GITHUB_DELETE_REPOSITORY', 'GITHUB_FORK_REPOSITORY']);
  });

  it('on a card surface asks for a connection card and shows no link', async () => {
    const outcome = await executor().execute(
      { name: 'connectors__slack__CHAT_POST_MESSAGE' },
      { channel: 'C1' },
    );
    expect(outcome).toEqual({
      error: {
        code: 'CONNECTION_REQUIRED',
        message: 'Connect your slack account to use SLACK_CHAT_POST_MESSAGE.',
        connector: 'slack',
        connect_card_available: true,
        hint: CARD_HINT,
        connection_id: gateway.connection('slack').connectionId!,
      },
    });
    expect(CARD_HINT).toContain('manage_connections');
    expect(JSON.stringify(outcome)).not.toContain('http');
    expect(gateway.executions).toEqual([]);
  });

  it('without a card surface hands over the connect link, which works once the user allows access', async () => {
    const run = () =>
      executor({ surface: 'link' }).execute({ name: 'connectors__slack__CHAT_POST_MESSAGE' }, {});
    const outcome = await run();
    expect(outcome).toMatchObject({
      error: { code: 'CONNECTION_REQUIRED', connector: 'slack', hint: 'Open the link and allow access.' },
    });
    const error = 'error' in outcome ? outcome.error : undefined;
    expect(error?.connect_card_available).toBeUndefined();
    expect(typeof error?.connect_url).toBe('string');

    await allowInBrowser(String(error?.connect_url));
    expect(await run()).toMatchObject({
      response: { ran: 'SLACK_CHAT_POST_MESSAGE' },
      account: 'slack-account',
    });
  });

  it('turns a transport failure on the execute request into PROVIDER_ERROR for this entry only', async () => {
    gateway.setMode('reset', { only: 'execute', times: 2 });
    const outcome = await executor().execute({ name: 'connectors__github__GET_ME' }, {});
    expect(outcome).toMatchObject({ error: { code: 'PROVIDER_ERROR', reason: 'unreachable' } });
    if ('error' in outcome) expect(outcome.error.message).toMatch(/^The connector gateway request failed: /);
    // The request and its one retry.
    expect(executeRequests()).toHaveLength(2);
    expect(await executor().execute({ name: 'connectors__github__GET_ME' }, {})).toMatchObject({
      response: { ran: 'GET_ME' },
    });
  });

  it('reports a refused sign-in as PROVIDER_ERROR with the reason, never the token', async () => {
    const outcome = await executor({ token: 'stale-token' }).execute(
      { name: 'connectors__github__GET_ME' },
      {},
    );
    expect(outcome).toMatchObject({ error: { code: 'PROVIDER_ERROR', reason: 'sign_in_expired' } });
    expect(JSON.stringify(outcome)).not.toContain('stale-token');
    expect(JSON.stringify(outcome)).not.toContain(gateway.token);
  });

  it('treats a dark gateway as no connectors at all', async () => {
    expect(
      await executor({ baseUrl: undefined }).execute({ name: 'connectors__github__GET_ME' }, {}),
    ).toEqual({
      error: {
        code: 'TOOL_NOT_FOUND',
        message: 'Unknown tool: connectors are not available in this session.',
      },
    });
    gateway.setMode('404');
    expect(await executor().execute({ name: 'connectors__github__GET_ME' }, {})).toMatchObject({
      error: { code: 'TOOL_NOT_FOUND' },
    });
  });

  it('refuses a malformed name without contacting the gateway', async () => {
    expect(await executor().execute({ name: 'connectors__broken' }, {})).toMatchObject({
      error: { code: 'TOOL_NOT_FOUND' },
    });
    expect(executeRequests()).toEqual([]);
  });

  it('lets the caller cancel with CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await executor()
      .execute({ name: 'connectors__github__GET_ME' }, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'CANCELLED')).toBe(true);
    expect(executeRequests()).toEqual([]);
  });
});

describe('ConnectorExecutor as the bridge’s ConnectorBackend', () => {
  it('plugs into routeRealCall and carries outcomes as structured results', async () => {
    const backend: ConnectorBackend = executor();
    const local: ToolExecutor = {
      callTool: async () => {
        throw new Error('a connector entry must not reach the local executor');
      },
    };
    const routed = routeRealCall(local, () => backend);
    const context = { agentId: 'agent-1' };
    const ok = await routed.callTool(
      connectorEntry('connectors__github__GET_ME', 'github', 'GET_ME'),
      {},
      context,
    );
    expect(ok.isError).toBeUndefined();
    expect(ok.structuredContent).toMatchObject({ response: { ran: 'GET_ME' }, account: 'github-account' });
    const needsLink = await routed.callTool(
      connectorEntry('connectors__slack__CHAT_POST_MESSAGE', 'slack', 'CHAT_POST_MESSAGE'),
      {},
      context,
    );
    expect(needsLink.isError).toBe(true);
    expect(needsLink.structuredContent).toMatchObject({
      error: { code: 'CONNECTION_REQUIRED', connect_card_available: true },
    });
  });
});
