import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { attributeOf, navigate, resultText, SCREENSHOTS, setUpUi, shown, textOf } from './e2e-kit.js';

/**
 * Issue #16, the card queue people trust: a real `toolbridge serve` under ask with the fixture
 * connector gateway, the built renderer in real Chromium, the SDK's real client as the agent.
 * One tool_call is one card with every entry in order; a connector entry whose account is not
 * linked asks for it inside that same card; and nothing waiting goes unnoticed on other views.
 */

const ui = setUpUi('batch-card', { policy: 'ask', gateway: { connected: ['github'], linked: true } });

const batch = (calls: Array<{ name: string; arguments: Record<string, unknown> }>) =>
  ui.agent.callTool({ name: 'tool_call', arguments: { calls } }, undefined, {
    timeout: 120_000,
  }) as Promise<CallToolResult>;

/** The approval card shown now, once its keys and buttons have armed. */
async function armedCard() {
  const card = ui.page.locator('[data-card]').first();
  await shown(card, 20_000);
  await attributeOf(card, 'data-armed').toBe('true');
  return card;
}

describe('issue #16: one card per tool_call', () => {
  it('three entries, mixed decisions, one connected from the card and one skipped, results in input order', async () => {
    await navigate(ui.page, 'cards');
    const call = batch([
      { name: 'connectors__github__CREATE_ISSUE', arguments: { owner: 'o', repo: 'r', title: 'denied one' } },
      { name: 'connectors__notion__POST_SEARCH', arguments: { query: 'roadmap' } },
      { name: 'connectors__slack__CHAT_POST_MESSAGE', arguments: { channel: 'c', text: 'hi' } },
    ]);
    const callCard = ui.page.locator('[data-call]');
    await shown(callCard, 20_000);
    const entries = callCard.getByTestId('call-entry');
    await expect.poll(() => entries.count()).toBe(3);
    await expect
      .poll(() => entries.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state'))))
      .toEqual(['waiting', 'queued', 'queued']);
    await textOf(callCard.getByTestId('call-focus')).toBe('1 of 3');
    expect(await callCard.getByTestId('call-entry-name').allTextContents()).toEqual([
      'connectors__github__CREATE_ISSUE',
      'connectors__notion__POST_SEARCH',
      'connectors__slack__CHAT_POST_MESSAGE',
    ]);
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'batch-card.png') });

    // 1 of 3: denied on its own.
    await (await armedCard()).getByTestId('card-deny').click();
    // 2 of 3 comes up in the same card, armed a moment later; "Approve the rest" covers 3 of 3 too.
    await textOf(callCard.getByTestId('call-focus')).toBe('2 of 3');
    const second = await armedCard();
    expect(await second.getByTestId('card-tool').textContent()).toBe('connectors__notion__POST_SEARCH');
    await second.getByTestId('card-approve-rest').click();

    // Notion is not linked: its connection row shows inside the call's card, not as a second card.
    const notion = callCard.getByTestId('card-target-notion');
    await shown(notion);
    expect(await ui.page.locator('.card.connection').count()).toBe(0);
    await textOf(notion.getByTestId('card-target-need')).toContain("Notion isn't connected.");
    expect(await notion.textContent()).not.toContain('initiated');
    await textOf(notion.getByTestId('card-connect-notion')).toBe('Connect and run');
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'batch-card-connect.png') });
    const [tab] = await Promise.all([
      ui.context.waitForEvent('page'),
      notion.getByTestId('card-connect-notion').click(),
    ]);
    await tab.waitForLoadState();
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.getByText('Connected notion').waitFor();
    await tab.close();

    // 3 of 3 was approved with the rest; Slack is not linked either, and is skipped.
    const slack = callCard.getByTestId('card-target-slack');
    await shown(slack, 20_000);
    await slack.getByTestId('card-skip-slack').click();

    const answer = JSON.parse(resultText(await call)) as {
      results: Array<{ index: number; name: string; error?: { code: string; skipped_by_user?: boolean } }>;
    };
    expect(answer.results.map((slot) => [slot.index, slot.name, slot.error?.code ?? 'ok'])).toEqual([
      [0, 'connectors__github__CREATE_ISSUE', 'DENIED'],
      [1, 'connectors__notion__POST_SEARCH', 'ok'],
      [2, 'connectors__slack__CHAT_POST_MESSAGE', 'CONNECTION_REQUIRED'],
    ]);
    expect(answer.results[2]?.error?.skipped_by_user).toBe(true);
    expect(ui.gateway.executions.map((run) => run.slug)).toEqual(['NOTION_POST_SEARCH']);

    // The card confirms what happened to each entry before it moves to Recent.
    await expect
      .poll(() => callCard.getByTestId('call-entry-outcome').allTextContents())
      .toEqual([
        'Denied by you · not run',
        expect.stringMatching(/^Approved · ran in \d/),
        'Skipped: its app was not connected · not run',
      ]);
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'batch-card-done.png') });
    const recent = ui.page.getByTestId('recent-call');
    await shown(recent, 20_000);
    expect(await recent.getByTestId('recent-entry').count()).toBe(3);
    expect(await ui.page.locator('[data-call]').count()).toBe(0);

    // Recent comes from the host, not the page: a reload shows the same call with its entries.
    await ui.page.reload();
    await navigate(ui.page, 'cards');
    await shown(ui.page.getByTestId('recent-call'), 20_000);
    expect(await ui.page.getByTestId('recent-call').first().getByTestId('recent-entry').count()).toBe(3);
  });
});

