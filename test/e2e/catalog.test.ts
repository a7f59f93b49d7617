import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeOf, gone, navigate, ROOT, resultText, setUpUi, shown, textOf } from './e2e-kit.js';

/**
 * Issue #16: Servers → Add from catalog against a real `toolbridge serve` with its default
 * servers (which the bundled catalog also lists): browse and search the catalog, read what an
 * entry needs, install one through the command form's review, and see it connect with its tools.
 */

const ui = setUpUi('catalog');

const rowIds = () =>
  ui.page
    .locator('[data-testid^="catalog-row-"]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')!.slice('catalog-row-'.length)));

describe('issue #16: the install catalog in Servers', () => {
  it('lists every bundled server with what it does, what runs and what it needs; search narrows it', async () => {
    await navigate(ui.page, 'servers');
    await ui.page.getByTestId('add-from-catalog-button').click();
    await shown(ui.page.getByTestId('catalog-browser'));
    await expect.poll(rowIds).toEqual(['everything', 'filesystem', 'memory']);
    const memory = ui.page.getByTestId('catalog-row-memory');
    expect(await memory.textContent()).toContain('knowledge graph');
    await textOf(ui.page.getByTestId('catalog-package-memory')).toContain(
      '@modelcontextprotocol/server-memory',
    );
    await textOf(ui.page.getByTestId('catalog-needs-memory')).toContain(
      'MEMORY_FILE_PATH (environment variable, optional)',
    );
    await textOf(ui.page.getByTestId('catalog-needs-filesystem')).toContain(
      'allowed-directory (argument, required, one or more)',
    );
    await textOf(ui.page.getByTestId('catalog-needs-everything')).toContain('set by the catalog');
    // The default servers run the same scripts: the catalog says so.
    await textOf(ui.page.getByTestId('catalog-installed-memory')).toContain('as memory');

    const search = ui.page.getByTestId('catalog-search');
    await search.fill('Knowledge Graph');
    await expect.poll(rowIds).toEqual(['memory']);
    await search.fill('read_text_file');
    await expect.poll(rowIds).toEqual(['filesystem']);
    await search.fill('spreadsheet invoices');
    await shown(ui.page.getByTestId('catalog-empty'));
    await search.fill('');
    await expect.poll(rowIds).toHaveLength(3);
  });

  it('installs one through the same review as the command form; it connects and lists its tools', async () => {
    await ui.page.getByTestId('catalog-install-memory').click();
    const form = ui.page.getByTestId('catalog-install-form');
    await shown(form);
    // The suggested id does not clash; typing a taken one says so at once.
    const id = form.getByTestId('server-id');
    expect(await id.inputValue()).toBe('memory-2');
    await id.fill('memory');
    await textOf(form).toContain('A server with the id "memory" already exists');
    await id.fill('notes');
    const file = join(ui.serve.dataDir, 'notes.jsonl');
    const memoryFile = form.getByTestId('catalog-input-env.MEMORY_FILE_PATH');
    expect(await memoryFile.inputValue()).toBe(join(ui.serve.dataDir, 'memory.jsonl'));
    await memoryFile.fill(file);
    await form.getByTestId('server-submit').click();

    const review = ui.page.getByTestId('server-review');
    await shown(review);
    const words = await review.locator('.argv code').allTextContents();
    expect(words).toEqual([
      process.execPath,
      join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
    ]);
    await textOf(review).toContain('Environment: MEMORY_FILE_PATH');
    await textOf(form.getByTestId('server-submit')).toBe('Add and start');
    await form.getByTestId('server-submit').click();

    await gone(ui.page.getByTestId('add-server-panel'));
    await attributeOf(ui.page.getByTestId('server-status-notes'), 'data-status', 30_000).toBe('connected');
    await textOf(ui.page.getByTestId('server-tool-count-notes')).toBe('9 tools');
    await ui.page.getByTestId('server-expand-notes').click();
    await shown(ui.page.getByTestId('tool-mcp__notes__create_entities'));
    await shown(ui.page.getByTestId('tool-mcp__notes__search_nodes'));
    // The agent reaches it too, and it keeps its graph where the form said.
    const described = await ui.agent.callTool({
      name: 'tool_describe',
      arguments: { names: ['mcp__notes__read_graph'] },
    });
    expect(resultText(described)).toContain('mcp__notes__read_graph');
    expect(ui.pageErrors).toEqual([]);
  });
});
