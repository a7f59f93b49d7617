/**
 * settings.json on disk: where the data folder is, loading (a corrupt or invalid file is moved
 * aside and reported, never overwritten), and queued atomic updates that either pass validation
 * and land whole, or leave the file untouched. Secret values in server configs go to the secret
 * store on every write, so the file never holds them.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Emitter, type Event } from '../base/emitter.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { SecretStore } from '../base/secret-store.js';
import { extractServerSecrets } from '../servers/server-secrets.js';
import type { ServerConfig } from '../servers/types.js';
import {
  ensurePrivateDir,
  moveAside,
  removeStaleTempFiles,
  repairPrivateFileMode,
  writeFileAtomic,
} from './atomic-file.js';
import { defaultSettings, parseSettingsValue, type Settings, validateSettings } from './settings-schema.js';

export const SETTINGS_FILE_NAME = 'settings.json';

export interface DataDirOptions {
  /** `--data-dir`; wins when given. */
  dataDir?: string;
  env?: Record<string, string | undefined>;
  homeDir?: string;
}

/** `--data-dir`, else `$XDG_CONFIG_HOME/toolbridge`, else `~/.config/toolbridge`. Always absolute. */
export function resolveDataDir(options: DataDirOptions = {}): string {
  if (options.dataDir !== undefined && options.dataDir !== '') return path.resolve(options.dataDir);
  const env = options.env ?? process.env;
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (xdg !== undefined && xdg !== '' && path.isAbsolute(xdg)) return path.join(xdg, 'toolbridge');
  return path.join(options.homeDir ?? os.homedir(), '.config', 'toolbridge');
}

export interface SettingsStoreOptions {
  dataDir: string;
  /** Receives the secret values found in server configs. */
  secrets: SecretStore;
  /** Fills a brand-new settings file (no file at all yet), e.g. with the default servers. */
  seed?: (settings: Settings) => Settings | Promise<Settings>;
}

/** Changes the settings: mutate the draft, or return a new document. */
export type SettingsChange = (draft: Settings) => Settings | undefined | Promise<Settings | undefined>;

export class SettingsStore implements Disposable {
  private readonly _onDidChange = new Emitter<Settings>();
  /** Fires after an update has been written. */
  readonly onDidChange: Event<Settings> = this._onDidChange.event;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dataDir: string,
    readonly filePath: string,
    private readonly secrets: SecretStore,
    private settings: Settings,
    /** What loading had to repair or move aside, for the UI and the log. */
    readonly warnings: readonly string[],
    /** True when no settings file existed before this open. */
    readonly created: boolean,
  ) {}

  static async open(options: SettingsStoreOptions): Promise<SettingsStore> {
    const dataDir = path.resolve(options.dataDir);
    const filePath = path.join(dataDir, SETTINGS_FILE_NAME);
    const warnings: string[] = [];
    const dirWarning = await ensurePrivateDir(dataDir);
    if (dirWarning) warnings.push(dirWarning);
    await removeStaleTempFiles(filePath);
    const modeWarning = await repairPrivateFileMode(filePath);
    if (modeWarning) warnings.push(modeWarning);

    const loaded = await readSettingsFile(filePath);
    warnings.push(...loaded.warnings);
    let settings = loaded.settings ?? defaultSettings();
    const created = loaded.status === 'missing';
    if (created && options.seed) settings = validateSettings(await options.seed(settings));

    const extracted = await extractAll(settings, settings, options.secrets);
    const movedSecrets = JSON.stringify(extracted) !== JSON.stringify(settings);
    if (movedSecrets && !created) {
      warnings.push(
        `${filePath} held secret values; they were moved to the secret store (${options.secrets.kind}).`,
      );
    }
    if (loaded.status !== 'ok' || movedSecrets || loaded.migrated) {
      await writeSettingsFile(filePath, extracted);
    }
    return new SettingsStore(dataDir, filePath, options.secrets, extracted, warnings, created);
  }

  /** A copy of the current settings (with secret references, never values). */
  get current(): Settings {
    return structuredClone(this.settings);
  }

  /**
   * Applies `change`, validates, moves secrets to the secret store and writes the file atomically.
   * Updates run one at a time. On any failure the file and `current` stay as they were.
   */
  update(change: SettingsChange): Promise<Settings> {
    const run = async (): Promise<Settings> => {
      const draft = structuredClone(this.settings);
      const next = validateSettings((await change(draft)) ?? draft);
      const extracted = await extractAll(next, this.settings, this.secrets);
      await writeSettingsFile(this.filePath, extracted);
      const remaining = new Set(extracted.servers.map((server) => server.id));
      const removed = this.settings.servers.filter((server) => !remaining.has(server.id));
      this.settings = extracted;
      // After the write: a failed write must not lose the secrets still referenced on disk.
      for (const server of removed) await this.secrets.deleteAllForServer(server.id);
      this._onDidChange.fire(this.current);
      return this.current;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

async function extractAll(next: Settings, previous: Settings, secrets: SecretStore): Promise<Settings> {
  const byId = new Map<string, ServerConfig>(previous.servers.map((server) => [server.id, server]));
  const servers: ServerConfig[] = [];
  for (const server of next.servers)
    servers.push(await extractServerSecrets(server, secrets, byId.get(server.id)));
  return { ...next, servers };
}

export interface ReadSettingsResult {
  /** `missing`: no file; `moved-aside`: unreadable or invalid, renamed (see warnings). */
  status: 'ok' | 'missing' | 'moved-aside';
  settings?: Settings;
  migrated: boolean;
  warnings: string[];
}

/** Reads and validates a settings file. A file that does not parse or validate is moved aside. */
export async function readSettingsFile(filePath: string): Promise<ReadSettingsResult> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { status: 'missing', migrated: false, warnings: [] };
    throw new ToolbridgeError('INTERNAL', `Could not read ${filePath}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  let problem: string;
  try {
    const { settings, fromVersion } = parseSettingsValue(JSON.parse(text));
    return { status: 'ok', settings, migrated: fromVersion !== settings.version, warnings: [] };
  } catch (error) {
    problem = error instanceof SyntaxError ? `it is not valid JSON (${error.message})` : errorMessage(error);
  }
  const aside = await moveAside(filePath);
  return {
    status: 'moved-aside',
    migrated: false,
    warnings: [
      `${filePath} could not be used: ${problem} It was moved to ${aside}; Toolbridge started with default settings.`,
    ],
  };
}

/** Validates and writes atomically (0600). Does not touch secrets: pass settings that hold none. */
export async function writeSettingsFile(filePath: string, settings: Settings): Promise<void> {
  const valid = validateSettings(settings);
  await writeFileAtomic(filePath, `${JSON.stringify(valid, null, 2)}\n`);
}
