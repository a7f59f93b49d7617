import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  attributeOf,
  connectAgent,
  gone,
  navigate,
  ROOT,
  resultText,
  SCREENSHOTS,
  setUpUi,
  shown,
  textOf,
} from './e2e-kit.js';

/**
 * The web UI end to end: a real `toolbridge serve` (policy ask, fresh data folder, real MCP
 * servers), the built renderer in real Chromium, and an agent on the SDK's real client. Nothing
 * stubs window.toolbridge. Tests run in order and share one host.
 */

const ui = setUpUi('web-ui', { policy: 'ask', signIn: false, agent: false });
let agent: Client;
let folder: string;
const cspViolations: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolbridge-e2e-files-'));
  await writeFile(join(folder, 'hello.txt'), 'hello from the e2e folder\n');
  await mkdir(join(folder, 'notes'));
  await ui.page.exposeFunction('reportCspViolation', (text: string) => cspViolations.push(text));
  await ui.page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
});

afterAll(async () => {
  await agent?.close();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

const openView = (view: string) => navigate(ui.page, view);

async function screenshot(view: string): Promise<void> {
  await ui.page.evaluate(() => window.scrollTo(0, 0));
  await ui.page.screenshot({ path: join(SCREENSHOTS, `${view}.png`) });
}

describe('web mode security', () => {
  it('signs in with the launch secret and removes it from the address bar', async () => {
    const response = await ui.page.goto(ui.serve.uiUrl);
    await shown(ui.page.getByTestId('nav-servers'));
    expect(ui.page.url()).not.toContain('secret');
    expect(ui.page.url()).not.toContain(new URL(ui.serve.uiUrl).hash.slice('#secret='.length));
    expect(await ui.page.evaluate(() => window.location.href)).toBe(`${ui.serve.origin}/`);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a replay of the launch secret with 401', async () => {
    const secret = new URL(ui.serve.uiUrl).hash.slice('#secret='.length);
    const response = await fetch(`${ui.serve.origin}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Toolbridge-CSRF': '1', Origin: ui.serve.origin },
      body: JSON.stringify({ secret }),
    });
    expect(response.status).toBe(401);
  });

  it('refuses a WebSocket without the session cookie, even from our Origin', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${ui.serve.port}/api/ws`, {
        headers: { Origin: ui.serve.origin },
      });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('the socket opened without a cookie')));
      ws.once('error', reject);
    });
    expect(status).toBe(401);
  });

  it('blocks an injected inline script (CSP) and keeps working after a reload via the cookie', async () => {
    expect(ui.pageErrors).toEqual([]);
    const ran = await ui.page.evaluate(() => {
      const marker = window as unknown as { injected?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      // An allowed inline script runs as it is appended: nothing to wait for.
      document.body.append(script);
      return marker.injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolations.some((v) => v.startsWith('script-src'))).toBe(true);
    // The console reports the blocked script; that error is this test's own doing.
    ui.pageErrors.length = 0;
    cspViolations.length = 0;
    await ui.page.reload();
    await shown(ui.page.getByTestId('nav-servers'));
    expect(ui.page.url()).toBe(`${ui.serve.origin}/`);
  });
});

describe('servers', () => {
  it('adds the filesystem server through the form; it connects and lists its tools', async () => {
    await openView('servers');
    await ui.page.getByTestId('add-server-button').click();
    const command = `${process.execPath} ${join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')} ${folder}`;
    await ui.page.getByTestId('server-command').fill(command);
    await ui.page.getByTestId('server-id').fill('files');
    await ui.page.getByTestId('server-submit').click();
    // The review shows exactly what will run before anything runs.
    const review = ui.page.getByTestId('server-review');
    await textOf(review).toContain(process.execPath);
    await textOf(review).toContain(folder);
    await ui.page.getByTestId('server-submit').click();

    const row = ui.page.getByTestId('server-files');
    await shown(row);
    await attributeOf(ui.page.getByTestId('server-status-files'), 'data-status', 30_000).toBe('connected');
    await textOf(ui.page.getByTestId('server-tool-count-files')).not.toBe('0 tools');
    await ui.page.getByTestId('server-expand-files').click();
    await shown(ui.page.getByTestId('tool-mcp__files__list_directory'));
    await shown(ui.page.getByTestId('tool-mcp__files__read_text_file'));
    await ui.page.getByTestId('tool-schema-toggle-mcp__files__read_text_file').click();
    await textOf(ui.page.getByTestId('tool-schema-mcp__files__read_text_file')).toContain('"path"');
  });
});

