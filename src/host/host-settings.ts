import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentRecordStore } from '../agents/agent-registry.js';
import type { PolicyRule } from '../approvals/policy.js';
import { withAlwaysAllowRule } from '../approvals/settings.js';
import { Emitter, type Event } from '../base/emitter.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { SecretStore } from '../base/secret-store.js';
import { defaultServerConfigs } from '../servers/default-servers.js';
import { SETTINGS_FILE_NAME, type SettingsChange, SettingsStore } from '../store/settings-file.js';
import {
  defaultSettings,
  parseSettingsValue,
  SETTINGS_DOCUMENT,
  type Settings,
  settingsSecrets,
} from './settings-document.js';

/** What the host needs of the settings: the SettingsStore, or a read-only view of the same file. */
export interface HostSettings {
  readonly current: Settings;
  update(change: SettingsChange<Settings>): Promise<Settings>;
  readonly onDidChange: Event<Settings>;
  /** What loading repaired or moved aside, for the log. */
  readonly warnings: readonly string[];
  dispose(): void;
}

/** settings.json in `dataDir`: every domain's section, server secrets kept in `secrets`. */
export function openSettingsStore(options: {
  dataDir: string;
  secrets: SecretStore;
  seed?: (settings: Settings) => Settings | Promise<Settings>;
}): Promise<SettingsStore<Settings>> {
  const { secrets, ...rest } = options;
  return SettingsStore.open({ ...rest, document: SETTINGS_DOCUMENT, secrets: settingsSecrets(secrets) });
}

/** The writable settings of the data folder; a brand-new folder starts with the default servers. */
export async function openSettings(dataDir: string, secrets: SecretStore): Promise<HostSettings> {
  return openSettingsStore({
    dataDir,
    secrets,
    seed: async (settings) => ({ ...settings, servers: await defaultServerConfigs(dataDir) }),
  });
}

/**
 * The settings as they are on disk, never written (`toolbridge mcp` next to a running app): no
 * file means the defaults, a file that does not validate is an error to fix where it is edited.
 */
export async function openReadOnlySettings(dataDir: string): Promise<HostSettings> {
  const filePath = path.join(dataDir, SETTINGS_FILE_NAME);
  let settings: Settings;
  let text: string | undefined;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ToolbridgeError('INTERNAL', `Could not read ${filePath}: ${errorMessage(error)}.`, {
        cause: error,
      });
    }
  }
  if (text === undefined) {
    settings = { ...defaultSettings(), servers: await defaultServerConfigs(dataDir) };
  } else {
    try {
      settings = parseSettingsValue(JSON.parse(text)).settings;
    } catch (error) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `${filePath} cannot be used: ${errorMessage(error)} Fix it (or start the app or toolbridge serve once, which moves a broken file aside).`,
        { cause: error },
      );
    }
  }
  const onDidChange = new Emitter<Settings>();
  return {
    get current() {
      return structuredClone(settings);
    },
    update: async () => {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'Settings are read-only in this process (toolbridge mcp). Change them in the app or in toolbridge serve.',
      );
    },
    onDidChange: onDidChange.event,
    warnings: [],
    dispose: () => onDidChange.dispose(),
  };
}

/**
 * The settings as of the last change, one copy per change: `current` deep-copies, too much for
 * every call, which reads them.
 */
export function settingsSnapshot(
  settings: Pick<HostSettings, 'current' | 'onDidChange'>,
): { readonly current: Settings } & Disposable {
  let current = settings.current;
  const subscription = settings.onDidChange((next) => {
    current = next;
  });
  return {
    get current() {
      return current;
    },
    dispose: () => subscription.dispose(),
  };
}

/** The agents' records, kept in the settings file. */
export function agentRecordStore(settings: HostSettings): AgentRecordStore {
  return {
    read: () => settings.current.agents,
    write: async (records) => {
      await settings.update((draft) => {
        draft.agents = records;
        return draft;
      });
    },
  };
}

/** Saves an "always allow" from a card into the settings, bound to the tool's definition hash. */
export function alwaysAllowSaver(settings: HostSettings): (rule: PolicyRule) => Promise<void> {
  return async (rule) => {
    await settings.update((draft) => {
      draft.policies.rules = withAlwaysAllowRule(draft.policies.rules, rule);
      return draft;
    });
  };
}
