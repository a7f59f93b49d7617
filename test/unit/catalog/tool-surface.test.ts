import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyEntries, entriesFromServers } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { LISTING_HEADER } from '../../../src/catalog/listing.js';
import { estimateTokens, estimateToolTokens } from '../../../src/catalog/tokens.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { listingBudget, planToolSurface, toolDefinition } from '../../../src/catalog/tool-surface.js';

const SMALL = fileURLToPath(new URL('../../fixtures/catalogs/small', import.meta.url));
const entries = entriesFromServers(loadCatalogDir(SMALL));
const settings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };

describe('listingBudget', () => {
  it('takes the smaller of the cap and the context percentage', () => {
    expect(listingBudget(settings, 200_000)).toBe(4000);
    expect(listingBudget(settings, 40_000)).toBe(2000);
    expect(listingBudget(settings, 39_999)).toBe(1999);
    expect(listingBudget({ thresholdPct: 0, listingMaxTokens: 4000 }, 200_000)).toBe(0);
  });

  it('uses 10,000 for the percentage leg when the context is unknown or not positive', () => {
    expect(listingBudget(settings)).toBe(4000);
    expect(listingBudget(settings, -5)).toBe(4000);
    expect(listingBudget({ thresholdPct: 5, listingMaxTokens: 60_000 }, 0)).toBe(10_000);
  });
});

describe('toolDefinition', () => {
  it('gives a missing or typeless schema type object and keeps the rest', () => {
    expect(toolDefinition(entries[2]!).inputSchema).toEqual({ type: 'object' });
    expect(toolDefinition(entries[0]!, 'alias').name).toBe('alias');
    expect(toolDefinition(entries[0]!).inputSchema.required).toEqual(['path']);
  });
});

describe('planToolSurface', () => {
  it('tier 1 with a full listing when everything fits', () => {
    const plan = planToolSurface(classifyEntries(entries), { settings, contextLengthTokens: 200_000 });
    expect(plan).toMatchObject({
      activated: true,
      tier: 1,
      form: 'full',
      budgetTokens: 4000,
      deferredCount: 9,
    });
    expect(plan.deferredTokens).toBe(estimateToolTokens(entries.map((entry) => toolDefinition(entry))));
    expect(plan.listing.text).toContain(
      '- mcp__github__create_issue: Open a new issue in a GitHub repository.',
    );
    expect(plan.direct).toEqual([]);
  });

  it('tier 2 when the budget only fits server summaries, or listing is off', () => {
    const summaries = [
      LISTING_HEADER,
      ...['files (3', 'github (4', 'linear (2'].map(
        (start) => `${start} tools — names not listed; discover via \`tool_search\`)`,
      ),
    ].join('\n');
    const tiny = planToolSurface(classifyEntries(entries), {
      settings: { ...settings, listingMaxTokens: estimateTokens(summaries) },
      contextLengthTokens: 200_000,
    });
    expect(tiny).toMatchObject({ tier: 2, form: 'groups' });
    expect(tiny.listing.text).toBe(summaries);
    const off = planToolSurface(classifyEntries(entries), { settings: { ...settings, listing: 'off' } });
    expect(off).toMatchObject({ activated: true, tier: 2, form: 'none' });
    expect(off.listing.text).toBeNull();
  });

  it('tier 0 when every tool is pinned, with aliases for invalid names', () => {
    const plan = planToolSurface(classifyEntries(entries, { pinned: entries.map((entry) => entry.name) }), {
      settings,
    });
    expect(plan).toMatchObject({
      activated: false,
      tier: 0,
      form: 'none',
      deferredCount: 0,
      deferredTokens: 0,
    });
    const read = plan.direct.find((direct) => direct.entry.name === 'mcp__files__read.file')!;
    expect(read.directName).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/);
    expect(plan.directNames.toReal(read.directName)).toBe('mcp__files__read.file');
  });

  it('activates with nothing deferred when manage_connections is present: tier 2, count 0', () => {
    const plan = planToolSurface(classifyEntries(entries, { pinned: entries.map((entry) => entry.name) }), {
      settings,
      manageConnections: true,
    });
    expect(plan).toMatchObject({ activated: true, tier: 2, form: 'none', deferredCount: 0 });
  });

  it('tool search off lists every tool directly and never activates', () => {
    const plan = planToolSurface(classifyEntries(entries, { pinned: ['mcp__github__create_issue'] }), {
      settings: { ...settings, enabled: 'off' },
      manageConnections: true,
    });
    expect(plan).toMatchObject({ activated: false, tier: 0, deferredCount: 0 });
    expect(plan.direct.map((direct) => direct.entry.name)).toEqual(entries.map((entry) => entry.name));
  });

  it('passes unavailable servers and the algorithm to the listing', () => {
    const plan = planToolSurface(classifyEntries(entries), {
      settings,
      unavailable: [{ serverId: 'slack', toolCount: 4, reason: 'it needs sign-in' }],
    });
    expect(plan.listing.text).toContain('slack (4 tools unavailable: it needs sign-in)');
  });
});
