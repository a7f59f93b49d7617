// Tests for src/bridge/bridge-tools.ts (owned by the catalog helper, hence this folder).
import { fileURLToPath } from 'node:url';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { agentTools, bridgeTools, toolSearchDescription } from '../../../src/bridge/bridge-tools.js';
import { classifyEntries, entriesFromServers } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';

const SMALL = fileURLToPath(new URL('../../fixtures/catalogs/small', import.meta.url));
const entries = entriesFromServers(loadCatalogDir(SMALL));
const settings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };
const manageConnections: Tool = {
  name: 'manage_connections',
  description: 'Connect.',
  inputSchema: { type: 'object' },
};

describe('toolSearchDescription', () => {
  const base = { deferredCount: 12, form: 'names' as const, listingText: 'LISTING' };

  it('opens with the count and guides keyword queries', () => {
    const text = toolSearchDescription(base);
    expect(text.startsWith('Search 12 additional tools that are loaded on demand. ')).toBe(true);
    expect(text).toContain('keyword search');
    expect(text).toContain('return nothing');
    expect(text).toContain('`tool_describe`');
    expect(text).toContain('`tool_call`');
  });

  it('names manage_connections only when the session has it', () => {
    expect(toolSearchDescription(base)).not.toContain('manage_connections');
    const withIt = toolSearchDescription({ ...base, manageConnections: true });
    expect(withIt).toContain('manage_connections');
    expect(withIt).toContain('connectors__');
  });

  it('frames the listing by form and appends it last', () => {
    const names = toolSearchDescription(base);
    expect(names.endsWith('\n\nLISTING')).toBe(true);
    expect(names).toContain('Every deferred tool is listed below');
    const mixed = toolSearchDescription({ ...base, form: 'mixed' });
    expect(mixed).toContain('names not listed');
    const groups = toolSearchDescription({ ...base, form: 'groups' });
    expect(groups).toContain('search here first');
    expect(groups).not.toContain('Every deferred tool is listed below');
    const none = toolSearchDescription({ ...base, form: 'none', listingText: null });
    expect(none).not.toContain('\n');
  });

  it('opens differently when only remote connectors are searchable', () => {
    const text = toolSearchDescription({
      deferredCount: 0,
      form: 'none',
      listingText: null,
      manageConnections: true,
    });
    expect(text.startsWith('Search tools of remote apps')).toBe(true);
  });
});

describe('bridgeTools', () => {
  it('returns valid MCP tool definitions with the required parameters', () => {
    const tools = bridgeTools({
      deferredCount: 3,
      form: 'none',
      listingText: null,
      searchDefaultLimit: 4,
      maxSearchLimit: 9,
    });
    const parsed = ListToolsResultSchema.parse({ tools });
    expect(parsed.tools.map((tool) => [tool.name, tool.inputSchema.required])).toEqual([
      ['tool_search', ['queries']],
      ['tool_describe', ['names']],
      ['tool_call', ['calls']],
    ]);
    expect(JSON.stringify(tools[0]!.inputSchema)).toContain('default 4, at most 9');
  });
});

describe('agentTools', () => {
  it('lists pins under their direct names, then manage_connections, then the bridge', () => {
    const catalog = classifyEntries(entries, {
      pinned: ['mcp__files__read.file', 'mcp__github__create_issue'],
    });
    const plan = planToolSurface(catalog, {
      settings,
      contextLengthTokens: 200_000,
      manageConnections: true,
    });
    const tools = agentTools(plan, { settings, manageConnections });
    ListToolsResultSchema.parse({ tools });
    const names = tools.map((tool) => tool.name);
    expect(names.slice(2)).toEqual(['manage_connections', 'tool_search', 'tool_describe', 'tool_call']);
    expect(names[0]).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/);
    expect(names[1]).toBe('mcp__github__create_issue');
    const search = tools.find((tool) => tool.name === 'tool_search')!;
    expect(search.description).toContain('Search 7 additional tools');
    expect(search.description).toContain(plan.listing.text!);
    expect(search.description).not.toContain('- mcp__github__create_issue');
  });

  it('lists no bridge when nothing defers', () => {
    const plan = planToolSurface(classifyEntries(entries, { pinned: entries.map((entry) => entry.name) }), {
      settings,
    });
    expect(agentTools(plan, { settings }).map((tool) => tool.name)).not.toContain('tool_search');
  });
});
