/**
 * Several accounts per connector app, end to end: a real host on loopback with the fixture
 * gateway, the SDK's real client as the agent. The agent links a second account under an alias,
 * runs tools under either account, renames one, and (with a UI) waits on a card for a named
 * account that is not linked yet.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCardView } from '../../../src/api/ui-api.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, InMemorySecretStore } from '../../../src/base/secret-store.js';
import { UNKNOWN_ACCOUNT_HINT } from '../../../src/connectors/connector-executor.js';
import type { Host } from '../../../src/host/host.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';
import { callJson, connectDefaultAgent, recordEvents, startHost } from '../../helpers/host-kit.js';
import { waitUntil } from '../../helpers/wait.js';

let dataDir: string;
let gateway: FixtureGateway;
let host: Host;
let agent: Client;
const opened: string[] = [];

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-accounts-'));
  gateway = await startFixtureGateway({ connected: ['github'] });
  opened.length = 0;
  const secrets = new InMemorySecretStore();
  await secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  host = await startHost(
    dataDir,
    { servers: [], connectors: { gatewayUrl: gateway.url, enabled: true } },
    { secretStore: secrets, policyOverride: 'allow', openUrl: (url) => opened.push(url) },
  );
  agent = await connectDefaultAgent(host, 'accounts-agent');
});

afterEach(async () => {
  await agent?.close();
  await host?.close();
  await gateway.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => callJson(agent, name, args);

const manage = (args: Record<string, unknown>) => call('manage_connections', args);
const getMe = (account?: string) => ({
  name: 'connectors__github__GET_ME',
  arguments: {},
  ...(account === undefined ? {} : { account }),
});
const renames = () => gateway.requests.filter((request) => request.path === '/v1/connectors/accounts/rename');

async function githubAccounts(): Promise<Array<Record<string, unknown>>> {
  const status = await manage({ action: 'status', connectors: ['github'] });
  return (status.connectors as Array<{ accounts: Array<Record<string, unknown>> }>)[0]!.accounts;
}

/** Links `github` account `alias` with no UI open: the agent gets the link, the user allows it. */
async function linkWork(alias = 'work'): Promise<void> {
  const answer = await manage({ action: 'connect', connectors: [{ name: 'github', alias }] });
  const [row] = answer.results as Array<Record<string, string>>;
  expect(row).toMatchObject({ connector: 'github', alias, status: 'initiated' });
  await allowInBrowser(row!.connect_url!);
}