describe('servers, imported', () => {
  it('imports a pasted Claude Desktop config; its server connects', async () => {
    const memory = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
    const config = { mcpServers: { notes: { command: process.execPath, args: [memory] } } };
    await ui.page.getByTestId('add-server-button').click();
    await ui.page.getByTestId('add-tab-import').click();
    await ui.page.getByTestId('import-text').fill(JSON.stringify(config, null, 2));
    await ui.page.getByTestId('import-submit').click();
    // Reviewed first (issue #12), started on Confirm.
    await textOf(ui.page.getByTestId('import-program-notes')).toContain(memory);
    await ui.page.getByTestId('import-confirm').click();
    await shown(ui.page.getByTestId('server-notes'));
    await attributeOf(ui.page.getByTestId('server-status-notes'), 'data-status', 30_000).toBe('connected');
  });

  it('disables and re-enables a server from its switch', async () => {
    await ui.page.getByTestId('server-enabled-notes').click();
    await attributeOf(ui.page.getByTestId('server-status-notes'), 'data-status').toBe('disabled');
    await ui.page.getByTestId('server-enabled-notes').click();
    await attributeOf(ui.page.getByTestId('server-status-notes'), 'data-status', 30_000).toBe('connected');
  });
});

describe('tiers', () => {
  /** The listing budget rule: min(listing cap, floor(context × threshold%)). */
  const budgetFor = (context: number, pct: number, cap: number) =>
    Math.min(cap, Math.floor((context * pct) / 100));

  async function readTier() {
    const form = await ui.page.getByTestId('tier-form').getAttribute('data-form');
    const tier = Number(await ui.page.getByTestId('tier-value').getAttribute('data-tier'));
    const budget = Number(await ui.page.getByTestId('tier-budget').getAttribute('data-budget'));
    const used = Number((await ui.page.getByTestId('tier-listing-tokens').textContent())?.replace(/,/g, ''));
    const context = Number(
      (await ui.page.getByTestId('tier-context-value').textContent())?.replace(/\D/g, ''),
    );
    return { form, tier, budget, used, context };
  }

  it('moving the context-length slider changes the tier and listing form as the rules say', async () => {
    await openView('settings');
    const pct = Number(await ui.page.getByLabel('Listing budget, % of context').inputValue());
    const cap = Number(await ui.page.getByLabel('Listing budget cap, tokens').inputValue());
    await openView('tiers');
    const slider = ui.page.getByTestId('tier-slider');
    const seen = new Map<string, number>();

    for (const step of ['120', '60', '30', '0']) {
      await slider.fill(step);
      await expect
        .poll(async () => {
          const now = await readTier();
          return now.budget === budgetFor(now.context, pct, cap);
        })
        .toBe(true);
      const now = await readTier();
      seen.set(step, now.tier);
      // Tier 1 lists names (full, names or mixed); tier 2 collapses to groups or lists nothing.
      expect(now.tier === 1 ? ['full', 'names', 'mixed'] : ['groups', 'none']).toContain(now.form);
      if (now.form !== 'none') expect(now.used).toBeLessThanOrEqual(now.budget);
      if (step === '120') {
        expect(now.context).toBe(2_000_000);
        expect(now.form).toBe('full');
      }
      if (step === '0') {
        expect(now.context).toBe(2_000);
        expect(now.budget).toBe(budgetFor(2_000, pct, cap));
        expect(now.tier).toBe(2);
      }
    }
    expect(seen.get('120')).toBe(1);
    await textOf(ui.page.getByTestId('tier-description')).toContain('tool_');
    await slider.fill('80');
    await screenshot('tiers');
  });
});