/** Each Recent call's entries as the page shows them, run times left out (the log keeps its own). */
async function recentRows(): Promise<string[][]> {
  const calls = await ui.page.getByTestId('recent-call').all();
  return Promise.all(
    calls.map(async (call) =>
      (await call.getByTestId('recent-entry').allTextContents()).map((row) =>
        row.replace(/ran in [^·]+/, 'ran in …'),
      ),
    ),
  );
}

describe('issue #16: never miss a card', () => {
  it('a banner on every view, the title and favicon badge, and an opt-in browser notification', async () => {
    // A real notification: headless Chromium grants the permission, shows it and fires its `show`
    // event. The page's Notification stays the browser's own; a subclass only records each one the
    // app makes and the `show` the browser then sends it.
    await ui.context.grantPermissions(['notifications'], { origin: new URL(ui.serve.uiUrl).origin });
    await ui.page.addInitScript(() => {
      const shown: Array<{ title: string; body?: string; shown: boolean }> = [];
      (window as unknown as { shownNotes: typeof shown }).shownNotes = shown;
      const Real = window.Notification;
      class ObservedNotification extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          const note = { title, body: options?.body, shown: false };
          shown.push(note);
          this.addEventListener('show', () => {
            note.shown = true;
          });
        }
      }
      Object.defineProperty(window, 'Notification', { value: ObservedNotification });
      // As if the person were in another window.
      document.hasFocus = () => false;
    });
    await ui.page.reload();
    await navigate(ui.page, 'servers');
    const first = batch([{ name: 'connectors__github__GET_ME', arguments: {} }]);
    const banner = ui.page.getByTestId('waiting-banner');
    await shown(banner, 20_000);
    await textOf(banner.getByTestId('waiting-banner-text')).toBe(
      'default wants to call connectors__github__GET_ME: waiting for you.',
    );
    await expect.poll(() => ui.page.title()).toBe('(1) Toolbridge · waiting for you');
    expect(await ui.page.locator('link[rel="icon"]').getAttribute('href')).toContain('favicon-waiting.svg');
    for (const view of ['tiers', 'activity', 'settings']) {
      await navigate(ui.page, view);
      await shown(banner);
    }
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'waiting-banner.png') });

    await banner.getByTestId('waiting-banner-notify').click();
    await shown(banner.getByTestId('waiting-banner-notify-off'));
    const second = batch([{ name: 'connectors__github__SEARCH_REPOSITORIES', arguments: {} }]);
    await expect
      .poll(() => ui.page.evaluate(() => (window as unknown as { shownNotes: unknown[] }).shownNotes))
      .toEqual([
        {
          title: 'Toolbridge: Approval needed',
          body: 'default wants to call connectors__github__SEARCH_REPOSITORIES',
          shown: true,
        },
      ]);
    await textOf(banner.getByTestId('waiting-banner-text')).toBe('2 calls wait for you.');

    await banner.getByTestId('waiting-banner-review').click();
    await attributeOf(ui.page.getByTestId('nav-cards'), 'aria-current').toBe('page');
    for (let left = 2; left > 0; left--) {
      await (await armedCard()).getByTestId('card-deny').click();
      await expect.poll(() => ui.page.locator('[data-card]').count()).toBe(left - 1);
    }
    expect(resultText(await first)).toContain('DENIED');
    expect(resultText(await second)).toContain('DENIED');
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(() => ui.page.title()).toBe('Toolbridge');
    expect(await ui.page.locator('link[rel="icon"]').getAttribute('href')).toBe('./favicon.svg');
  });
});

describe('issue #16: Recent after a host restart', () => {
  it('issue #16: serve stopped and started again on its folder shows the same Recent, from the audit log', async () => {
    await navigate(ui.page, 'cards');
    await expect.poll(() => ui.page.getByTestId('recent-call').count(), { timeout: 20_000 }).toBe(3);
    const before = await recentRows();
    expect(before[2]).toEqual([
      'connectors__github__CREATE_ISSUE Denied by you · not run',
      'connectors__notion__POST_SEARCH Approved · ran in …',
      'connectors__slack__CHAT_POST_MESSAGE Skipped: its app was not connected · not run',
    ]);
    await ui.serve.restart();
    await ui.page.goto(ui.serve.uiUrl);
    await shown(ui.page.getByTestId('nav-servers'));
    await navigate(ui.page, 'cards');
    await expect.poll(() => ui.page.getByTestId('recent-call').count(), { timeout: 20_000 }).toBe(3);
    expect(await recentRows()).toEqual(before);
  });
});
