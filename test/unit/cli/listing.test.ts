import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, SHARED_CATALOGS, SMALL } from './run-cli.js';

describe('toolbridge listing', () => {
  it('prints tier, form, token counts and the full tool_search description', async () => {
    const { code, stdout } = await runCli('listing', '--catalog-dir', SMALL, '--context-length', '200000');
    expect(code).toBe(0);
    expect(stdout).toContain(
      'tier: 1\nform: full\ncontext length: 200000 tokens\nlisting budget: 4000 tokens\n',
    );
    expect(stdout).toContain('deferred: 9 tools');
    expect(stdout).toContain(
      '\ntool_search description:\nSearch 9 additional tools that are loaded on demand.',
    );
    expect(stdout).toContain('- mcp__github__create_issue: Open a new issue in a GitHub repository.');
  });

  it('--json prints the tier view the UI shows', async () => {
    const { stdout } = await runCli('listing', '--catalog-dir', SMALL, '--context-length', '2000', '--json');
    const view = JSON.parse(stdout);
    // 5 % of 2,000 tokens = 100: not enough for every description.
    expect(view).toMatchObject({ contextLengthTokens: 2000, budgetTokens: 100, deferredCount: 9 });
    expect(view.listingTokens).toBeLessThanOrEqual(100);
    expect(view.form).not.toBe('full');
    expect(view.visibleToolNames).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(view.toolSearchDescription.startsWith('Search 9 additional tools')).toBe(true);
  });

  it('shows aliases of pinned tools and no bridge when everything is pinned', async () => {
    const pins = ['files__read.file', 'files__write_file', 'files__list_directory'].map(
      (name) => `mcp__${name}`,
    );
    const pinArgs = pins.flatMap((pin) => ['--pin', pin]);
    const dir = SMALL;
    const { stdout } = await runCli('listing', '--catalog-dir', dir, ...pinArgs);
    expect(stdout).toContain('context length: unknown');
    expect(stdout).toMatch(/alias: mcp__files__read_file_[0-9a-f]{8} → mcp__files__read\.file/);
    expect(stdout).toContain('deferred: 6 tools');
  });

  it.skipIf(!existsSync(SHARED_CATALOGS))(
    'degrades the shared catalogs to a mixed listing within budget',
    async () => {
      const ours = JSON.parse(
        (await runCli('listing', '--catalog-dir', SHARED_CATALOGS, '--context-length', '200000', '--json'))
          .stdout,
      );
      const reference = JSON.parse(
        (
          await runCli(
            'listing',
            '--catalog-dir',
            SHARED_CATALOGS,
            '--context-length',
            '200000',
            '--json',
            '--reference',
          )
        ).stdout,
      );
      for (const view of [ours, reference]) {
        expect(view).toMatchObject({ tier: 1, form: 'mixed', budgetTokens: 4000, deferredCount: 4082 });
        expect(view.listingTokens).toBeLessThanOrEqual(4000);
      }
      // Toolbridge spends the rest of the budget on descriptions.
      expect(ours.listingTokens).toBeGreaterThanOrEqual(reference.listingTokens);
    },
  );
});