describe('several accounts per app', () => {
  it('links a second account under an alias; entries run under the one they name, else the default', async () => {
    await linkWork();
    expect(await githubAccounts()).toEqual([
      { alias: 'github-account', default: true, connected: true, connectionStatus: 'active' },
      { alias: 'work', default: false, connected: true, connectionStatus: 'active' },
    ]);
    const batch = await call('tool_call', { calls: [getMe('work'), getMe()] });
    expect(batch).toMatchObject({
      success_count: 2,
      results: [
        { index: 0, account: 'work', response: { ran: 'GITHUB_GET_ME' } },
        { index: 1, account: 'github-account', response: { ran: 'GITHUB_GET_ME' } },
      ],
    });
    expect(gateway.executions.map((run) => run.account)).toEqual(['work', 'github-account']);
  });

  it('renames an account: the new alias runs, the old one is unknown, refusals name the aliases', async () => {
    await linkWork();
    expect(
      await manage({ action: 'rename', connectors: [{ name: 'github', alias: 'work', to: 'acme' }] }),
    ).toEqual({
      results: [{ connector: 'github', alias: 'acme', renamed_from: 'work', status: 'renamed' }],
      note: 'tool_call entries pick this account with "account": "acme".',
    });
    expect((await githubAccounts()).map((account) => account.alias)).toEqual(['github-account', 'acme']);

    const stale = await call('tool_call', { calls: [getMe('work')] });
    expect(stale.results).toEqual([
      {
        index: 0,
        name: 'connectors__github__GET_ME',
        error: {
          code: 'UNKNOWN_ACCOUNT',
          message: 'github has no account "work"; its accounts: github-account, acme.',
          connector: 'github',
          hint: UNKNOWN_ACCOUNT_HINT,
        },
      },
    ]);
    expect(await call('tool_call', { calls: [getMe('acme')] })).toMatchObject({
      results: [{ account: 'acme' }],
    });

    const sent = renames().length;
    expect(
      (await manage({ action: 'rename', connectors: [{ name: 'github', alias: 'nope', to: 'x' }] })).error,
    ).toBe('manage_connections: github has no account "nope"; its accounts: github-account, acme.');
    expect(
      (
        await manage({
          action: 'rename',
          connectors: [{ name: 'github', alias: 'acme', to: 'github-account' }],
        })
      ).error,
    ).toBe('manage_connections: github already has an account "github-account"; pick another alias.');
    expect(
      (await manage({ action: 'rename', connectors: [{ name: 'slack', alias: 'a', to: 'b' }] })).error,
    ).toContain('slack has no account "a"; it has no account yet.');
    // Refusals come from the list; only the one real rename reached the gateway.
    expect(renames()).toHaveLength(sent);

    gateway.setMode('404', { only: 'rename' });
    expect(
      await manage({ action: 'rename', connectors: [{ name: 'github', alias: 'acme', to: 'office' }] }),
    ).toMatchObject({ error: 'manage_connections: this connector gateway cannot rename accounts.' });
  });

  it('refuses an account on a local entry or with a bad alias, before anything runs', async () => {
    const error = async (calls: unknown[]) => {
      const result = (await agent.callTool({ name: 'tool_call', arguments: { calls } })) as CallToolResult;
      expect(result.isError).toBe(true);
      return String(JSON.parse((result.content[0] as { text: string }).text).error);
    };
    expect(await error([{ name: 'mcp__x__y', arguments: {}, account: 'work' }])).toContain(
      'only for connectors__ tools',
    );
    expect(await error([getMe('Work')])).toContain('"Work" is not valid');
    expect(gateway.executions).toEqual([]);
  });

  it('with a UI open, an entry for a named account that is not linked waits on a card for that account', async () => {
    // The account exists but the user has not allowed it yet.
    const started = await manage({ action: 'connect', connectors: [{ name: 'github', alias: 'side' }] });
    expect(started.results).toMatchObject([{ alias: 'side', status: 'initiated' }]);
    host.api.attachUi();
    const cardsOpened = recordEvents(host, 'cardOpened');
    const pending = call('tool_call', { calls: [getMe('side')] });
    await waitUntil(() => cardsOpened.length === 1, 'the connection card');
    const card = cardsOpened[0] as ConnectionCardView;
    expect(card.targets).toEqual([
      expect.objectContaining({ name: 'github', alias: 'side', kind: 'connector', state: 'initiated' }),
    ]);
    await host.api.resolveConnectionTarget(card.id, 'github', 'connect');
    expect(opened).toEqual([card.targets[0]!.connectUrl]);
    await allowInBrowser(opened[0]!);
    expect(await pending).toMatchObject({ success_count: 1, results: [{ account: 'side' }] });
    expect(gateway.connection('github', 'side').status).toBe('active');
    // The default account was never touched.
    expect(gateway.connection('github').connectionId).toBe('conn_github');
  });

  it('reconnect of a named account re-links only that one, and an unknown alias is refused', async () => {
    await linkWork();
    const connects = () =>
      gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/connectors/connections');
    const before = connects().length;
    expect(
      await manage({ action: 'reconnect', connectors: [{ name: 'github', alias: 'work' }] }),
    ).toMatchObject({
      results: [{ connector: 'github', alias: 'work', status: 'connected' }],
    });
    expect(connects()).toHaveLength(before);
    const forced = await manage({
      action: 'reconnect',
      connectors: [{ name: 'github', alias: 'work' }],
      force: true,
    });
    expect(connects().at(-1)?.body).toEqual({
      connectors: [{ connector: 'github', alias: 'work' }],
      reinitiate: true,
    });
    expect(forced.results).toMatchObject([{ alias: 'work', status: 'initiated' }]);
    expect(
      (await manage({ action: 'reconnect', connectors: [{ name: 'github', alias: 'home' }] })).error,
    ).toContain('github has no account "home"');
  });
});

