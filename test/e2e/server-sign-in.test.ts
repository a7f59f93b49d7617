import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freeLoopbackPort,
  type OAuthFixture,
  startOAuthMcpServer,
} from '../fixtures/oauth/oauth-mcp-server.js';
import { resultText, setUpUi, shown } from './e2e-kit.js';

/**
 * Signing in to a remote MCP server whose authorization server does not let apps register
 * themselves: the person enters a pre-registered OAuth client in the Servers view (real
 * `toolbridge serve`, real Chromium), presses Sign in, allows access on the server's own page,
 * and the agent can call the server's tool. The client secret stays in the secret store.
 */

const SECRET = 'e2e-client-secret-CANARY-93ab';
const ui = setUpUi('server-sign-in', { policy: 'allow' });
let oauth: OAuthFixture;
let port: number;

beforeAll(async () => {
  port = await freeLoopbackPort();
  oauth = await startOAuthMcpServer({
    dynamicRegistration: false,
    preRegistered: {
      clientId: 'toolbridge-e2e',
      clientSecret: SECRET,
      redirectUris: [`http://127.0.0.1:${port}/oauth/callback`],
    },
  });
});

afterAll(async () => {
  await oauth?.close();
});

const status = (id: string) => ui.page.getByTestId(`server-status-${id}`);

describe('a remote server with a pre-registered OAuth client', () => {
  it('is added with its client in the URL form, signs in through the browser, and serves the agent', async () => {
    await ui.page.getByTestId('nav-servers').click();
    await ui.page.getByTestId('add-server-button').click();
    await ui.page.getByTestId('add-tab-url').click();
    await ui.page.getByTestId('server-url').fill(oauth.url);
    await ui.page.getByTestId('server-id').fill('intranet');
    await ui.page.getByText('OAuth client (only for servers').click();
    await ui.page.getByTestId('server-oauth-client-id').fill('toolbridge-e2e');
    await ui.page.getByTestId('server-oauth-client-secret').fill(SECRET);
    await ui.page.getByTestId('server-oauth-redirect-port').fill(String(port));
    await ui.page.getByTestId('server-submit').click();
    await expect
      .poll(() => status('intranet').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('needs-auth');

    const [tab] = await Promise.all([
      ui.context.waitForEvent('page'),
      ui.page.getByTestId('server-sign-in-intranet').click(),
    ]);
    await tab.waitForLoadState();
    expect(await tab.textContent('h1')).toContain('toolbridge-e2e');
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.waitForLoadState();
    expect(await tab.textContent('body')).toContain('Signed in');
    await tab.close();
    await expect
      .poll(() => status('intranet').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('connected');
    const call = await ui.agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__intranet__whoami', arguments: {} }] },
    });
    expect(resultText(call)).toContain('signed in as toolbridge-e2e');
    expect(oauth.registrations).toEqual([]);
  });

  it("shows the client in the server's panel without its secret, and saving keeps the secret", async () => {
    await ui.page.getByTestId('server-expand-intranet').click();
    const form = ui.page.getByTestId('server-oauth-intranet');
    await shown(form);
    expect(await form.getByTestId('server-oauth-client-id').inputValue()).toBe('toolbridge-e2e');
    expect(await form.getByTestId('server-oauth-redirect-port').inputValue()).toBe(String(port));
    expect(await form.getByTestId('server-oauth-client-secret').inputValue()).toBe('');
    expect(await form.textContent()).toContain('One is kept in the secret store');
    await ui.page.getByTestId('server-oauth-save-intranet').click();
    await expect
      .poll(() => status('intranet').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('connected');
    // A refresh after the save still authenticates with the kept secret.
    oauth.expireAccessTokens();
    const call = await ui.agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__intranet__whoami', arguments: {} }] },
    });
    expect(resultText(call)).toContain('signed in as toolbridge-e2e');
    expect(oauth.tokenRequests.map((form) => form.get('client_secret'))).toEqual([SECRET, SECRET]);

    expect(await ui.page.content()).not.toContain(SECRET);
    // Settings, the audit log and every other file but the secret store itself.
    const files = await readdir(ui.serve.dataDir, { withFileTypes: true });
    const read = files
      .filter((file) => file.isFile() && file.name !== 'secrets.json')
      .map((file) => file.name);
    expect(read).toEqual(expect.arrayContaining(['settings.json', 'audit.jsonl']));
    for (const name of read) {
      expect(await readFile(join(ui.serve.dataDir, name), 'utf8'), name).not.toContain(SECRET);
    }
    expect(await readFile(join(ui.serve.dataDir, 'settings.json'), 'utf8')).toContain('toolbridge-e2e');
    expect(ui.serve.stderr.join('\n')).not.toContain(SECRET);
  });
});
