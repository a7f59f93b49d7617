import { describe, expect, it } from 'vitest';
import { createAgentSurface } from '../../../src/bridge/agent-surface.js';
import { resolveLimit } from '../../../src/bridge/tool-search.js';
import { classifyEntries } from '../../../src/catalog/catalog.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import type { SearchOptions, ToolIndex } from '../../../src/search/types.js';
import { buildSurface, CONTEXT, mcpEntry, payloadOf, recordingExecutor } from './bridge-fixtures.js';

const GITHUB = [
  mcpEntry('github', 'create_issue', 'Create a new issue in a GitHub repository.', {
    type: 'object',
    properties: { repo: { type: 'string' }, title: { type: 'string' } },
    required: ['repo', 'title'],
  }),
  mcpEntry('github', 'list_issues', 'List issues in a GitHub repository.'),
  mcpEntry('github', 'create_pull_request', 'Open a pull request in a GitHub repository.'),
];
const SLACK = [mcpEntry('slack', 'post_message', 'Post a message to a Slack channel.')];

async function search(args: Record<string, unknown>, entries: CatalogEntry[] = [...GITHUB, ...SLACK]) {
  const { surface } = buildSurface({ entries });
  const result = await surface.callTool('tool_search', args, CONTEXT);
  return { result, payload: payloadOf(result) };
}

/** A surface over a fixed index, to see exactly what the bridge does with an engine answer. */
function surfaceWithIndex(
  entries: CatalogEntry[],
  answer: (query: string, options?: SearchOptions) => object,
) {
  const seen: Array<{ query: string; options?: SearchOptions }> = [];
  const index: ToolIndex = {
    size: entries.length,
    search(query, options) {
      seen.push({ query, options });
      return answer(query, options) as ReturnType<ToolIndex['search']>;
    },
  };
  const settings = DEFAULT_TOOL_SEARCH_SETTINGS;
  const plan = planToolSurface(classifyEntries(entries), { settings });
  return { surface: createAgentSurface({ plan, settings, executor: recordingExecutor(), index }), seen };
}

