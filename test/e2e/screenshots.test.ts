import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectAgent,
  navigate,
  openSignedIn,
  reportFailure,
  SCREENSHOTS,
  shown,
  type UiSession,
} from './e2e-kit.js';

/**
 * Issue #16: every view in light and dark, at the desktop window's default 1240 px, from a real
 * `toolbridge serve` with its default servers, a search run, one call decided and one waiting.
 * `npm run screenshots` writes them to docs/screenshots (the README shows them); a plain test run
 * writes them to test-results/screenshots and checks each view renders without a page error.
 */

const VIEWS = ['servers', 'tiers', 'cards', 'playground', 'activity', 'agents', 'settings'] as const;
const ECHO = 'mcp__everything__echo';

let ui: UiSession;
let page: Page;
let agent: Client;
let waiting: Promise<unknown> | undefined;

beforeAll(async () => {
  ui = await openSignedIn({ height: 800 });
  page = ui.page;
  await page.setViewportSize({ width: 1240, height: 800 });
  agent = await connectAgent(ui.serve);
});

afterEach(reportFailure('screenshots', () => ui));

afterAll(async () => {
  await agent?.close();
  await ui?.close();
});

const call = (message: string) =>
  agent.callTool(
    { name: 'tool_call', arguments: { calls: [{ name: ECHO, arguments: { message } }] } },
    undefined,
    { timeout: 120_000 },
  );

describe('issue #16: screenshots of every view', () => {
  it('fills the views: a search, an approved call in Activity, a call waiting on a card', async () => {
    await navigate(page, 'playground');
    await page.getByTestId('playground-query-0').fill('echo a message');
    await page.getByTestId('playground-search').click();
    await shown(page.getByTestId('playground-results'));
    const approved = call('approved in the screenshot run');
    await navigate(page, 'cards');
    await page.getByTestId('card-approve').first().click();
    await approved;
    waiting = call('waiting for you').catch(() => undefined);
    await shown(page.locator('[data-card]').first());
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`every view in ${scheme}`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const view of VIEWS) {
        await navigate(page, view);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(SCREENSHOTS, `view-${view}-${scheme}.png`) });
      }
      expect(ui.pageErrors).toEqual([]);
    });
  }

  it('leaves nothing waiting', async () => {
    await navigate(page, 'cards');
    await page.getByTestId('card-deny').first().click();
    await waiting;
  });
});
