/**
 * The reference's `listing` and `config` scenarios (../shared/reference/hermes-scenarios.json,
 * conventions in hermes-tool-search.md §7.1), run as data against our catalog code.
 *
 * Mapping Hermes onto Toolbridge: Hermes keeps a tool visible when it is a core tool, an
 * unregistered tool or a GUI direct-surface tool, unless its `defer` list names it (rule 1
 * beats the rest). In Toolbridge those are pins, and `defer` beats a pin. So each scenario's
 * visible-by-default tools become pins and its defer list (or Hermes' curated default, which
 * Toolbridge does not have) becomes `defer`. Group labels are the toolset minus `mcp-`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { agentTools } from '../../../src/bridge/bridge-tools.js';
import { classifyEntries } from '../../../src/catalog/catalog.js';
import { buildListing, type ListingAlgorithm, shortDescription } from '../../../src/catalog/listing.js';
import { estimateToolTokens } from '../../../src/catalog/tokens.js';
import { parseToolSearchConfig } from '../../../src/catalog/tool-search-config.js';
import { listingBudget, planToolSurface } from '../../../src/catalog/tool-surface.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';

const SCENARIOS_PATH = fileURLToPath(
  new URL('../../../../shared/reference/hermes-scenarios.json', import.meta.url),
);

interface HermesTool {
  name: string;
  source: string | null;
  description: string | null;
  parameters: Record<string, unknown> | null;
}

interface Scenario {
  id: string;
  kind: string;
  catalog: HermesTool[] | { generate: HermesTool & { count: number } } | null;
  input: Record<string, unknown>;
  expect: Record<string, unknown>;
}

const scenarios: Scenario[] = existsSync(SCENARIOS_PATH)
  ? JSON.parse(readFileSync(SCENARIOS_PATH, 'utf8'))
  : [];
const ofKind = (kind: string) => scenarios.filter((scenario) => scenario.kind === kind);

/** Hermes' curated default defer list (reference §2.1); Toolbridge's own default is empty. */
const HERMES_CURATED_DEFER = [
  'computer_use',
  'session_search',
  'image_generate',
  'todo_list',
  'process_manage',
  'cronjob_manage',
  'drive_preview',
  'gui_tour',
  'desktop_preview',
  'annotate_preview',
  'show_tip',
  'setup_mcp',
  'desktop_project',
  'close_terminal',
  'apply_layout',
  'read_terminal',
  'read_window_below',
  'focus_pane',
];
const GUI_DIRECT_TOOLSETS = new Set(['desktop_ui', 'project', 'setup']);

const MANAGE_CONNECTIONS: Tool = {
  name: 'manage_connections',
  description: 'Connect apps and servers.',
  inputSchema: { type: 'object' },
};

function hermesTools(catalog: Scenario['catalog']): HermesTool[] {
  if (catalog === null) return [];
  if (Array.isArray(catalog)) return catalog;
  const { count, name, ...rest } = catalog.generate;
  return Array.from({ length: count }, (_, i) => ({
    ...rest,
    name: name.replace(/\{i(?::0(\d+)d)?\}/, (_match, width?: string) =>
      String(i).padStart(Number(width ?? 0), '0'),
    ),
  }));
}

function label(source: string | null): string {
  if (!source) return 'other';
  return source.startsWith('mcp-') ? source.slice(4) : source;
}

function toEntry(tool: HermesTool): CatalogEntry {
  return {
    name: tool.name,
    serverId: label(tool.source),
    toolName: tool.name,
    source: 'mcp',
    description: tool.description ?? '',
    inputSchema: (tool.parameters ?? undefined) as CatalogEntry['inputSchema'],
  };
}

/** Hermes' visible-by-default tools, as Toolbridge pins. */
function hermesPins(tools: HermesTool[], core: string[]): string[] {
  return tools
    .filter(
      (tool) => core.includes(tool.name) || tool.source === null || GUI_DIRECT_TOOLSETS.has(tool.source),
    )
    .map((tool) => tool.name);
}

interface AssembleInput {
  config: Record<string, unknown> | null;
  context_length: number;
  with_manage_connections?: boolean[];
}

function assemble(scenario: Scenario, manageConnections: boolean) {
  const input = scenario.input.assemble as AssembleInput;
  const tools = hermesTools(scenario.catalog);
  const parsed = parseToolSearchConfig(input.config, { keyPath: 'tools.tool_search' });
  const defer = input.config && 'defer' in input.config ? parsed.defer : HERMES_CURATED_DEFER;
  const catalog = classifyEntries(tools.map(toEntry), {
    pinned: hermesPins(tools, (scenario.input.core as string[] | undefined) ?? []),
    defer,
  });
  const plan = planToolSurface(catalog, {
    settings: parsed.settings,
    contextLengthTokens: input.context_length,
    manageConnections,
  });
  const visible = agentTools(plan, {
    settings: parsed.settings,
    ...(manageConnections ? { manageConnections: MANAGE_CONNECTIONS } : {}),
  });
  const toolSearch = visible.find((tool) => tool.name === 'tool_search');
  return { plan, visible, names: visible.map((tool) => tool.name), toolSearch };
}

