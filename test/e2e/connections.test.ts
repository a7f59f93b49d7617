import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio } from '../../renderer/lib/logo-color.js';
import { type FixtureGateway, startFixtureGateway } from '../fixtures/gateway/fixture-gateway.js';
import { type OAuthFixture, startOAuthMcpServer } from '../fixtures/oauth/oauth-mcp-server.js';
import {
  attributeOf,
  connectAgent,
  gone,
  navigate,
  openUi,
  reportFailure,
  resultText,
  SCREENSHOTS,
  shown,
  textOf,
  type UiSession,
} from './e2e-kit.js';

/**
 * Issue #16, the Connections view end to end: a real `toolbridge serve`, the fixture connector
 * gateway with two apps (GitHub linked, Notion not), a remote MCP server that needs sign-in,
 * real Chromium and the SDK's real client as the agent. Tests run in order on one host.
 */

let gateway: FixtureGateway;
let oauth: OAuthFixture;
let ui: UiSession;
let context: BrowserContext;
let page: Page;
let agent: Client;

beforeAll(async () => {
  gateway = await startFixtureGateway({
    connectors: [
      { id: 'github', catalog: 'github.json' },
      { id: 'notion', catalog: 'notion.json' },
    ],
    connected: ['github'],
  });
  oauth = await startOAuthMcpServer();
  ui = await openUi({ serveArgs: ['--policy', 'allow'] });
  ({ context, page } = ui);
  await page.goto(ui.serve.uiUrl);
  agent = await connectAgent(ui.serve);
});

afterEach(reportFailure('connections', () => ui));

afterAll(async () => {
  await agent?.close();
  await ui?.close();
  await gateway?.close();
  await oauth?.close();
});

const app = (id: string) => page.getByTestId(`connection-${id}`);

/** Opens a link the view opens in a new tab and presses Allow there, as a person would. */
async function allowInNewTab(click: () => Promise<void>): Promise<void> {
  const [tab] = await Promise.all([context.waitForEvent('page'), click()]);
  await tab.waitForLoadState();
  await tab.getByRole('button', { name: 'Allow' }).click();
  await tab.waitForLoadState();
  await tab.close();
}

