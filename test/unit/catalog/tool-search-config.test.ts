import { describe, expect, it } from 'vitest';
import { SettingsChecker } from '../../../src/base/settings-check.js';
import {
  checkToolSearchSettings,
  DEFAULT_TOOL_SEARCH_SETTINGS,
  parseToolSearchConfig,
  parseTriState,
} from '../../../src/catalog/tool-search-config.js';

/** settings.json's reader: the settings, or the issues it refused them with. */
function check(raw: unknown) {
  const c = new SettingsChecker();
  const settings = checkToolSearchSettings(c, raw);
  try {
    c.throwIfAny();
    return { settings, issues: [] };
  } catch (error) {
    return {
      settings,
      issues: (error as { data: { issues: Array<{ path: string; message: string }> } }).data.issues,
    };
  }
}

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

describe('issue #13: one set of tool-search rules for both readers', () => {
  it('refuses in settings.json exactly what the config reader clamps, at the same bounds', () => {
    const cases: Array<[string, number, number]> = [
      ['thresholdPct', 101, 100],
      ['thresholdPct', -1, 0],
      ['listingMaxTokens', 199, 200],
      ['listingMaxTokens', 60_001, 60_000],
      ['maxSearchLimit', 51, 50],
      ['maxSearchLimit', 0, 1],
      ['searchDefaultLimit', 26, 25],
      ['searchDefaultLimit', 0, 1],
    ];
    for (const [key, sent, clamped] of cases) {
      expect(parseToolSearchConfig({ [key]: sent }).settings).toMatchObject({ [key]: clamped });
      const { issues } = check({ [key]: sent });
      expect(issues).toEqual([{ path: `toolSearch.${key}`, message: expect.stringContaining('from') }]);
      const inRange = check({ [key]: clamped });
      expect(inRange.issues).toEqual([]);
      expect(inRange.settings).toMatchObject({ [key]: clamped });
    }
  });

  it('keeps the default search limit within a lower maximum in both readers', () => {
    expect(parseToolSearchConfig({ maxSearchLimit: 3 }).settings.searchDefaultLimit).toBe(3);
    expect(check({ maxSearchLimit: 3 })).toEqual({
      settings: { ...DEFAULT_TOOL_SEARCH_SETTINGS, maxSearchLimit: 3, searchDefaultLimit: 3 },
      issues: [],
    });
  });

  it('accepts in settings.json only what the config reader reads as the same value', () => {
    expect(check({ enabled: 'yes' }).issues).toEqual([
      { path: 'toolSearch.enabled', message: 'must be "auto", "on" or "off"; got "yes".' },
    ]);
    expect(check({ threshold_pct: 3 }).issues).toEqual([
      { path: 'toolSearch.threshold_pct', message: expect.stringContaining('is not a known field') },
    ]);
    const strict = check({ enabled: 'off', listing: 'on', thresholdPct: 2.5, listingMaxTokens: 900 });
    expect(strict.issues).toEqual([]);
    expect(strict.settings).toEqual(
      parseToolSearchConfig({ enabled: 'off', listing: 'on', thresholdPct: 2.5, listingMaxTokens: 900 })
        .settings,
    );
  });
});