function checkAssembly(expected: Record<string, unknown>, result: ReturnType<typeof assemble>): void {
  const { plan, names, toolSearch } = result;
  if ('activated' in expected) expect(plan.activated).toBe(expected.activated);
  for (const name of (expected.visible as string[] | undefined) ?? []) expect(names).toContain(name);
  for (const name of (expected.hidden as string[] | undefined) ?? []) {
    expect(names).not.toContain(name);
    expect(plan.deferred.map((entry) => entry.name)).toContain(name);
  }
  if (expected.tool_names) expect(names).toEqual(expected.tool_names);
  for (const name of (expected.tool_names_exclude as string[] | undefined) ?? [])
    expect(names).not.toContain(name);
  for (const text of (expected.tool_search_description_contains as string[] | undefined) ?? []) {
    expect(toolSearch?.description).toContain(text);
  }
  for (const text of (expected.tool_search_description_not_contains as string[] | undefined) ?? []) {
    expect(toolSearch?.description ?? '').not.toContain(text);
  }
  if (typeof expected.tool_search_schema_tokens_lt === 'number') {
    expect(estimateToolTokens([toolSearch])).toBeLessThan(expected.tool_search_schema_tokens_lt);
  }
  if (expected.listing_form_in) expect(expected.listing_form_in).toContain(plan.form);
  if (expected.peer_listing_form) expect(plan.form).toBe(expected.peer_listing_form);
  if (typeof expected.peer_listing_tokens === 'number')
    expect(plan.listing.tokens).toBe(expected.peer_listing_tokens);
}

describe.skipIf(scenarios.length === 0)('hermes scenarios: listing', () => {
  it('covers every listing scenario below', () => {
    const handled = new Set([
      ...LISTING_TEXT_IDS,
      ...ASSEMBLY_IDS,
      'listing-short-desc',
      'assembly-unknown-stays-visible',
    ]);
    expect(
      ofKind('listing')
        .map((scenario) => scenario.id)
        .filter((id) => !handled.has(id)),
    ).toEqual([]);
  });

  it('listing-short-desc: first sentence, clipped to 60 characters plus …', () => {
    const scenario = scenarios.find((s) => s.id === 'listing-short-desc')!;
    const inputs = scenario.input.short_desc as string[];
    const outputs = scenario.expect.outputs as Array<string | { max_len: number; ends_with: string }>;
    inputs.forEach((input, i) => {
      const expected = outputs[i]!;
      const actual = shortDescription(input);
      if (typeof expected === 'string') expect(actual).toBe(expected);
      else {
        expect([...actual].length).toBeLessThanOrEqual(expected.max_len);
        expect(actual.endsWith(expected.ends_with)).toBe(true);
      }
    });
  });

  // Exact text in both algorithms: on these catalogs Toolbridge's two changes (no growing
  // collapses, spending the rest of the budget on `full` blocks) change nothing — kanban_show
  // has no description to show, and the other upgrades do not fit.
  const LISTING_TEXT_IDS = [
    'listing-full-format',
    'listing-names-format',
    'listing-mixed-collapse-largest-first',
    'listing-none-when-collapse-grows',
  ];
  for (const id of LISTING_TEXT_IDS) {
    for (const algorithm of ['reference', 'toolbridge'] as ListingAlgorithm[]) {
      it(`${id} (${algorithm} algorithm): byte-exact text, form and tokens`, () => {
        const scenario = scenarios.find((s) => s.id === id)!;
        const listing = buildListing(hermesTools(scenario.catalog).map(toEntry), {
          budgetTokens: scenario.input.listing_max_tokens as number,
          algorithm,
        });
        expect(listing.form).toBe(scenario.expect.form);
        expect(listing.text).toBe(scenario.expect.text);
        expect(listing.text === null ? null : listing.tokens).toBe(scenario.expect.listing_tokens);
      });
    }
  }

  const ASSEMBLY_IDS = [
    'connectors-search-description-mentions-manage-connections',
    'listing-off-no-names',
    'listing-500-tools-default-cap',
    'assembly-gui-defers-by-default',
    'assembly-defer-empty-restores-eager',
    'assembly-core-working-set-stays',
    'assembly-clarify-eager',
    'assembly-pure-core-passthrough',
    'assembly-strips-stale-bridge',
  ];
  for (const id of ASSEMBLY_IDS) {
    it(`${id}: assembled tool list`, () => {
      const scenario = scenarios.find((s) => s.id === id)!;
      const arms = (scenario.input.assemble as AssembleInput).with_manage_connections;
      if (arms) {
        checkAssembly(scenario.expect.with as Record<string, unknown>, assemble(scenario, arms[0]!));
        checkAssembly(scenario.expect.without as Record<string, unknown>, assemble(scenario, arms[1]!));
      } else {
        checkAssembly(scenario.expect, assemble(scenario, false));
      }
    });
  }

  it('assembly-strips-stale-bridge: a stale `tool_search` never shadows the bridge name, even with tool search off', () => {
    // Toolbridge catalog names are `mcp__…`, so a stale bridge tool cannot arrive from a server;
    // the scenario's unregistered `tool_search` becomes a pin, and a direct name that equals a
    // bridge name is given an alias instead of being dropped.
    const scenario = scenarios.find((s) => s.id === 'assembly-strips-stale-bridge')!;
    const { names, plan } = assemble(scenario, false);
    expect(names).toContain('terminal');
    expect(plan.directNames.toReal(names.find((name) => name.startsWith('tool_search_'))!)).toBe(
      'tool_search',
    );
  });

  it('assembly-unknown-stays-visible: an unregistered tool is pinned, so it stays visible and nothing defers', () => {
    const scenario = scenarios.find((s) => s.id === 'assembly-unknown-stays-visible')!;
    const tools = hermesTools(scenario.catalog);
    const catalog = classifyEntries(tools.map(toEntry), { pinned: hermesPins(tools, []) });
    expect(catalog.pinned.map((entry) => entry.name)).toEqual(scenario.expect.visible);
    expect(catalog.deferrable.map((entry) => entry.name)).toEqual(scenario.expect.deferrable);
  });
});

