import { describe, expect, it } from 'vitest';
import {
  parseSettingsValue,
  SETTINGS_MIGRATIONS,
  SETTINGS_VERSION,
} from '../../../src/host/settings-document.js';
import { migrateSettings as migrate, type SettingsMigration } from '../../../src/store/settings-migration.js';

/** The store's migration with Toolbridge's steps, unless a test brings its own. */
function migrateSettings(
  raw: unknown,
  steps: readonly SettingsMigration[] = SETTINGS_MIGRATIONS,
  version = SETTINGS_VERSION as number,
) {
  return migrate(raw, steps, version);
}

describe('migrateSettings', () => {
  it('treats a document without a version as the current one', () => {
    expect(migrateSettings({ servers: [] })).toEqual({
      value: { servers: [], version: SETTINGS_VERSION },
      fromVersion: SETTINGS_VERSION,
    });
  });

  it('runs each step from the old version up to the current one', () => {
    const steps = [
      (raw: Record<string, unknown>) => ({ ...raw, renamed: raw.old }),
      (raw: Record<string, unknown>) => ({ ...raw, third: true }),
    ];
    expect(migrateSettings({ version: 1, old: 'x' }, steps, 3)).toEqual({
      value: { version: 3, old: 'x', renamed: 'x', third: true },
      fromVersion: 1,
    });
    expect(migrateSettings({ version: 2 }, steps, 3).value).toEqual({ version: 3, third: true });
  });

  it('reads a version-1 document as version 2 with the new sections at their defaults', () => {
    const v1 = {
      version: 1,
      servers: [{ id: 'a', transport: 'stdio', command: 'x', enabled: true }],
      policies: { default: 'deny', servers: {}, tools: {} },
    };
    const { settings, fromVersion } = parseSettingsValue(v1);
    expect(fromVersion).toBe(1);
    expect(settings.version).toBe(2);
    expect(settings.policies).toEqual({ default: 'deny', servers: {}, connectors: {}, tools: {}, rules: [] });
    expect(settings.connectors).toEqual({ enabled: true });
    expect(settings.servers).toEqual(v1.servers);
  });

  it('refuses a file from a newer Toolbridge with advice', () => {
    expect(() => migrateSettings({ version: SETTINGS_VERSION + 1 })).toThrow(
      /newer Toolbridge.*Update Toolbridge/,
    );
  });

  it('refuses a document that is not an object', () => {
    expect(() => migrateSettings([1, 2])).toThrow(/must be a JSON object; got a list/);
  });
});
