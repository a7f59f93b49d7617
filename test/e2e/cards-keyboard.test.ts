import { describe, expect, it } from 'vitest';
import { ARM_DELAY_MS } from '../../renderer/views/approval-card.js';
import { attributeOf, navigate, setUpUi, shown } from './e2e-kit.js';

/**
 * Issue #12, approvals are deliberate acts: real `toolbridge serve` under ask, the built renderer
 * in real Chromium, real cards from an agent on the SDK's real client (the everything server's
 * echo). One key press, however fast or long, decides at most one card.
 */

// The page's clock is Playwright's: a test pauses it and moves it on, so the arm delay never races the keys.
const ui = setUpUi('cards-keyboard', { policy: 'ask', clock: true });

/** Stops the page's time a moment from now (its clock flows meanwhile); `resume()` lets it flow again. */
async function pauseTime(): Promise<void> {
  await ui.page.clock.pauseAt((await ui.page.evaluate(() => Date.now())) + 50);
}

interface Tracked {
  settled: boolean;
  result: Promise<unknown>;
}

/** One echo call under ask; `settled` turns true once the agent has its answer. */
function echo(message: string): Tracked {
  const tracked: Tracked = { settled: false, result: Promise.resolve() };
  tracked.result = ui.agent
    .callTool(
      {
        name: 'tool_call',
        arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message } }] },
      },
      undefined,
      { timeout: 90_000 },
    )
    .finally(() => {
      tracked.settled = true;
    });
  return tracked;
}

const cards = () => ui.page.locator('[data-card]');

/** Opens `n` cards and waits until all show and the first (newest) is focused and armed. */
async function openCards(n: number, label: string): Promise<Tracked[]> {
  await navigate(ui.page, 'cards');
  const calls: Tracked[] = [];
  for (let i = 0; i < n; i++) {
    calls.push(echo(`${label} ${i}`));
    await expect.poll(() => cards().count(), { timeout: 30_000 }).toBe(i + 1);
  }
  const first = cards().first();
  await first.focus();
  await attributeOf(first, 'data-armed').toBe('true');
  return calls;
}

/** Approves what is left (waiting for each card to arm), so the next test starts clean. */
async function drain(calls: Tracked[]): Promise<void> {
  while ((await cards().count()) > 0) {
    const id = await cards().first().getAttribute('data-card');
    await ui.page.locator(`[data-card="${id}"]`).getByTestId('card-approve').click();
    await ui.page.locator(`[data-card="${id}"]`).waitFor({ state: 'detached' });
  }
  await Promise.all(calls.map((call) => call.result));
}

describe('issue #12: one key press decides at most one card', () => {
  it('two Enters 120 ms apart approve exactly one call; the next card shows it is not ready yet', async () => {
    const calls = await openCards(2, 'double enter');
    await pauseTime();
    await ui.page.keyboard.press('Enter');
    await ui.page.clock.runFor(120);
    await ui.page.keyboard.press('Enter');
    // The card that took the decided one's place has focus, visibly waiting.
    const next = cards().first();
    await expect.poll(() => cards().count()).toBe(1);
    await expect.poll(() => next.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await next.getAttribute('data-armed')).toBe('false');
    await shown(next.getByTestId('card-arming'));
    await expect.poll(() => calls.filter((call) => call.settled).length).toBe(1);
    // Time stands still: the card stays unarmed, so a third Enter does nothing either.
    await ui.page.keyboard.press('Enter');
    expect(await next.getAttribute('data-armed')).toBe('false');
    // Only once its second has passed does it arm; until then nothing else was decided.
    await ui.page.clock.runFor(ARM_DELAY_MS);
    await attributeOf(next, 'data-armed').toBe('true');
    expect(await cards().count()).toBe(1);
    expect(calls.filter((call) => call.settled)).toHaveLength(1);
    await ui.page.clock.resume();
    await drain(calls);
  });

  it('holding Enter (key repeat) approves exactly one call', async () => {
    const calls = await openCards(3, 'held enter');
    await pauseTime();
    await ui.page.keyboard.down('Enter');
    // Repeated keydowns, as the OS sends while the key is held, 40 ms apart for longer than the arm delay.
    for (let i = 0; i < 40; i++) {
      await ui.page.keyboard.down('Enter');
      await ui.page.clock.runFor(40);
    }
    await ui.page.keyboard.up('Enter');
    await ui.page.clock.resume();
    await expect.poll(() => calls.filter((call) => call.settled).length).toBe(1);
    // The decided card leaves once the page hears of it: until then `first()` is still that card.
    await expect.poll(() => cards().count()).toBe(2);
    await attributeOf(cards().first(), 'data-armed').toBe('true');
    expect(calls.filter((call) => call.settled)).toHaveLength(1);
    await drain(calls);
  });

  it('a double click on Approve once approves exactly one call', async () => {
    const calls = await openCards(2, 'double click');
    await cards().first().getByTestId('card-approve').dblclick();
    await expect.poll(() => calls.filter((call) => call.settled).length).toBe(1);
    await expect.poll(() => cards().count()).toBe(1);
    await attributeOf(cards().first(), 'data-armed').toBe('true');
    expect(calls.filter((call) => call.settled)).toHaveLength(1);
    await drain(calls);
  });

  it('a card arriving while a deny message is typed does not take focus or the keys', async () => {
    const calls = await openCards(1, 'typing');
    const id = await cards().first().getAttribute('data-card');
    const box = ui.page.locator(`[data-card="${id}"]`).getByTestId('card-deny-message');
    await box.click();
    await ui.page.keyboard.type('Not this one, ');
    calls.push(echo('arrives while typing'));
    await expect.poll(() => cards().count(), { timeout: 30_000 }).toBe(2);
    await ui.page.keyboard.type('use notes/ instead');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.inputValue()).toBe('Not this one, use notes/ instead');
    // Enter in the box denies the card it belongs to, not the new one on top.
    await ui.page.keyboard.press('Enter');
    await expect.poll(() => calls.filter((call) => call.settled).length).toBe(1);
    expect(calls[0]!.settled).toBe(true);
    expect(await ui.page.locator(`[data-card="${id}"]`).count()).toBe(0);
    await drain(calls);
  });

  it('a new card does not take focus from the card being read', async () => {
    const calls = await openCards(1, 'reading');
    const read = cards().first();
    const id = await read.getAttribute('data-card');
    calls.push(echo('arrives while reading'));
    await expect.poll(() => cards().count(), { timeout: 30_000 }).toBe(2);
    expect(await ui.page.evaluate(() => document.activeElement?.getAttribute('data-card'))).toBe(id);
    await drain(calls);
  });
});