describe.skipIf(scenarios.length === 0)('hermes scenarios: config', () => {
  const byId = (id: string) => scenarios.find((s) => s.id === id)!;
  const snake = (settings: ReturnType<typeof parseToolSearchConfig>['settings']) => ({
    enabled: settings.enabled,
    listing: settings.listing,
    threshold_pct: settings.thresholdPct,
    listing_max_tokens: settings.listingMaxTokens,
    max_search_limit: settings.maxSearchLimit,
    search_default_limit: settings.searchDefaultLimit,
  });
  const expectedFields = (scenario: Scenario) =>
    Object.fromEntries(Object.entries(scenario.expect).filter(([key]) => key !== 'pinned_by'));

  for (const id of [
    'config-defaults',
    'config-bool-true',
    'config-bool-false',
    'config-invalid-enabled',
    'config-limit-clamp',
  ]) {
    it(`${id}: parsed settings`, () => {
      const scenario = byId(id);
      const parsed = parseToolSearchConfig(scenario.input.raw);
      expect(snake(parsed.settings)).toMatchObject(expectedFields(scenario));
    });
  }

  it('config-threshold-clamp: clamped to [0, 100]', () => {
    const scenario = byId('config-threshold-clamp');
    const values = (scenario.input.raw_cases as unknown[]).map(
      (raw) => parseToolSearchConfig(raw).settings.thresholdPct,
    );
    expect(values).toEqual(scenario.expect.threshold_pct);
  });

  it('config-defer-replace: a list replaces the default, a scalar warns and keeps it', () => {
    // Difference: Toolbridge's default defer list is empty (it has no core tools), so the
    // scenario's "curated default" is our default, [].
    const scenario = byId('config-defer-replace');
    const parsed = (scenario.input.raw_cases as unknown[]).map((raw) =>
      parseToolSearchConfig(raw, { keyPath: 'tools.tool_search' }),
    );
    const expected = scenario.expect.effective_defer_tools as Array<string[] | string>;
    expect(parsed.map((result) => result.defer)).toEqual(
      expected.map((value) => (Array.isArray(value) ? value : [])),
    );
    expect(parsed[0]!.warnings).toEqual([]);
    expect(parsed[1]!.warnings).toEqual([]);
    for (const text of scenario.expect.warning_for_scalar_contains as string[]) {
      expect(parsed[2]!.warnings.join('\n')).toContain(text);
    }
  });

  it('config-listing-budget: min of the percentage and the cap; unknown context uses 10,000', () => {
    const scenario = byId('config-listing-budget');
    const { settings } = parseToolSearchConfig(scenario.input.raw);
    const budgets = (scenario.input.context_lengths as number[]).map((context) =>
      listingBudget(settings, context),
    );
    expect(budgets).toEqual(scenario.expect.listing_budget);
  });

  it('config-off-never-activates: enabled off keeps every tool direct', () => {
    const scenario = byId('config-off-never-activates');
    const { settings } = parseToolSearchConfig(scenario.input.raw);
    // Enough deferrable tools to exceed the scenario's deferrable_tokens.
    const description = 'x'.repeat(4000);
    const entries = Array.from({ length: 1000 }, (_, i) =>
      toEntry({ name: `mcp__big__tool_${i}`, source: 'mcp-big', description, parameters: null }),
    );
    const catalog = classifyEntries(entries);
    const plan = planToolSurface(catalog, {
      settings,
      contextLengthTokens: scenario.input.context_length as number,
    });
    expect(
      estimateToolTokens(catalog.deferrable.map((entry) => ({ description: entry.description }))),
    ).toBeGreaterThan(scenario.input.deferrable_tokens as number);
    expect(plan.activated).toBe(scenario.expect.should_activate);
    expect(plan.direct).toHaveLength(1000);
  });
});
