import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOOL_SEARCH_SETTINGS,
  parseToolSearchConfig,
  parseTriState,
} from '../../../src/catalog/tool-search-config.js';

describe('parseTriState', () => {
  it('maps yes/no words and numbers, anything else to auto', () => {
    expect(['on', ' TRUE ', 'yes', '1', true, 1].map(parseTriState)).toEqual(Array(6).fill('on'));
    expect(['off', 'False', 'no', '0', false, 0].map(parseTriState)).toEqual(Array(6).fill('off'));
    expect(['auto', 'maybe', '', 2].map(parseTriState)).toEqual(Array(4).fill('auto'));
  });
});

describe('parseToolSearchConfig', () => {
  it('gives the defaults for a missing value, true or a non-object; false turns it off', () => {
    for (const raw of [undefined, null, true, 'yes please', 42]) {
      expect(parseToolSearchConfig(raw).settings).toEqual(DEFAULT_TOOL_SEARCH_SETTINGS);
    }
    expect(parseToolSearchConfig(false).settings).toEqual({
      ...DEFAULT_TOOL_SEARCH_SETTINGS,
      enabled: 'off',
    });
  });

  it('reads camelCase and snake_case keys, camelCase first', () => {
    const { settings } = parseToolSearchConfig({
      thresholdPct: 7.5,
      threshold_pct: 1,
      listing_max_tokens: '1500',
      maxSearchLimit: 10,
      search_default_limit: 3,
      listing: 'off',
      enabled: 'on',
    });
    expect(settings).toEqual({
      enabled: 'on',
      listing: 'off',
      thresholdPct: 7.5,
      listingMaxTokens: 1500,
      maxSearchLimit: 10,
      searchDefaultLimit: 3,
    });
  });

  it('clamps numbers and falls back on unparseable ones', () => {
    const { settings } = parseToolSearchConfig({
      threshold_pct: 'lots',
      listing_max_tokens: 5,
      max_search_limit: 3.9,
      search_default_limit: 'x',
    });
    expect(settings.thresholdPct).toBe(5);
    expect(settings.listingMaxTokens).toBe(200);
    expect(settings.maxSearchLimit).toBe(3);
    // The default 5 is clamped to the lower maximum.
    expect(settings.searchDefaultLimit).toBe(3);
    expect(parseToolSearchConfig({ listingMaxTokens: 1e9, maxSearchLimit: -4 }).settings).toMatchObject({
      listingMaxTokens: 60_000,
      maxSearchLimit: 1,
      searchDefaultLimit: 1,
    });
    expect(parseToolSearchConfig({ listingMaxTokens: '12.5' }).settings.listingMaxTokens).toBe(4000);
  });

  it('takes a defer list trimmed with blanks dropped; a scalar warns and keeps the default', () => {
    expect(parseToolSearchConfig({ defer: [' mcp__a__b ', '', null, 7] }).defer).toEqual(['mcp__a__b', '7']);
    const scalar = parseToolSearchConfig({ defer: 'mcp__a__b' });
    expect(scalar.defer).toEqual([]);
    expect(scalar.warnings).toEqual([
      'Ignoring toolSearch.defer ("mcp__a__b"): expected a YAML list or JSON array of tool names; using the default (none).',
    ]);
  });
});
