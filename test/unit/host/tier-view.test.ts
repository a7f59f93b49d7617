// Tests for src/host/ui-api/tier-view.ts: the Tiers view's card over a real plan.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentTools } from '../../../src/bridge/bridge-tools.js';
import { classifyEntries, entriesFromServers } from '../../../src/catalog/catalog.js';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { estimateToolTokens } from '../../../src/catalog/tokens.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';
import { tierView } from '../../../src/host/ui-api/tier-view.js';

const SMALL = fileURLToPath(new URL('../../fixtures/catalogs/small', import.meta.url));
const entries = entriesFromServers(loadCatalogDir(SMALL));
const settings = { ...DEFAULT_TOOL_SEARCH_SETTINGS };

describe('tierView', () => {
  it('reports the plan with the visible tools and their cost', () => {
    const plan = planToolSurface(classifyEntries(entries), { settings, contextLengthTokens: 40_000 });
    const tools = agentTools(plan, { settings });
    const view = tierView(plan, tools, 40_000);
    expect(view).toMatchObject({
      contextLengthTokens: 40_000,
      tier: 1,
      form: 'full',
      budgetTokens: 2000,
      listingTokens: plan.listing.tokens,
      deferredCount: 9,
      visibleToolNames: ['tool_search', 'tool_describe', 'tool_call'],
      visibleTokens: estimateToolTokens(tools),
    });
    expect(view.toolSearchDescription).toBe(tools[0]!.description);
    expect(view).not.toHaveProperty('connectorTools');
    const counted = { count: 35, apps: 3, uncountedApps: 0 };
    expect(tierView(plan, tools, 40_000, counted).connectorTools).toEqual(counted);
  });
});