describe('the account in approvals and the audit log', () => {
  const auditAccounts = async () =>
    (await fs.readFile(path.join(dataDir, 'audit.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { toolName: string; account?: unknown })
      .filter((line) => line.toolName === 'connectors__github__GET_ME')
      .map((line) => line.account);

  it('each entry’s audit line names its account; the default one by the alias the gateway reported', async () => {
    await linkWork();
    await call('tool_call', { calls: [getMe('work'), getMe()] });
    expect(gateway.executions.map((run) => run.account)).toEqual(['work', 'github-account']);
    expect(await auditAccounts()).toEqual([{ alias: 'work' }, { alias: 'github-account', default: true }]);
    const { entries } = await host.api.queryActivity({ toolName: 'connectors__github__GET_ME' });
    expect(entries.map((entry) => entry.account)).toEqual([
      { alias: 'github-account', default: true },
      { alias: 'work' },
    ]);
  });

  it('under ask, the card names the account before anything runs, and a denied entry is audited with it', async () => {
    await linkWork();
    await host.api.updateSettings({ defaultPolicy: 'ask' });
    const cards = recordEvents(host, 'cardOpened');
    const pending = call('tool_call', { calls: [getMe('work'), getMe()] });
    await waitUntil(() => cards.length === 1, 'the first approval card');
    expect(cards[0]).toMatchObject({
      kind: 'approval',
      toolName: 'connectors__github__GET_ME',
      account: { alias: 'work' },
    });
    expect(gateway.executions).toEqual([]);
    await host.api.resolveCard(cards[0]!.id, { action: 'deny' });
    await waitUntil(() => cards.length === 2, 'the second approval card');
    expect(cards[1]).toMatchObject({ account: { default: true } });
    await host.api.resolveCard(cards[1]!.id, { action: 'approve' });
    expect(await pending).toMatchObject({
      success_count: 1,
      results: [{ error: { code: 'DENIED' } }, { account: 'github-account' }],
    });
    expect(gateway.executions.map((run) => run.account)).toEqual(['github-account']);
    expect(await auditAccounts()).toEqual([{ alias: 'work' }, { alias: 'github-account', default: true }]);
  });

  it('"Always" on a card for account work covers the next call as work only; the default account asks again', async () => {
    await linkWork();
    await host.api.updateSettings({ defaultPolicy: 'ask' });
    const cards = recordEvents(host, 'cardOpened');
    const first = call('tool_call', { calls: [getMe('work')] });
    await waitUntil(() => cards.length === 1, 'the card for account work');
    expect(cards[0]).toMatchObject({ account: { alias: 'work' } });
    await host.api.resolveCard(cards[0]!.id, { action: 'always' });
    expect(await first).toMatchObject({ success_count: 1, results: [{ account: 'work' }] });

    // Saved with its account, and said so in the rules list.
    const onDisk = JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'));
    expect(onDisk.policies.rules).toMatchObject([
      { serverId: 'github', toolName: 'GET_ME', policy: 'allow', account: { alias: 'work' } },
    ]);
    const [rule] = await host.api.listPolicyRules();
    expect(rule).toMatchObject({
      name: 'connectors__github__GET_ME',
      account: { alias: 'work' },
      definition: 'current',
    });
    expect(rule!.description).toMatch(/^Always allow as account work, saved from an approval card on /);

    // The next call as work runs without a card.
    expect(await call('tool_call', { calls: [getMe('work')] })).toMatchObject({
      success_count: 1,
      results: [{ account: 'work' }],
    });
    expect(cards).toHaveLength(1);

    // The default account (and a call naming it by alias) is another account: it asks again.
    for (const [entry, account] of [
      [getMe(), { default: true }],
      [getMe('github-account'), { alias: 'github-account' }],
    ] as const) {
      const seen = cards.length;
      const pending = call('tool_call', { calls: [entry] });
      await waitUntil(() => cards.length === seen + 1, 'a card for another account');
      expect(cards.at(-1)).toMatchObject({ account });
      await host.api.resolveCard(cards.at(-1)!.id, { action: 'deny' });
      expect(await pending).toMatchObject({ results: [{ error: { code: 'DENIED' } }] });
    }
    expect(gateway.executions.map((run) => run.account)).toEqual(['work', 'work']);

    // Removing the rule takes back the session's copy too: work asks again.
    await host.api.removePolicyRule(rule!.id);
    const seen = cards.length;
    const again = call('tool_call', { calls: [getMe('work')] });
    await waitUntil(() => cards.length === seen + 1, 'a card for work after the rule was removed');
    await host.api.resolveCard(cards.at(-1)!.id, { action: 'approve' });
    expect(await again).toMatchObject({ success_count: 1, results: [{ account: 'work' }] });
  });
});
