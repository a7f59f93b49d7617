import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { attributeOf, gone, navigate, resultText, SCREENSHOTS, setUpUi, shown } from './e2e-kit.js';

/**
 * Approval policies set in the UI, end to end: a real `toolbridge serve` in a fresh data folder
 * (default policy ask, the default servers), the built renderer in real Chromium and an agent on
 * the SDK's real client. The filesystem server writes into `<data dir>/sandbox`, so a file that is
 * not there is a call the server never received. Tests run in order and share one host.
 */

const WRITE = 'mcp__filesystem__write_file';
const LIST = 'mcp__filesystem__list_directory';

const ui = setUpUi('policies', { height: 900 });

const openView = (view: string) => navigate(ui.page, view);

const sandbox = (file: string) => join(ui.serve.dataDir, 'sandbox', file);

/** One tool_call entry, as a model sends it; no client timeout shorter than a card's wait. */
function toolCall(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return ui.agent.callTool(
    { name: 'tool_call', arguments: { calls: [{ name, arguments: args }] } },
    undefined,
    {
      timeout: 120_000,
    },
  ) as Promise<CallToolResult>;
}

const write = (file: string) => toolCall(WRITE, { path: sandbox(file), content: `written as ${file}\n` });

/** The `code` of a refusal the gate sent, else undefined. */
function refusal(result: CallToolResult): string | undefined {
  if (result.isError !== true) return undefined;
  try {
    return (JSON.parse(resultText(result)) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** Sends `call` and says whether the first thing that happened was a card (then denies it) or the answer. */
async function cardOrAnswer(call: () => Promise<CallToolResult>): Promise<'card' | CallToolResult> {
  await openView('cards');
  const card = ui.page.locator('[data-card]').first();
  const pending = call();
  const first = await Promise.race([shown(card, 30_000).then(() => 'card' as const), pending]);
  if (first !== 'card') return first;
  await card.getByTestId('card-deny').click();
  expect(refusal(await pending)).toBe('DENIED');
  return 'card';
}

function toolRow(name: string) {
  return {
    select: ui.page.getByTestId(`tool-policy-${name}`),
    effective: ui.page.getByTestId(`tool-policy-effective-${name}`),
  };
}

async function showFilesystemTools(): Promise<void> {
  await openView('servers');
  await attributeOf(ui.page.getByTestId('server-status-filesystem'), 'data-status', 30_000).toBe('connected');
  if (!(await ui.page.getByTestId(`tool-${WRITE}`).isVisible())) {
    await ui.page.getByTestId('server-expand-filesystem').click();
  }
  await shown(ui.page.getByTestId(`tool-${WRITE}`));
}

describe('a tool policy set in the Servers view', () => {
  it('deny: the agent’s call is DENIED and the server never receives it', async () => {
    await showFilesystemTools();
    const { select, effective } = toolRow(WRITE);
    await attributeOf(effective, 'data-effective').toBe('ask');
    await attributeOf(effective, 'data-source').toBe('default');
    expect(await select.inputValue()).toBe('inherit');

    await select.selectOption('deny');
    await attributeOf(effective, 'data-effective').toBe('deny');
    await attributeOf(effective, 'data-source').toBe('tool');
    await ui.page.getByTestId(`tool-${WRITE}`).scrollIntoViewIfNeeded();
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'policies-servers.png') });

    const result = await write('denied.txt');
    expect(refusal(result), resultText(result)).toBe('DENIED');
    expect(existsSync(sandbox('denied.txt'))).toBe(false);
    const settings = JSON.parse(await readFile(join(ui.serve.dataDir, 'settings.json'), 'utf8'));
    expect(settings.policies.tools[WRITE]).toBe('deny');
  });

  it('allow runs it; back to inherit, it asks again', async () => {
    await showFilesystemTools();
    const { select, effective } = toolRow(WRITE);
    await select.selectOption('allow');
    await attributeOf(effective, 'data-effective').toBe('allow');
    const result = await write('allowed.txt');
    expect(result.isError, resultText(result)).not.toBe(true);
    expect(await readFile(sandbox('allowed.txt'), 'utf8')).toBe('written as allowed.txt\n');

    await showFilesystemTools();
    await select.selectOption('inherit');
    await attributeOf(effective, 'data-source').toBe('default');
    expect(await cardOrAnswer(() => write('asked.txt'))).toBe('card');
    expect(existsSync(sandbox('asked.txt'))).toBe(false);
  });

  it('each change is in the activity log, by the user in the UI', async () => {
    await openView('activity');
    await ui.page.getByTestId('activity-filter-decision').selectOption('policy-change');
    const rows = ui.page.getByTestId('activity-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.first().textContent()).toContain(WRITE);
    expect(await rows.first().textContent()).toContain('by user');
    await rows.first().click();
    await expect
      .poll(() => ui.page.getByTestId('activity-drawer').textContent())
      .toContain(`Cleared the policy of ${WRITE} (was allow)`);
    await ui.page.keyboard.press('Escape');
    await ui.page.getByTestId('activity-filter-decision').selectOption('');
  });
});

describe('a server policy', () => {
  it('covers the server’s tools without their own, and the tool rows say where it comes from', async () => {
    await showFilesystemTools();
    await ui.page.getByTestId('server-policy-filesystem').selectOption('deny');
    const { select, effective } = toolRow(LIST);
    await attributeOf(effective, 'data-source').toBe('server');
    await attributeOf(effective, 'data-effective').toBe('deny');
    expect(await select.locator('option[value="inherit"]').textContent()).toBe('Inherit (server: deny)');
    expect(refusal(await toolCall(LIST, { path: sandbox('') }))).toBe('DENIED');

    await ui.page.getByTestId('server-policy-filesystem').selectOption('inherit');
    await attributeOf(effective, 'data-source').toBe('default');
    expect(await select.locator('option[value="inherit"]').textContent()).toBe('Inherit (default: ask)');
  });
});

describe('"Always allow" and the saved rules in Settings', () => {
  it('the rule a card saves is listed; Remove takes it back and the next call asks again', async () => {
    await openView('cards');
    const card = ui.page.locator('[data-card]').first();
    const first = write('always.txt');
    await shown(card, 30_000);
    await card.getByTestId('card-always').click();
    expect((await first).isError, resultText(await first)).not.toBe(true);
    // Saved: the next call runs without a card.
    expect(await cardOrAnswer(() => write('no-card.txt'))).not.toBe('card');
    expect(existsSync(sandbox('no-card.txt'))).toBe(true);

    await openView('settings');
    const rule = ui.page.getByTestId('policy-rules').locator(`tr[data-name="${WRITE}"]`);
    await shown(rule);
    expect(await rule.getByTestId('policy-rule-description').textContent()).toMatch(
      /^Always allow, saved from an approval card on \d{4}-\d\d-\d\d\. It matches the tool's current definition\.$/,
    );
    await attributeOf(rule.getByTestId('policy-rule-definition'), 'data-definition').toBe('current');
    await rule.scrollIntoViewIfNeeded();
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'policies-rules.png') });

    await rule.getByRole('button', { name: `Remove the rule for ${WRITE}` }).click();
    await gone(rule);
    await shown(ui.page.getByTestId('policy-rules-empty'));
    const settings = JSON.parse(await readFile(join(ui.serve.dataDir, 'settings.json'), 'utf8'));
    expect(settings.policies.rules).toEqual([]);

    expect(await cardOrAnswer(() => write('after-remove.txt'))).toBe('card');
    expect(existsSync(sandbox('after-remove.txt'))).toBe(false);
    expect(ui.pageErrors).toEqual([]);
  });
});