describe('tool_search', () => {
  it('answers one group of names per query and one shared record per distinct name', async () => {
    const { result, payload } = await search({ queries: ['github create issue', 'slack post message'] });
    expect(result.isError).toBeUndefined();
    expect(payload.queries).toEqual(['github create issue', 'slack post message']);
    expect(payload.total_available).toBe(4);
    const results = payload.results as Array<{ query: string; matches: string[] }>;
    expect(results.map((group) => group.query)).toEqual(['github create issue', 'slack post message']);
    expect(results[0]!.matches[0]).toBe('mcp__github__create_issue');
    expect(results[1]!.matches).toEqual(['mcp__slack__post_message']);
    expect(Object.keys(payload.tools as object).sort()).toEqual(
      [...new Set(results.flatMap((group) => group.matches))].sort(),
    );
    expect((payload.tools as Record<string, unknown>).mcp__github__create_issue).toEqual({
      source: 'mcp',
      source_name: 'github',
      description: 'Create a new issue in a GitHub repository.',
      required: ['repo', 'title'],
    });
  });

  it('accepts a bare string, trims queries, drops blanks and keeps duplicates', async () => {
    expect((await search({ queries: '  slack message ' })).payload.queries).toEqual(['slack message']);
    const { payload } = await search({ queries: [' slack ', '', '   ', 'slack', null] });
    expect(payload.queries).toEqual(['slack', 'slack']);
    expect((payload.results as unknown[]).length).toBe(2);
  });

  it('refuses bad queries with an error object and nothing else', async () => {
    for (const [args, message] of [
      [{}, 'queries is required and must be an array of strings.'],
      [{ queries: 42 }, 'queries is required and must be an array of strings.'],
      [{ queries: ['', ' '] }, 'queries must contain at least one non-empty string.'],
      [
        { queries: ['a', 'b', 'c', 'd', 'e', 'f', 'g', ' ', 'h'] },
        'too many queries: 8 > max 7. Retry with fewer, more targeted queries.',
      ],
    ] as const) {
      const { result, payload } = await search(args);
      expect(payload).toEqual({ error: message });
      expect(result.isError).toBe(true);
    }
  });

  it('passes the resolved limit to the engine', async () => {
    const { surface, seen } = surfaceWithIndex(GITHUB, () => ({ matches: [] }));
    await surface.toolSearch({ queries: ['x'], limit: '3' });
    await surface.toolSearch({ queries: ['x'] });
    await surface.toolSearch({ queries: ['x'], limit: 500 });
    expect(seen.map((call) => call.options?.limit)).toEqual([3, 5, 25]);
  });

  it('carries extra engine fields into the group in snake_case, keeping matches pure', async () => {
    const { surface } = surfaceWithIndex(GITHUB, () => ({
      matches: ['mcp__github__list_issues'],
      corrections: [{ from: 'isues', to: 'issues' }],
      didYouMean: ['mcp__github__create_issue'],
      explanation: { not: 'shown' },
      unknownWords: undefined,
    }));
    const payload = await surface.toolSearch({ queries: ['list isues'] });
    expect(payload).toMatchObject({
      results: [
        {
          query: 'list isues',
          matches: ['mcp__github__list_issues'],
          corrections: [{ from: 'isues', to: 'issues' }],
          did_you_mean: ['mcp__github__create_issue'],
        },
      ],
    });
    const [group] = (payload as { results: Array<Record<string, unknown>> }).results;
    expect(Object.keys(group!)).toEqual(['query', 'matches', 'corrections', 'did_you_mean']);
    expect(Object.keys((payload as { tools: object }).tools)).toEqual(['mcp__github__list_issues']);
  });

  it('lists the available sources with a retry hint on an empty group', async () => {
    const { payload } = await search({ queries: ['zebra quantum'] });
    const [group] = payload.results as Array<Record<string, unknown>>;
    expect(group!.matches).toEqual([]);
    expect(group!.available_sources).toEqual([
      { name: 'github', tool_count: 3 },
      { name: 'slack', tool_count: 1 },
    ]);
    expect(group!.hint).toContain('remain available');
    expect(group!.hint).toContain('before concluding');
    expect(payload).not.toHaveProperty('available_sources');
  });

  it('names declared servers that are down among the sources, sorted by name', async () => {
    const settings = DEFAULT_TOOL_SEARCH_SETTINGS;
    const plan = planToolSurface(classifyEntries(SLACK), { settings });
    const surface = createAgentSurface({
      plan,
      settings,
      executor: recordingExecutor(),
      unavailableServers: [{ serverId: 'jira', toolCount: 12, reason: 'the server failed to start' }],
    });
    const payload = (await surface.toolSearch({ queries: ['zebra'] })) as {
      results: Array<Record<string, unknown>>;
    };
    expect(payload.results[0]!.available_sources).toEqual([
      { name: 'jira', tool_count: 12, unavailable: 'the server failed to start' },
      { name: 'slack', tool_count: 1 },
    ]);
  });

  it('clips long descriptions at 500 characters with an ellipsis, and trims the required list', async () => {
    const required = [...Array.from({ length: 40 }, (_, i) => `p${i}`), 7, 'x'.repeat(100)];
    const entry = mcpEntry('docs', 'lookup', `lookup ${'é'.repeat(600)}`, {
      type: 'object',
      required,
    } as never);
    const { payload } = await search({ queries: ['docs lookup'] }, [entry]);
    const record = (payload.tools as Record<string, { description: string; required: string[] }>)
      .mcp__docs__lookup!;
    expect(Array.from(record.description)).toHaveLength(501);
    expect(record.description.endsWith('é…')).toBe(true);
    expect(record.required).toHaveLength(32);
    expect(record.required[31]).toBe('p31');
  });

  it('leaves source_name empty for tools of no known source', async () => {
    const other: CatalogEntry = {
      name: 'frobnicate',
      serverId: '',
      toolName: 'frobnicate',
      source: 'other',
      description: 'Frobnicate the widget.',
      inputSchema: undefined,
    };
    const { payload } = await search({ queries: ['frobnicate widget'] }, [other]);
    expect((payload.tools as Record<string, unknown>).frobnicate).toEqual({
      source: 'other',
      source_name: '',
      description: 'Frobnicate the widget.',
      required: [],
    });
  });
});

describe('resolveLimit', () => {
  const limits = { defaultLimit: 5, maxLimit: 25 };
  it.each([
    [undefined, 5],
    [null, 5],
    ['abc', 5],
    [true, 5],
    [Number.NaN, 5],
    [3, 3],
    ['7', 7],
    [2.9, 2],
    [0, 1],
    [-4, 1],
    [99, 25],
  ])('limit %s → %s', (value, expected) => {
    expect(resolveLimit(value, limits)).toBe(expected);
  });
});
