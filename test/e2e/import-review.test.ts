import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  attributeOf,
  navigate,
  openSignedIn,
  ROOT,
  reportFailure,
  SCREENSHOTS,
  type Serve,
  shown,
  textOf,
  type UiSession,
} from './e2e-kit.js';

/**
 * Issue #12, pasting a config never skips the review: real `toolbridge serve`, the built renderer
 * in real Chromium. The pasted server is `/bin/sh -c '…'` whose script first creates a marker
 * file, so the marker proves whether anything ran.
 */

let ui: UiSession;
let serve: Serve;
let page: Page;

beforeAll(async () => {
  ui = await openSignedIn({ serveArgs: ['--policy', 'allow'], height: 1100 });
  ({ serve, page } = ui);
});

afterEach(reportFailure('import-review', () => ui));

afterAll(async () => {
  await ui?.close();
});

describe('issue #12: a pasted config is reviewed before anything runs', () => {
  it('shows the /bin/sh -c call-out and the script; nothing runs until Confirm', async () => {
    const marker = join(serve.dataDir, 'pasted-server-ran');
    const fixture = join(ROOT, 'test/fixtures/servers/fixture-server.mjs');
    const scenario = join(ROOT, 'test/fixtures/servers/basic.json');
    const script = `touch '${marker}' && exec '${process.execPath}' '${fixture}' '${scenario}'`;
    const config = {
      mcpServers: {
        pasted: {
          command: '/bin/sh',
          args: ['-c', script],
          env: { NODE_OPTIONS: '--no-warnings', API_TOKEN: 'sekr1t-value-42' },
        },
      },
    };
    await navigate(page, 'servers');
    await page.getByTestId('add-server-button').click();
    await page.getByTestId('add-tab-import').click();
    await page.getByTestId('import-text').fill(JSON.stringify(config, null, 2));
    await page.getByTestId('import-submit').click();

    const review = page.getByTestId('import-program-pasted');
    await shown(review);
    const warnings = review.getByTestId('command-warnings');
    await textOf(warnings).toContain('runs a shell script inline (sh -c)');
    await textOf(warnings).toContain('sets NODE_OPTIONS');
    expect(await review.getByTestId('command-callout-code').allTextContents()).toEqual([
      'NODE_OPTIONS=--no-warnings',
      script,
    ]);
    await textOf(review).toContain('API_TOKEN');
    expect(await page.getByTestId('import-review').textContent()).not.toContain('sekr1t-value-42');
    await page.screenshot({ path: join(SCREENSHOTS, 'import-review.png') });

    // Nothing was added, nothing ran.
    const listed = await page.evaluate(
      () => document.querySelector('[data-testid="server-pasted"]') !== null,
    );
    expect(listed).toBe(false);
    expect(existsSync(marker)).toBe(false);

    await page.getByTestId('import-confirm').click();
    await shown(page.getByTestId('server-pasted'));
    await attributeOf(page.getByTestId('server-status-pasted'), 'data-status', 30_000).toBe('connected');
    expect(existsSync(marker)).toBe(true);
  });

  it('Edit goes back to the text, and a new review is needed', async () => {
    await page.getByTestId('add-server-button').click();
    await page.getByTestId('add-tab-import').click();
    await page
      .getByTestId('import-text')
      .fill('{"mcpServers": {"two": {"command": "bash", "args": ["-lc", "sleep 1"]}}}');
    await page.getByTestId('import-submit').click();
    await textOf(page.getByTestId('import-program-two').getByTestId('command-warnings')).toContain(
      '(bash -lc)',
    );
    await page.getByTestId('import-edit').click();
    await shown(page.getByTestId('import-text'));
    expect(await page.getByTestId('import-text').inputValue()).toContain('"two"');
  });
});
