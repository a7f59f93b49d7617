import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesFromServers } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { toIndexEntry } from '../../../src/catalog/index-entry.js';
import { mergeMetrics } from '../../../src/cli/commands/eval.js';
import { readQueriesFile } from '../../../src/cli/queries-file.js';
import { evaluateIndex } from '../../../src/search/evaluate.js';
import { createToolIndex, HERMES_OPTIONS, PLAIN_BM25_OPTIONS } from '../../../src/search/index.js';
import { runCli, SHARED_CATALOGS, SHARED_QUERIES, SMALL, SMALL_QUERIES } from './run-cli.js';

/** `toolbridge eval` over the small catalog and its queries, with extra arguments. */
const evalSmall = (...extra: string[]) =>
  runCli('eval', '--catalog-dir', SMALL, '--queries', SMALL_QUERIES, ...extra);

describe('toolbridge eval', () => {
  it('reports the engine metrics overall and per style, over the whole catalog without a scope', async () => {
    const { code, stdout } = await evalSmall('--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const index = createToolIndex(entriesFromServers(loadCatalogDir(SMALL)).map(toIndexEntry));
    const queries = readQueriesFile(SMALL_QUERIES).map((line) => ({
      id: String(line.id),
      query: line.query,
      style: line.style!,
      relevant: line.relevant!.map((name) => `mcp__${name.replace('/', '__')}`),
    }));
    const direct = evaluateIndex(index, queries, { k: 5 });
    expect(report.overall).toEqual(direct.overall);
    expect(report.byStyle).toEqual(direct.byStyle);
    expect(report.overall.queries).toBe(5);
    expect(Object.keys(report.byStyle)).toEqual(['keyword', 'natural']);
    // Known-item keyword queries hit; q5's "relevant" tool shares no word with its query.
    const missed = report.misses.map((miss: { id: string }) => miss.id);
    expect(missed).toContain('q5');
    for (const id of ['q1', 'q3', 'q4']) expect(missed).not.toContain(id);
  });

  it('issue #15: --preset measures the plain-BM25 and reference baselines on the same data, and names a bad preset', async () => {
    const queries = readQueriesFile(SMALL_QUERIES).map((line) => ({
      id: String(line.id),
      query: line.query,
      relevant: line.relevant!.map((name) => `mcp__${name.replace('/', '__')}`),
    }));
    const entries = entriesFromServers(loadCatalogDir(SMALL)).map(toIndexEntry);
    const overall: Record<string, { emptyRate: number }> = {};
    for (const [preset, options] of [
      ['default', undefined],
      ['plain-bm25', PLAIN_BM25_OPTIONS],
      ['reference', HERMES_OPTIONS],
    ] as const) {
      const { code, stdout } = await evalSmall('--preset', preset, '--json');
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.preset).toBe(preset);
      expect(report.overall).toEqual(
        evaluateIndex(createToolIndex(entries, options), queries, { k: 5 }).overall,
      );
      overall[preset] = report.overall;
    }
    // The reference's relevance floor empties queries the default answers: the preset reached the engine.
    expect(overall.reference!.emptyRate).toBeGreaterThan(overall.default!.emptyRate);
    const bad = await evalSmall('--preset', 'bm25');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--preset must be one of default, plain-bm25, reference; got "bm25"');
  });

  it('prints a table, and with --explain why each miss missed', async () => {
    const plain = await evalSmall();
    expect(plain.stdout).toMatch(
      /\n {28} queries {3}hit@1 {2}recall@5 {3}hit@5 {2}MRR@10 {3}empty\noverall {21}\s+5 /,
    );
    expect(plain.stdout).toMatch(/misses \(no relevant tool in the top 5\): \d \(add --explain to see why\)/);
    const explained = await evalSmall('--explain');
    expect(explained.stdout).toContain('miss q5 [natural]: "send a slack message"');
    expect(explained.stdout).toMatch(/\n {2}returned: /);
    expect(explained.stdout).toMatch(/\n {2}query terms: /);
    // issue #15: every word's fate.
    expect(explained.stdout).toMatch(/\n {2}words:\n {4}\w+: (kept|dropped|unknown)/);
    expect(explained.stdout).toMatch(/\n {2}relevant mcp__github__search_code: (ranked|not)/);
  });

  it('uses --limit as k, searches every server by default and limits each query to its scope with --scope query', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-eval-')), 'q.jsonl');
    const lines = [
      { id: 'a', query: 'create issue', relevant: ['linear/save_issue'], scope: 'linear' },
      { id: 'b', query: 'create issue', relevant: ['linear/save_issue'] },
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    const scoped = JSON.parse(
      (
        await runCli(
          'eval',
          '--catalog-dir',
          SMALL,
          '--queries',
          file,
          '--limit',
          '1',
          '--scope',
          'query',
          '--json',
        )
      ).stdout,
    );
    expect(scoped.k).toBe(1);
    // In scope "linear" the Linear tool is the only candidate; across all servers GitHub's ranks first.
    expect(scoped.byScope.linear.hitAtK).toBe(1);
    expect(scoped.byScope.all.hitAtK).toBe(0);
    expect(scoped.scope).toBe('query');
    const all = JSON.parse(
      (await runCli('eval', '--catalog-dir', SMALL, '--queries', file, '--limit', '1', '--json')).stdout,
    );
    expect(all.overall.hitAtK).toBe(0);
  });

  it('warns about relevant names missing from the catalog', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'toolbridge-eval-')), 'q.jsonl');
    writeFileSync(file, JSON.stringify({ id: 1, query: 'x', relevant: ['nope/tool'] }));
    const { code, stderr } = await runCli('eval', '--catalog-dir', SMALL, '--queries', file);
    expect(code).toBe(0);
    expect(stderr).toContain('1 relevant tools are not in the catalog (mcp__nope__tool…)');
  });

  it.each([
    [['--catalog-dir', SMALL], '--queries is required'],
    [['--queries', SMALL_QUERIES], '--catalog-dir is required'],
    [['--catalog-dir', SMALL, '--queries', SMALL_QUERIES, '--limit', '0'], '--limit must be a whole number'],
    [['--catalog-dir', SMALL, '--queries', SMALL_QUERIES, 'extra'], 'unexpected argument "extra"'],
  ])('bad input %j: exit 2', async (args, message) => {
    const { code, stderr } = await runCli('eval', ...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it.skipIf(!existsSync(SHARED_QUERIES))(
    'runs the shared dev set, per style and scope',
    async () => {
      const { code, stdout } = await runCli(
        'eval',
        '--catalog-dir',
        SHARED_CATALOGS,
        '--queries',
        SHARED_QUERIES,
        '--json',
      );
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.overall.queries).toBe(1648);
      expect(Object.keys(report.byStyle)).toEqual(['keyword', 'natural']);
      expect(Object.keys(report.byScope)).toEqual([
        'cloudflare-api',
        'github',
        'livemcp-*',
        'metatool',
        'notion',
      ]);
      expect(report.byStyle.keyword.queries + report.byStyle.natural.queries).toBe(1648);
      // Known-item queries are the easy end of the set, even with every catalog loaded together.
      expect(report.byScope.notion.hitAtK).toBeGreaterThan(0.5);
    },
    30_000,
  ); // builds 4,082 tools and runs 1,648 queries: about 3 s alone, more on a busy machine
});

describe('mergeMetrics', () => {
  it('weighs judged-query rates by judged and the empty rate by all queries', () => {
    const merged = mergeMetrics([
      { queries: 2, judged: 1, hitAt1: 1, recallAtK: 1, hitAtK: 1, mrrAt10: 1, emptyRate: 0 },
      { queries: 2, judged: 2, hitAt1: 0, recallAtK: 0.25, hitAtK: 0.5, mrrAt10: 0.5, emptyRate: 1 },
    ]);
    expect(merged).toEqual({
      queries: 4,
      judged: 3,
      hitAt1: 1 / 3,
      recallAtK: 0.5,
      hitAtK: 2 / 3,
      mrrAt10: 2 / 3,
      emptyRate: 0.5,
    });
    expect(mergeMetrics([])).toEqual({
      queries: 0,
      judged: 0,
      hitAt1: 0,
      recallAtK: 0,
      hitAtK: 0,
      mrrAt10: 0,
      emptyRate: 0,
    });
  });
});
