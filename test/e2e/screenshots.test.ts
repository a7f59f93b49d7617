import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEWS } from '../../renderer/store/ui-slice.js';
import { navigate, SCREENSHOTS, setUpUi, shown } from './e2e-kit.js';

/**
 * Issue #16: every view in light and dark, at the desktop window's default 1240 px, from a real
 * `toolbridge serve` with its default servers, a search run, one call decided and one waiting.
 * `npm run screenshots` writes them to docs/screenshots (the README shows them); a plain test run
 * writes them to test-results/screenshots and checks each view renders without a page error.
 */

const ECHO = 'mcp__everything__echo';

const ui = setUpUi('screenshots', { height: 800 });
let waiting: Promise<unknown> | undefined;

beforeAll(async () => {
  await ui.page.setViewportSize({ width: 1240, height: 800 });
});

const call = (message: string) =>
  ui.agent.callTool(
    { name: 'tool_call', arguments: { calls: [{ name: ECHO, arguments: { message } }] } },
    undefined,
    { timeout: 120_000 },
  );

describe('issue #16: screenshots of every view', () => {
  it('fills the views: a search, an approved call in Activity, a call waiting on a card', async () => {
    await navigate(ui.page, 'playground');
    await ui.page.getByTestId('playground-query-0').fill('echo a message');
    await ui.page.getByTestId('playground-search').click();
    await shown(ui.page.getByTestId('playground-results'));
    const approved = call('approved in the screenshot run');
    await navigate(ui.page, 'cards');
    await ui.page.getByTestId('card-approve').first().click();
    await approved;
    waiting = call('waiting for you').catch(() => undefined);
    await shown(ui.page.locator('[data-card]').first());
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`every view in ${scheme}`, async () => {
      await ui.page.emulateMedia({ colorScheme: scheme });
      for (const view of VIEWS) {
        await navigate(ui.page, view);
        await ui.page.evaluate(() => window.scrollTo(0, 0));
        await ui.page.screenshot({ path: join(SCREENSHOTS, `view-${view}-${scheme}.png`) });
      }
      // Servers → Add from catalog, open on its first entries.
      await navigate(ui.page, 'servers');
      await ui.page.getByTestId('add-from-catalog-button').click();
      await shown(ui.page.getByTestId('catalog-row-memory'));
      await ui.page
        .getByTestId('add-server-panel')
        .evaluate((panel) => panel.scrollIntoView({ block: 'start' }));
      await ui.page.screenshot({ path: join(SCREENSHOTS, `view-catalog-${scheme}.png`) });
      await ui.page.getByTestId('add-server-panel').getByRole('button', { name: 'Close' }).click();
      expect(ui.pageErrors).toEqual([]);
    });
  }

  it('leaves nothing waiting', async () => {
    await navigate(ui.page, 'cards');
    await ui.page.getByTestId('card-deny').first().click();
    await waiting;
  });
});
