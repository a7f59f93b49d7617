import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyEntries, entriesFromServers, nameCollisions } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';

const SMALL = fileURLToPath(new URL('../../fixtures/catalogs/small', import.meta.url));

describe('entriesFromServers', () => {
  it('names every tool mcp__<server>__<tool>, verbatim, in server then tool order', () => {
    const entries = entriesFromServers(loadCatalogDir(SMALL));
    expect(entries.map((entry) => entry.name)).toEqual([
      'mcp__files__read.file',
      'mcp__files__write_file',
      'mcp__files__list_directory',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
      'mcp__github__create_pull_request',
      'mcp__github__search_code',
      'mcp__linear__save_issue',
      'mcp__linear__list_teams',
    ]);
    const read = entries[0]!;
    expect(read).toMatchObject({ serverId: 'files', toolName: 'read.file', source: 'mcp' });
    expect(entries[2]).toMatchObject({ description: '', inputSchema: undefined });
  });

  it('never truncates a long name and keeps the first of a duplicated tool', () => {
    const long = 'x'.repeat(120);
    const entries = entriesFromServers([
      {
        serverId: 's',
        tools: [
          { name: long, description: 'first' },
          { name: long, description: 'second' },
        ],
      },
    ]);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.name).toBe(`mcp__s__${long}`);
    expect(entries[0]!.description).toBe('first');
  });
});

describe('nameCollisions', () => {
  const servers = [
    { serverId: 'x', tools: [{ name: 'y__run' }, { name: 'only_x' }] },
    { serverId: 'x__y', tools: [{ name: 'run' }, { name: 'run' }] },
  ];

  it('issue #12: finds a name two different tools compose to, and gives it to neither', () => {
    expect([...nameCollisions(servers)]).toEqual([
      [
        'mcp__x__y__run',
        [
          { serverId: 'x', toolName: 'y__run' },
          { serverId: 'x__y', toolName: 'run' },
        ],
      ],
    ]);
    expect(entriesFromServers(servers).map((entry) => entry.name)).toEqual(['mcp__x__only_x']);
  });
});

describe('classifyEntries', () => {
  const entries = entriesFromServers(loadCatalogDir(SMALL));

  it('defers every tool by default', () => {
    const catalog = classifyEntries(entries);
    expect(catalog.deferrable).toHaveLength(entries.length);
    expect(catalog.pinned).toEqual([]);
  });

  it('keeps pins direct, drops disabled tools, and lets defer beat a pin', () => {
    const catalog = classifyEntries(entries, {
      pinned: [
        'mcp__github__create_issue',
        'mcp__files__read.file',
        'mcp__linear__list_teams',
        'mcp__gone__tool',
      ],
      disabled: ['mcp__github__search_code', 'mcp__linear__list_teams'],
      defer: ['mcp__files__read.file'],
    });
    expect(catalog.pinned.map((entry) => entry.name)).toEqual(['mcp__github__create_issue']);
    expect(catalog.entries.map((entry) => entry.name)).not.toContain('mcp__github__search_code');
    expect(catalog.deferrable.map((entry) => entry.name)).toContain('mcp__files__read.file');
    expect(catalog.entries).toHaveLength(entries.length - 2);
  });
});
