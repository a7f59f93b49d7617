/**
 * Bringing an older settings document up to the current version, one step per version. The steps
 * and the current version belong to whoever composes the document (host/settings-document.ts);
 * this only runs them.
 */
import { isPlainObject } from '../base/json.js';
import { describeValue, invalidSettings } from '../base/settings-check.js';

/** Upgrades a raw document from version `n` to `n + 1`; index `n - 1` holds the step from `n`. */
export type SettingsMigration = (raw: Record<string, unknown>) => Record<string, unknown>;

export interface MigrationResult {
  value: Record<string, unknown>;
  /** The version the document had; equals `currentVersion` when nothing ran. */
  fromVersion: number;
}

/** Brings an older document up to `currentVersion`. A document without `version` counts as the current one. */
export function migrateSettings(
  raw: unknown,
  migrations: readonly SettingsMigration[],
  currentVersion: number,
): MigrationResult {
  if (!isPlainObject(raw)) {
    throw invalidSettings([{ path: '(root)', message: `must be a JSON object; got ${describeValue(raw)}.` }]);
  }
  const version = raw.version ?? currentVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw invalidSettings([
      { path: 'version', message: `must be a whole number ≥ 1; got ${describeValue(version)}.` },
    ]);
  }
  if (version > currentVersion) {
    throw invalidSettings([
      {
        path: 'version',
        message: `is ${version}, written by a newer Toolbridge; this one reads up to version ${currentVersion}. Update Toolbridge, or move the file aside to start over.`,
      },
    ]);
  }
  let value: Record<string, unknown> = { ...raw, version };
  for (let from = version; from < currentVersion; from++) {
    const step = migrations[from - 1];
    if (!step) throw new Error(`settings: no migration from version ${from}`);
    value = { ...step(value), version: from + 1 };
  }
  return { value, fromVersion: version };
}