describe('issue #16: the Connections view', () => {
  it('without a gateway says where to add one, and its link goes there', async () => {
    await navigate(page, 'connections');
    const empty = page.getByTestId('connections-state-not_configured');
    await shown(empty);
    expect(await empty.textContent()).toContain('Add your connector gateway in Settings → Connectors');
    await page.getByTestId('connections-to-settings').click();
    await attributeOf(page.getByTestId('nav-settings'), 'aria-current').toBe('page');
    // Set it up there, as the link says; the view then lists the gateway's apps on its own.
    const section = page.getByTestId('settings-connectors');
    await section.getByTestId('settings-gateway-url').fill(gateway.url);
    await section.getByTestId('settings-connectors-save').click();
    await navigate(page, 'connections');
    await shown(page.getByTestId('connections-state-signed_out'));
    await navigate(page, 'settings');
    await section.getByTestId('settings-gateway-token').fill(gateway.token);
    await section.getByRole('button', { name: 'Sign in' }).click();
    await shown(section.getByTestId('settings-gateway-sign-out'));
  });

  it('lists both apps with logo, state and accounts, and a server that needs sign-in', async () => {
    await navigate(page, 'connections');
    await shown(app('github'));
    await shown(app('notion'));
    expect(await app('github').locator('svg.app-logo').count()).toBe(1);
    // GitHub's near-black brand colour is drawn lighter on the dark theme's panel, at 3:1 or more.
    const logoOnPanel = () =>
      app('github').evaluate((panel) => {
        const hex = (css: string) =>
          `#${(css.match(/\d+/g) ?? [])
            .slice(0, 3)
            .map((v) => Number(v).toString(16).padStart(2, '0'))
            .join('')}`;
        const logo = panel.querySelector('svg.app-logo')!;
        return [hex(getComputedStyle(logo).color), hex(getComputedStyle(panel).backgroundColor)] as const;
      });
    expect((await logoOnPanel())[0]).toBe('#181717');
    await page.emulateMedia({ colorScheme: 'dark' });
    const [logo, panel] = await logoOnPanel();
    await page.emulateMedia({ colorScheme: 'light' });
    expect(logo).not.toBe('#181717');
    expect(contrastRatio(logo, panel)).toBeGreaterThanOrEqual(3);
    await textOf(page.getByTestId('connection-state-github')).toBe('connected');
    await textOf(page.getByTestId('connection-state-notion')).toBe('not connected');
    await textOf(page.getByTestId('connection-account-github-github-account-state')).toBe('connected');
    await textOf(page.getByTestId('connection-connect-notion')).toBe('Connect');
    await textOf(page.getByTestId('connection-connect-github')).toBe('Reconnect');
  });

  it('Connect opens the gateway page; after Allow the app shows connected without a reload', async () => {
    await allowInNewTab(() => page.getByTestId('connection-connect-notion').click());
    await textOf(page.getByTestId('connection-state-notion')).toBe('connected');
    expect(gateway.connection('notion').status).toBe('active');
  });

  it('renames an alias inline; a bad alias is refused before anything is sent', async () => {
    const renames = () =>
      gateway.requests.filter((request) => request.path.endsWith('accounts/rename')).length;
    await page.getByTestId('connection-account-github-github-account-rename-start').click();
    const form = 'connection-account-github-github-account-rename';
    await page.getByTestId(`${form}-input`).fill('Work Account');
    await page.getByTestId(`${form}-save`).click();
    await textOf(page.getByTestId(`${form}-error`)).toContain('1–32 lower-case letters');
    expect(renames()).toBe(0);
    await page.getByTestId(`${form}-input`).fill('work');
    await page.getByTestId(`${form}-save`).click();
    await shown(page.getByTestId('connection-account-github-work'));
    expect(gateway.accounts('github').map((account) => account.alias)).toEqual(['work']);
  });

  it('a connector tool set to Deny here is refused when the agent calls it', async () => {
    const name = 'connectors__github__CREATE_ISSUE';
    await page.getByTestId('connection-tools-toggle-github').click();
    await page.getByTestId('connection-tools-filter-github').fill('create issue');
    const row = page.getByTestId(`connector-tool-${name}`);
    await shown(row);
    await page.getByTestId(`connector-tool-policy-${name}`).selectOption('deny');
    await attributeOf(page.getByTestId(`connector-tool-policy-effective-${name}`), 'data-effective').toBe(
      'deny',
    );
    const result = await agent.callTool({
      name: 'tool_call',
      arguments: { name, arguments: { title: 'x' } },
    });
    expect(resultText(result)).toContain('DENIED');
    expect(gateway.executions).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'connections.png') });
  });

  it('stays readable at the window’s 760 px minimum', async () => {
    await page.setViewportSize({ width: 760, height: 900 });
    const layout = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    expect(layout.overflow).toBeLessThanOrEqual(0);
    const connect = await page.getByTestId('connection-connect-github').boundingBox();
    expect(connect).not.toBeNull();
    expect(connect!.x + connect!.width).toBeLessThanOrEqual(760);
    await page.screenshot({ path: join(SCREENSHOTS, 'connections-760.png') });
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('a remote MCP server that needs sign-in shows one amber line and Sign in, here and in Servers', async () => {
    await navigate(page, 'servers');
    await page.getByTestId('add-server-button').click();
    await page.getByTestId('add-tab-url').click();
    await page.getByTestId('server-url').fill(oauth.url);
    await page.getByTestId('server-id').fill('remote');
    await page.getByTestId('server-submit').click();
    await attributeOf(page.getByTestId('server-status-remote'), 'data-status', 30_000).toBe('needs-auth');
    // Issue #16: a state to act on, not a red error; its text once, the action beside it.
    const notice = page.getByTestId('server-sign-in-needed-remote');
    expect(await notice.getAttribute('class')).toContain('warn');
    expect(await page.getByTestId('server-error-remote').count()).toBe(0);
    const text = (await notice.textContent()) ?? '';
    expect(text.match(/Sign in to remote/g)).toHaveLength(1);
    expect(text).not.toContain('Press Sign in to sign in to this server');
    expect(await notice.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    await navigate(page, 'connections');
    const server = page.getByTestId('connections-server-remote');
    await shown(server);
    await allowInNewTab(() => server.getByTestId('server-sign-in-remote').click());
    await gone(server, 30_000);
    // The row leaves once the server stops needing sign-in; its tools are listed once it has connected.
    await navigate(page, 'servers');
    await attributeOf(page.getByTestId('server-status-remote'), 'data-status', 30_000).toBe('connected');
    const whoami = () =>
      agent.callTool({ name: 'tool_call', arguments: { name: 'mcp__remote__whoami', arguments: {} } });
    await expect.poll(async () => resultText(await whoami()), { timeout: 15_000 }).toContain('signed in as');
  });
});
