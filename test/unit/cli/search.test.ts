import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentSurface } from '../../../src/bridge/agent-surface.js';
import { classifyEntries, entriesFromServers } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';
import { FIXTURES, runCli, SHARED_CATALOGS, SHARED_QUERIES, SMALL, SMALL_QUERIES } from './run-cli.js';

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolbridge-cli-')), name);
  writeFileSync(path, text);
  return path;
}

/** What an agent's tool_search would answer over the same directory. */
async function agentAnswer(dir: string, args: Record<string, unknown>): Promise<string> {
  const settings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };
  const plan = planToolSurface(classifyEntries(entriesFromServers(loadCatalogDir(dir))), { settings });
  const surface = createAgentSurface({
    plan,
    settings,
    executor: { callTool: () => Promise.reject(new Error('no')) },
  });
  return JSON.stringify(await surface.toolSearch(args));
}

describe('toolbridge search', () => {
  it('prints exactly the tool_search answer, one JSON line', async () => {
    const { code, stdout, stderr } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      'github create issue',
      'read file',
    );
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${await agentAnswer(SMALL, { queries: ['github create issue', 'read file'] })}\n`);
    const payload = JSON.parse(stdout);
    expect(payload.results[0].matches[0]).toBe('mcp__github__create_issue');
    expect(payload.results[1].matches[0]).toBe('mcp__files__read.file');
    expect(payload.total_available).toBe(9);
  });

  it('passes --limit through and indents with --pretty', async () => {
    const { stdout } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--limit',
      '1',
      '--pretty',
      'github create issue',
    );
    expect(stdout).toBe(
      `${JSON.stringify(JSON.parse(await agentAnswer(SMALL, { queries: ['github create issue'], limit: 1 })), null, 2)}\n`,
    );
    expect(JSON.parse(stdout).results[0].matches).toHaveLength(1);
  });

  it('does not search pinned tools', async () => {
    const { stdout } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--pin',
      'mcp__files__read.file',
      'read file',
    );
    expect(JSON.parse(stdout).results[0].matches).not.toContain('mcp__files__read.file');
  });

  it('reads settings from --config (snake_case accepted)', async () => {
    const config = tempFile('settings.json', JSON.stringify({ search_default_limit: 1 }));
    const { stdout } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--config',
      config,
      'github create issue',
    );
    expect(JSON.parse(stdout).results[0].matches).toHaveLength(1);
  });

  it('batch: one {id, matches} line per query, in file order', async () => {
    const { code, stdout } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--queries',
      SMALL_QUERIES,
      '--limit',
      '2',
    );
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    // Each line holds the agent's tool_search answer for that query alone, without the fields
    // that only make sense inside one answer (the query itself, sources, hint).
    const queries = readFileSync(SMALL_QUERIES, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; query: string });
    for (const [i, line] of lines.entries()) {
      const answer = JSON.parse(await agentAnswer(SMALL, { queries: [queries[i]!.query], limit: 2 }));
      const group = Object.entries(answer.results[0] as Record<string, unknown>).filter(
        ([key]) => !['query', 'available_sources', 'hint'].includes(key),
      );
      expect(line).toEqual({ id: queries[i]!.id, ...Object.fromEntries(group) });
    }
    expect(lines[0].matches[0]).toBe('mcp__github__create_issue');
    expect(lines[3].matches[0]).toBe('mcp__files__read.file');
    for (const line of lines) expect(Object.keys(line)).not.toContain('hint');
  });

  it('batch: numbers a line without an id by its line number', async () => {
    const file = tempFile('q.jsonl', '\n{"query": "linear list teams"}\n');
    const { stdout } = await runCli('search', '--catalog-dir', SMALL, '--queries', file);
    expect(JSON.parse(stdout).id).toBe(2);
  });

  it.each([
    [['--catalog-dir', SMALL], 'give at least one QUERY'],
    [['x'], '--catalog-dir is required'],
    [['--catalog-dir', SMALL, '--queries', SMALL_QUERIES, 'x'], 'not both'],
    [['--catalog-dir', join(FIXTURES, 'bad-json'), 'x'], 'broken.json'],
    [['--catalog-dir', join(FIXTURES, 'bad-shape'), 'x'], 'wrong shape'],
    [['--catalog-dir', join(FIXTURES, 'missing'), 'x'], 'Cannot read catalog directory'],
    [['--catalog-dir', SMALL, '--pin', 'mcp__nope__x', 'x'], '--pin "mcp__nope__x" is not a tool'],
    [['--catalog-dir', SMALL, '1', '2', '3', '4', '5', '6', '7', '8'], 'too many queries: 8 > max 7'],
    [['--catalog-dir', SMALL, '--queries', join(FIXTURES, 'nope.jsonl')], 'Cannot read queries file'],
  ])('bad input %j: one line on stderr, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await runCli('search', ...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.startsWith('toolbridge search: ')).toBe(true);
  });

  it.each([
    ['{"id": 1, "query": "x"}\n{nope', 'line 2 is not valid JSON'],
    ['{"id": 1}', 'line 1 needs a JSON object with a non-empty string "query"'],
    ['[1, 2]', 'line 1 needs a JSON object'],
    ['{"id": {}, "query": "x"}', '"id" must be a string or a number'],
    ['\n\n', 'has no queries'],
  ])('bad queries file %j: exit 2 naming the line', async (text, message) => {
    const { code, stderr } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--queries',
      tempFile('q.jsonl', text),
    );
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('invalid --config JSON is bad input', async () => {
    const { code, stderr } = await runCli(
      'search',
      '--catalog-dir',
      SMALL,
      '--config',
      tempFile('c.json', '{'),
      'x',
    );
    expect(code).toBe(2);
    expect(stderr).toContain('is not valid JSON');
  });

  it.skipIf(!existsSync(SHARED_CATALOGS))(
    'searches the shared catalogs in batch from one index',
    async () => {
      const queries = tempFile(
        'q.jsonl',
        [
          'cloudflare get a domain',
          'github add comment to issue or pull request',
          'notion create a data source',
        ]
          .map((query, i) => JSON.stringify({ id: `s${i}`, query }))
          .join('\n'),
      );
      const { code, stdout } = await runCli('search', '--catalog-dir', SHARED_CATALOGS, '--queries', queries);
      expect(code).toBe(0);
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines[0].matches).toContain('mcp__cloudflare-api__worker-domain-get-a-domain');
      expect(lines[2].matches).toContain('mcp__notion__create-a-data-source');
      expect(existsSync(SHARED_QUERIES)).toBe(true);
    },
  );
});
