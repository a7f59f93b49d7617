import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type OAuthFixture, startOAuthMcpServer } from '../fixtures/oauth/oauth-mcp-server.js';
import { gone, navigate, resultText, SCREENSHOTS, setUpUi, shown, textOf } from './e2e-kit.js';

/**
 * Connectors end to end: a real `toolbridge serve` (policy allow), the fixture connector
 * gateway set up from the Settings view, real Chromium and the SDK's real client. A call to an
 * unlinked app waits behind a connection card; the person connects it on the gateway's own
 * authorization page (a new tab) or skips it. Tests run in order and share one host.
 */

const ui = setUpUi('connectors', { policy: 'allow', gateway: { connected: ['notion'] } });
let oauth: OAuthFixture | undefined;

afterAll(async () => {
  await oauth?.close();
});

const openView = (view: string) => navigate(ui.page, view);

const callTool = (name: string, args: Record<string, unknown>) =>
  ui.agent.callTool({ name: 'tool_call', arguments: { name, arguments: args } }, undefined, {
    timeout: 120_000,
  });

describe('connectors in the web UI', () => {
  it('Settings → Connectors sets the gateway and signs in; agents get connector tools', async () => {
    const searchDescription = async () =>
      (await ui.agent.listTools()).tools.find((tool) => tool.name === 'tool_search')?.description ?? '';
    // manage_connections is always there (its MCP actions need no gateway); connector tools are not.
    expect((await ui.agent.listTools()).tools.map((tool) => tool.name)).toContain('manage_connections');
    expect(await searchDescription()).not.toContain('connectors__');
    await openView('settings');
    const section = ui.page.getByTestId('settings-connectors');
    await section.getByTestId('settings-gateway-url').fill(ui.gateway.url);
    await section.getByTestId('settings-connectors-save').click();
    await expect
      .poll(() => section.getByTestId('settings-gateway-sign-in').textContent())
      .toContain('not signed in');
    await section.getByTestId('settings-gateway-token').fill(ui.gateway.token);
    await section.getByRole('button', { name: 'Sign in' }).click();
    await shown(section.getByTestId('settings-gateway-sign-out'));
    expect(await section.getByTestId('settings-gateway-sign-in').textContent()).toContain('signed in');
    // The token never comes back to the page.
    expect(await ui.page.content()).not.toContain(ui.gateway.token);
    await expect.poll(searchDescription, { timeout: 15_000 }).toContain('connectors__');
  });

  it('issue #16: Tiers counts the connector tools, searched at the gateway and not listed', async () => {
    await openView('tiers');
    const offered = ui.gateway.tools.size;
    await textOf(ui.page.getByTestId('tier-connectors')).toContain(
      `${offered} connector tools (3 apps), searched at the gateway, not listed.`,
    );
    // The agent's picture counts them: local deferred + connector tools.
    const note = (await ui.page.getByTestId('tier-deferred-note').textContent()) ?? '';
    const local = Number(/^(\d+) local \+/.exec(note)?.[1]);
    expect(note).toContain(`+ ${offered} connector`);
    expect(Number((await ui.page.getByTestId('tier-deferred-count').textContent())?.replace(/,/g, ''))).toBe(
      local + offered,
    );
    expect(await ui.page.getByTestId('tier-explainer').textContent()).not.toContain(
      'sees every tool directly',
    );
  });

  it('a call to an unlinked app waits on a card; Connect and Allow run it and return its result', async () => {
    await openView('cards');
    const call = callTool('connectors__github__ADD_ISSUE_COMMENT', { body: 'hello' });
    const row = ui.page.getByTestId('card-target-github');
    await shown(row);
    // Issue #16: the row names the app and says what is needed and for which tool, without jargon.
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain("GitHub isn't connected. connectors__github__ADD_ISSUE_COMMENT needs it.");
    expect(rowText).not.toContain('initiated');
    await textOf(ui.page.getByTestId('card-connect-github')).toBe('Connect and run');
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'connection-card.png') });

    const [tab] = await Promise.all([
      ui.context.waitForEvent('page'),
      ui.page.getByTestId('card-connect-github').click(),
    ]);
    await tab.waitForLoadState();
    expect(await tab.textContent('h1')).toContain('github');
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.getByText('Connected github').waitFor();
    await tab.close();

    const text = resultText(await call);
    expect(text).toContain('GITHUB_ADD_ISSUE_COMMENT');
    expect(text).not.toContain('CONNECTION_REQUIRED');
    expect(ui.gateway.executions.map((run) => run.slug)).toEqual(['GITHUB_ADD_ISSUE_COMMENT']);
    await gone(row);
  });

  it('Skip returns CONNECTION_REQUIRED marked skipped by the user', async () => {
    const call = callTool('connectors__slack__CHAT_POST_MESSAGE', { text: 'hi' });
    const row = ui.page.getByTestId('card-target-slack');
    await shown(row);
    await ui.page.getByTestId('card-skip-slack').click();
    const text = resultText(await call);
    expect(text).toContain('CONNECTION_REQUIRED');
    expect(text).toContain('"skipped_by_user":true');
    await gone(row);
  });

  it('manage_connections connect from the agent opens the same card', async () => {
    const call = ui.agent.callTool(
      { name: 'manage_connections', arguments: { action: 'connect', connectors: ['slack'] } },
      undefined,
      { timeout: 120_000 },
    );
    const row = ui.page.getByTestId('card-target-slack');
    await shown(row);
    await ui.page.getByTestId('card-skip-slack').click();
    expect(JSON.parse(resultText(await call)).results).toEqual([{ connector: 'slack', status: 'skipped' }]);
  });

  it('connect with an alias links a second account, named on the card; tool_call runs under it', async () => {
    const call = ui.agent.callTool(
      {
        name: 'manage_connections',
        arguments: { action: 'connect', connectors: [{ name: 'github', alias: 'work' }] },
      },
      undefined,
      { timeout: 120_000 },
    );
    const row = ui.page.getByTestId('card-target-github');
    await shown(row);
    expect(await row.textContent()).toContain('GitHub (work)');
    const [tab] = await Promise.all([
      ui.context.waitForEvent('page'),
      ui.page.getByTestId('card-connect-github').click(),
    ]);
    await tab.waitForLoadState();
    expect(await tab.textContent('h1')).toContain('"work"');
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.getByText('Connected github').waitFor();
    await tab.close();
    expect(JSON.parse(resultText(await call)).results).toEqual([
      { connector: 'github', alias: 'work', status: 'connected' },
    ]);
    await gone(row);

    // Under ask, the approval card says which account the call runs as, before Approve.
    const setDefaultPolicy = async (policy: 'ask' | 'allow') => {
      await openView('settings');
      await ui.page.getByTestId('settings-default-policy').selectOption(policy);
      await ui.page.getByTestId('settings-save').click();
      await shown(ui.page.getByText('Saved', { exact: true }));
    };
    await setDefaultPolicy('ask');
    await openView('cards');
    const executed = ui.gateway.executions.length;
    const ran = ui.agent.callTool(
      {
        name: 'tool_call',
        arguments: { calls: [{ name: 'connectors__github__GET_ME', arguments: {}, account: 'work' }] },
      },
      undefined,
      { timeout: 120_000 },
    );
    const card = ui.page.locator('[data-card]');
    await shown(card.getByTestId('card-account'));
    expect(await card.getByTestId('card-tool').textContent()).toBe('connectors__github__GET_ME');
    expect(await card.getByTestId('card-account').textContent()).toBe('as account work');
    expect(ui.gateway.executions).toHaveLength(executed);
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'approval-card-account.png') });
    await card.getByTestId('card-always').click();
    expect(JSON.parse(resultText(await ran)).results).toEqual([expect.objectContaining({ account: 'work' })]);
    expect(ui.gateway.executions.at(-1)).toMatchObject({ slug: 'GITHUB_GET_ME', account: 'work' });
    await gone(card);

    // The Activity drawer names the account the call ran as.
    await openView('activity');
    await ui.page.getByTestId('activity-row').first().click();
    expect(await ui.page.getByTestId('activity-account').textContent()).toBe('work');

    // "Always" held for account work only: the next call as work runs without a card (under ask
    // a card would keep it waiting past the timeout), a call as the default account asks again.
    await openView('cards');
    const getMe = (account?: string) =>
      ui.agent.callTool(
        {
          name: 'tool_call',
          arguments: {
            calls: [{ name: 'connectors__github__GET_ME', arguments: {}, ...(account ? { account } : {}) }],
          },
        },
        undefined,
        { timeout: 30_000 },
      );
    expect(JSON.parse(resultText(await getMe('work'))).results).toEqual([
      expect.objectContaining({ account: 'work' }),
    ]);
    expect(await card.count()).toBe(0);
    const byDefault = getMe();
    await shown(card.getByTestId('card-account'));
    expect(await card.getByTestId('card-account').textContent()).toBe('as the default account');
    await card.getByTestId('card-deny').click();
    expect(resultText(await byDefault)).toContain('DENIED');
    expect(ui.gateway.executions.at(-1)).toMatchObject({ account: 'work' });

    // Settings → Approval rules says which account the rule holds for.
    await openView('settings');
    const rule = ui.page.getByTestId('policy-rules').locator('tr[data-name="connectors__github__GET_ME"]');
    await shown(rule);
    expect(await rule.getByTestId('policy-rule-account').textContent()).toBe('as account work');
    expect(await rule.getByTestId('policy-rule-description').textContent()).toMatch(
      /^Always allow as account work, saved from an approval card on \d{4}-\d\d-\d\d\. It matches the tool's current definition\.$/,
    );
    await setDefaultPolicy('allow');
  });

  it('manage_connections install shows the exact command on a card and adds the server on Approve', async () => {
    await openView('servers');
    await ui.page.getByTestId('server-remove-memory').click();
    await ui.page.getByTestId('server-remove-confirm-memory').click();
    await gone(ui.page.getByTestId('server-memory'));
    await openView('cards');
    const call = ui.agent.callTool(
      {
        name: 'manage_connections',
        arguments: { action: 'install', connectors: [{ name: 'memory', mcp: true }] },
      },
      undefined,
      { timeout: 120_000 },
    );
    const row = ui.page.getByTestId('card-target-memory');
    await shown(row);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('server-memory/dist/index.js');
    expect(text).toContain('MEMORY_FILE_PATH');
    await ui.page.getByTestId('card-connect-memory').click();
    expect(JSON.parse(resultText(await call)).results).toEqual([
      expect.objectContaining({ server: 'memory', status: 'installed' }),
    ]);
    await openView('servers');
    await shown(ui.page.getByTestId('server-memory'));
  });

  it('manage_connections authorize: the card opens the sign-in page; after Allow the server is callable', async () => {
    oauth = await startOAuthMcpServer();
    await openView('servers');
    await ui.page.getByTestId('add-server-button').click();
    await ui.page.getByTestId('add-tab-url').click();
    await ui.page.getByTestId('server-url').fill(oauth.url);
    await ui.page.getByTestId('server-id').fill('remote');
    await ui.page.getByTestId('server-submit').click();
    const status = ui.page.getByTestId('server-status-remote');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('needs-auth');

    await openView('cards');
    const call = ui.agent.callTool(
      {
        name: 'manage_connections',
        arguments: { action: 'authorize', connectors: [{ name: 'remote', mcp: true }] },
      },
      undefined,
      { timeout: 120_000 },
    );
    const row = ui.page.getByTestId('card-target-remote');
    await shown(row);
    expect(await row.textContent()).toContain(`Sign in to remote at ${oauth.url}`);
    const [tab] = await Promise.all([
      ui.context.waitForEvent('page'),
      ui.page.getByTestId('card-connect-remote').click(),
    ]);
    await tab.waitForLoadState();
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.waitForLoadState();
    await tab.close();

    expect(JSON.parse(resultText(await call)).results).toEqual([
      expect.objectContaining({ server: 'remote', status: 'connected' }),
    ]);
    await gone(row);
    expect(resultText(await callTool('mcp__remote__whoami', {}))).toContain('signed in as');
    await openView('servers');
    await expect.poll(() => status.getAttribute('data-status')).toBe('connected');
  });
});
