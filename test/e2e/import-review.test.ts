import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeOf, navigate, ROOT, SCREENSHOTS, setUpUi, shown, textOf } from './e2e-kit.js';

/**
 * Issue #12, pasting a config never skips the review: real `toolbridge serve`, the built renderer
 * in real Chromium. The pasted server is `/bin/sh -c '…'` whose script first creates a marker
 * file, so the marker proves whether anything ran.
 */

const ui = setUpUi('import-review', { policy: 'allow', height: 1100, agent: false });

describe('issue #12: a pasted config is reviewed before anything runs', () => {
  it('shows the /bin/sh -c call-out and the script; nothing runs until Confirm', async () => {
    const marker = join(ui.serve.dataDir, 'pasted-server-ran');
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
    await navigate(ui.page, 'servers');
    await ui.page.getByTestId('add-server-button').click();
    await ui.page.getByTestId('add-tab-import').click();
    await ui.page.getByTestId('import-text').fill(JSON.stringify(config, null, 2));
    await ui.page.getByTestId('import-submit').click();

    const review = ui.page.getByTestId('import-program-pasted');
    await shown(review);
    const warnings = review.getByTestId('command-warnings');
    await textOf(warnings).toContain('runs a shell script inline (sh -c)');
    await textOf(warnings).toContain('sets NODE_OPTIONS');
    expect(await review.getByTestId('command-callout-code').allTextContents()).toEqual([
      'NODE_OPTIONS=--no-warnings',
      script,
    ]);
    await textOf(review).toContain('API_TOKEN');
    expect(await ui.page.getByTestId('import-review').textContent()).not.toContain('sekr1t-value-42');
    await ui.page.screenshot({ path: join(SCREENSHOTS, 'import-review.png') });

    // Nothing was added, nothing ran.
    const listed = await ui.page.evaluate(
      () => document.querySelector('[data-testid="server-pasted"]') !== null,
    );
    expect(listed).toBe(false);
    expect(existsSync(marker)).toBe(false);

    await ui.page.getByTestId('import-confirm').click();
    await shown(ui.page.getByTestId('server-pasted'));
    await attributeOf(ui.page.getByTestId('server-status-pasted'), 'data-status', 30_000).toBe('connected');
    expect(existsSync(marker)).toBe(true);
  });

  it('Edit goes back to the text, and a new review is needed', async () => {
    await ui.page.getByTestId('add-server-button').click();
    await ui.page.getByTestId('add-tab-import').click();
    await ui.page
      .getByTestId('import-text')
      .fill('{"mcpServers": {"two": {"command": "bash", "args": ["-lc", "sleep 1"]}}}');
    await ui.page.getByTestId('import-submit').click();
    await textOf(ui.page.getByTestId('import-program-two').getByTestId('command-warnings')).toContain(
      '(bash -lc)',
    );
    await ui.page.getByTestId('import-edit').click();
    await shown(ui.page.getByTestId('import-text'));
    expect(await ui.page.getByTestId('import-text').inputValue()).toContain('"two"');
  });
});