describe('playground', () => {
  it('search shows ranked results per query with the explanation', async () => {
    await openView('playground');
    await ui.page.getByTestId('playground-query-0').fill('list files in a directory');
    await ui.page.getByTestId('playground-add-query').click();
    await ui.page.getByTestId('playground-query-1').fill('remember an entity');
    await ui.page.getByTestId('playground-add-query').click();
    await ui.page.getByTestId('playground-query-2').fill('list files in zorblat');
    await ui.page.getByTestId('playground-search').click();

    const first = ui.page.getByTestId('result-group-0');
    await textOf(first).toContain('list files in a directory');
    await textOf(ui.page.getByTestId('result-group-1')).toContain('remember an entity');
    const matches = first.getByTestId('result-match');
    expect(await matches.count()).toBeGreaterThan(1);
    const names = await matches.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-name')));
    expect(names.slice(0, 5).some((n) => n?.endsWith('__list_directory'))).toBe(true);
    const scores = await first
      .getByTestId('match-score')
      .evaluateAll((nodes) => nodes.map((n) => Number(n.textContent)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    await textOf(first.getByTestId('explain-terms')).toContain('list');
    await textOf(first.getByTestId('match-terms').first()).toMatch(/\d\.\d\d/);
    await shown(first.getByTestId('explain-gate'));
    // issue #15: every word's fate, with its reason; the list opens from the word chips.
    const words = first.getByTestId('explain-words');
    await words.locator('summary').click();
    const fates = await words
      .getByTestId('explain-word')
      .evaluateAll((nodes) =>
        nodes.map((n) => `${n.textContent?.split(' ')[0]}:${n.getAttribute('data-reason')}`),
      );
    expect(fates).toEqual([
      'list:scored',
      'files:scored',
      'in:common-english',
      'a:common-english',
      'directory:scored',
    ]);
    await textOf(words.getByTestId('explain-word').nth(2)).toContain('commonest English words');
    // A name where an app is named empties the result, and the page says why.
    const absent = ui.page.getByTestId('result-group-2');
    await textOf(absent.getByTestId('explain-unknown')).toContain('zorblat');
    await textOf(absent.getByTestId('explain-unknown')).toContain('after "in", where its phrase ends');
    expect(await absent.getByTestId('result-match').count()).toBe(0);
    expect(await absent.locator('[data-testid="explain-word"][data-fate="unknown"]').count()).toBe(1);
    await screenshot('playground');
  });
});

describe('approvals', () => {
  const listCall = (name: string) => ({
    name: 'tool_call',
    arguments: { calls: [{ name, arguments: { path: folder } }] },
  });

  const noDecisionCardLeft = () =>
    expect.poll(() => ui.page.locator('[data-card]').count(), { timeout: 15_000 }).toBe(0);

  it('an agent call under ask opens a card; Approve gives the agent the result', async () => {
    agent = await connectAgent(ui.serve);
    await openView('cards');
    const pending = agent.callTool(listCall('mcp__files__list_directory'), undefined, { timeout: 60_000 });
    const card = ui.page.locator('[data-card]').first();
    await shown(card, 20_000);
    await textOf(card.getByTestId('card-tool')).toBe('mcp__files__list_directory');
    await textOf(card.getByTestId('card-arguments')).toContain(folder);
    await textOf(ui.page.getByTestId('nav-cards-count')).toBe('1');
    await screenshot('cards');
    await card.getByTestId('card-approve').click();
    const result = await pending;
    expect(result.isError).not.toBe(true);
    expect(resultText(result)).toContain('hello.txt');
    await gone(card);
  });

  it('Deny with a message gives the agent an error carrying that message', async () => {
    const pending = agent.callTool(listCall('mcp__files__list_directory'), undefined, { timeout: 60_000 });
    const card = ui.page.locator('[data-card]').first();
    await shown(card, 20_000);
    await card.getByTestId('card-deny-message').fill('Not that folder, use notes/ instead');
    await card.getByTestId('card-deny').click();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Not that folder, use notes/ instead');
    await noDecisionCardLeft();
  });

  it('Enter approves and Esc denies the focused card', async () => {
    const first = agent.callTool(listCall('mcp__files__list_directory'), undefined, { timeout: 60_000 });
    const card = ui.page.locator('[data-card]').first();
    await shown(card, 20_000);
    await card.focus();
    // Keys arm a moment after the card shows or gets focus (issue #12), visibly.
    await attributeOf(card, 'data-armed').toBe('true');
    await ui.page.keyboard.press('Enter');
    expect(resultText(await first)).toContain('hello.txt');
    // The agent can hear its answer before the page hears the card is gone: wait for the page, so
    // the next card found is the second call's, not this one on its way out.
    await noDecisionCardLeft();

    const second = agent.callTool(listCall('mcp__files__list_directory'), undefined, { timeout: 60_000 });
    await shown(ui.page.locator('[data-card]').first(), 20_000);
    await ui.page.locator('[data-card]').first().focus();
    await attributeOf(ui.page.locator('[data-card]').first(), 'data-armed').toBe('true');
    await ui.page.keyboard.press('Escape');
    expect((await second).isError).toBe(true);
    await noDecisionCardLeft();
  });
});

describe('activity, agents, settings', () => {
  it('shows the calls in the audit log with a detail drawer', async () => {
    await openView('activity');
    const rows = ui.page.getByTestId('activity-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await textOf(rows.first()).toContain('mcp__files__list_directory');
    await ui.page.getByTestId('activity-filter-decision').selectOption('deny');
    await expect.poll(() => rows.count()).toBe(2);
    await ui.page.getByTestId('activity-filter-decision').selectOption('');
    await screenshot('activity');
    await ui.page.getByTestId('activity-filter-tool').selectOption('mcp__files__read_text_file');
    await expect.poll(() => rows.count()).toBe(0);
    await ui.page.getByTestId('activity-filter-tool').selectOption('mcp__files__list_directory');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await rows.first().click();
    await textOf(ui.page.getByTestId('activity-drawer')).toContain('mcp__files__list_directory');
    await textOf(ui.page.getByTestId('activity-arguments')).toContain(folder);
    await ui.page.keyboard.press('Escape');
    await gone(ui.page.getByTestId('activity-drawer'));
  });

  it('shows each agent with its endpoint and client configs', async () => {
    await openView('agents');
    const endpoint = ui.page.getByTestId('agent-endpoint').first();
    await textOf(endpoint).toBe(ui.serve.endpointUrl);
    await textOf(ui.page.getByTestId('agent-token').first()).not.toContain(ui.serve.agentToken);
    await ui.page.getByTestId('agent-config-tab-cursor').first().click();
    await textOf(ui.page.getByTestId('agent-config').first()).toContain(ui.serve.endpointUrl);
    await screenshot('agents');
  });

  it('says where secrets are kept, and saves a setting', async () => {
    await openView('settings');
    await textOf(ui.page.getByTestId('settings-data-dir')).toBe(ui.serve.dataDir);
    await textOf(ui.page.getByTestId('settings-secret-store')).toContain('0600');
    await screenshot('settings');
    await ui.page.getByLabel('Results per query, default').fill('6');
    await ui.page.getByTestId('settings-save').click();
    await shown(ui.page.getByText('Saved'));
    await openView('servers');
    await openView('settings');
    expect(await ui.page.getByLabel('Results per query, default').inputValue()).toBe('6');
  });

  it('takes the servers screenshot and stays free of page errors and CSP violations', async () => {
    await openView('servers');
    await screenshot('servers');
    expect(ui.pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
