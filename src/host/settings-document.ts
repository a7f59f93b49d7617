/**
 * settings.json composed from the domains' sections (design.md: a domain owns its settings
 * section, its records and its defaults; saving and migrating the file is store/'s job, composing
 * the sections is host/'s). Each section reads its own top-level fields; this adds the version,
 * the migrations, the unknown-field check and how server secrets leave the file.
 */
import { AGENTS_SECTION, type AgentsSection } from '../agents/settings.js';
import { APPROVALS_SECTION, type ApprovalsSection } from '../approvals/settings.js';
import { isPlainObject } from '../base/json.js';
import type { SecretStore } from '../base/secret-store.js';
import { describeValue, invalidSettings, SettingsChecker } from '../base/settings-check.js';
import { BRIDGE_SECTION, type BridgeSection } from '../bridge/settings.js';
import { CATALOG_SECTION, type CatalogSection } from '../catalog/tool-settings.js';
import { CONNECTORS_SECTION, type ConnectorsSection } from '../connectors/settings.js';
import { forgetRemovedServerSecrets, moveServerSecretsOut } from '../servers/server-secrets.js';
import { SERVERS_SECTION, type ServersSection } from '../servers/settings.js';
import {
  parseSettingsDocument,
  type SettingsDocument,
  type SettingsSecrets,
} from '../store/settings-file.js';
import type { SettingsMigration } from '../store/settings-migration.js';

/** 2 added `policies.rules` and `connectors`. */
export const SETTINGS_VERSION = 2;

/** Steps from each older version. */
export const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [
  // 1 → 2: the new sections are optional with defaults, so a version-1 document reads as is. The
  // bump is for older builds, which refuse unknown fields: they now say "written by a newer
  // Toolbridge" instead of "policies.rules is not a known field".
  (raw) => raw,
];

export interface Settings
  extends ServersSection,
    CatalogSection,
    ApprovalsSection,
    AgentsSection,
    ConnectorsSection,
    BridgeSection {
  version: typeof SETTINGS_VERSION;
}

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    ...SERVERS_SECTION.defaults(),
    ...CATALOG_SECTION.defaults(),
    ...APPROVALS_SECTION.defaults(),
    ...AGENTS_SECTION.defaults(),
    ...CONNECTORS_SECTION.defaults(),
    ...BRIDGE_SECTION.defaults(),
  };
}

/**
 * Checks a document (after migration) and returns it with defaults filled in. Throws
 * `INVALID_ARGUMENT` listing every issue of every section; `data.issues` holds them as
 * `{ path, message }`.
 */
export function validateSettings(raw: unknown): Settings {
  if (!isPlainObject(raw)) {
    throw invalidSettings([{ path: '(root)', message: `must be a JSON object; got ${describeValue(raw)}.` }]);
  }
  const c = new SettingsChecker();
  c.knownKeys(raw, '', Object.keys(defaultSettings()));
  if (raw.version !== undefined && raw.version !== SETTINGS_VERSION) {
    c.issue(
      'version',
      `must be ${SETTINGS_VERSION}; got ${describeValue(raw.version)}. Run it through migrateSettings first.`,
    );
  }
  const settings: Settings = {
    version: SETTINGS_VERSION,
    ...SERVERS_SECTION.check(c, raw),
    ...CATALOG_SECTION.check(c, raw),
    ...APPROVALS_SECTION.check(c, raw),
    ...AGENTS_SECTION.check(c, raw),
    ...CONNECTORS_SECTION.check(c, raw),
    ...BRIDGE_SECTION.check(c, raw),
  };
  c.throwIfAny();
  return settings;
}

export const SETTINGS_DOCUMENT: SettingsDocument<Settings> = {
  version: SETTINGS_VERSION,
  migrations: SETTINGS_MIGRATIONS,
  defaults: defaultSettings,
  validate: validateSettings,
};

/** `migrateSettings` then `validateSettings`. */
export function parseSettingsValue(raw: unknown): { settings: Settings; fromVersion: number } {
  return parseSettingsDocument(SETTINGS_DOCUMENT, raw);
}

/** Server configs are the only part of the document that holds secret values. */
export function settingsSecrets(secrets: SecretStore): SettingsSecrets<Settings> {
  return {
    kind: secrets.kind,
    moveOut: async (next, previous) => ({
      ...next,
      servers: await moveServerSecretsOut(next.servers, previous.servers, secrets),
    }),
    forgetRemoved: (written, previous) =>
      forgetRemovedServerSecrets(written.servers, previous.servers, secrets),
  };
}
