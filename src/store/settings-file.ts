/**
 * settings.json on disk: where the data folder is, loading (a corrupt or invalid file is moved
 * aside and reported, never overwritten), and queued atomic updates that either pass validation
 * and land whole, or leave the file untouched. It knows no domain: the document (its version,
 * migrations, defaults and validation) and how secret values leave it come from host/, which
 * composes the domains' sections (host/settings-document.ts).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Emitter, type Event } from '../base/emitter.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import {
  ensurePrivateDir,
  moveAside,
  removeStaleTempFiles,
  repairPrivateFileMode,
  writeFileAtomic,
} from './atomic-file.js';
import { migrateSettings, type SettingsMigration } from './settings-migration.js';

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

/** What the file holds: its version and migrations, its defaults and its validation. */
export interface SettingsDocument<T> {
  /** The version written; an older file is migrated up to it. */
  readonly version: number;
  /** Steps from each older version: index `n - 1` upgrades version `n`. */
  readonly migrations: readonly SettingsMigration[];
  /** The document of a folder without a file. */
  defaults(): T;
  /** Checks a (migrated) document and fills defaults; throws `INVALID_ARGUMENT` naming every issue. */
  validate(raw: unknown): T;
}

/** How secret values leave the document before any write, so the file never holds them. */
export interface SettingsSecrets<T> {
  /** Where the values go (the secret store's kind), named in the warning when a file held some. */
  readonly kind: string;
  /** `next` with every secret value moved to the secret store; `previous` is what is on disk. */
  moveOut(next: T, previous: T): Promise<T>;
  /** After a write: drops the secrets of what `previous` held and `written` no longer does. */
  forgetRemoved(written: T, previous: T): Promise<void>;
}

export interface SettingsStoreOptions<T> {
  dataDir: string;
  document: SettingsDocument<T>;
  secrets?: SettingsSecrets<T>;
  /** Fills a brand-new settings file (no file at all yet), e.g. with the default servers. */
  seed?: (settings: T) => T | Promise<T>;
}

/** Changes the settings: mutate the draft, or return a new document. */
export type SettingsChange<T> = (draft: T) => T | undefined | Promise<T | undefined>;

/** `migrateSettings` then `document.validate`. */
export function parseSettingsDocument<T>(
  document: SettingsDocument<T>,
  raw: unknown,
): { settings: T; fromVersion: number } {
  const { value, fromVersion } = migrateSettings(raw, document.migrations, document.version);
  return { settings: document.validate(value), fromVersion };
}

export class SettingsStore<T> implements Disposable {
  private readonly _onDidChange = new Emitter<T>();
  /** Fires after an update has been written. */
  readonly onDidChange: Event<T> = this._onDidChange.event;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dataDir: string,
    readonly filePath: string,
    private readonly document: SettingsDocument<T>,
    private readonly secrets: SettingsSecrets<T> | undefined,
    private settings: T,
    /** What loading had to repair or move aside, for the UI and the log. */
    readonly warnings: readonly string[],
    /** True when no settings file existed before this open. */
    readonly created: boolean,
  ) {}

  static async open<T>(options: SettingsStoreOptions<T>): Promise<SettingsStore<T>> {
    const { document, secrets } = options;
    const dataDir = path.resolve(options.dataDir);
    const filePath = path.join(dataDir, SETTINGS_FILE_NAME);
    const warnings: string[] = [];
    const dirWarning = await ensurePrivateDir(dataDir);
    if (dirWarning) warnings.push(dirWarning);
    await removeStaleTempFiles(filePath);
    const modeWarning = await repairPrivateFileMode(filePath);
    if (modeWarning) warnings.push(modeWarning);

    const loaded = await readSettingsFile(filePath, document);
    warnings.push(...loaded.warnings);
    let settings = loaded.settings ?? document.defaults();
    const created = loaded.status === 'missing';
    if (created && options.seed) settings = document.validate(await options.seed(settings));

    const extracted = secrets ? await secrets.moveOut(settings, settings) : settings;
    const movedSecrets = JSON.stringify(extracted) !== JSON.stringify(settings);
    if (movedSecrets && !created) {
      warnings.push(
        `${filePath} held secret values; they were moved to the secret store (${secrets?.kind}).`,
      );
    }
    if (loaded.status !== 'ok' || movedSecrets || loaded.migrated) {
      await writeSettingsFile(filePath, document, extracted);
    }
    return new SettingsStore(dataDir, filePath, document, secrets, extracted, warnings, created);
  }

  /** A copy of the current settings (with secret references, never values). */
  get current(): T {
    return structuredClone(this.settings);
  }

  /**
   * Applies `change`, validates, moves secrets to the secret store and writes the file atomically.
   * Updates run one at a time. On any failure the file and `current` stay as they were.
   */
  update(change: SettingsChange<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const draft = structuredClone(this.settings);
      const next = this.document.validate((await change(draft)) ?? draft);
      const previous = this.settings;
      const extracted = this.secrets ? await this.secrets.moveOut(next, previous) : next;
      await writeSettingsFile(this.filePath, this.document, extracted);
      this.settings = extracted;
      // After the write: a failed write must not lose the secrets still referenced on disk.
      await this.secrets?.forgetRemoved(extracted, previous);
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

export interface ReadSettingsResult<T> {
  /** `missing`: no file; `moved-aside`: unreadable or invalid, renamed (see warnings). */
  status: 'ok' | 'missing' | 'moved-aside';
  settings?: T;
  migrated: boolean;
  warnings: string[];
}

/** Reads and validates a settings file. A file that does not parse or validate is moved aside. */
export async function readSettingsFile<T>(
  filePath: string,
  document: SettingsDocument<T>,
): Promise<ReadSettingsResult<T>> {
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
    const { settings, fromVersion } = parseSettingsDocument(document, JSON.parse(text));
    return { status: 'ok', settings, migrated: fromVersion !== document.version, warnings: [] };
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
export async function writeSettingsFile<T>(
  filePath: string,
  document: SettingsDocument<T>,
  settings: T,
): Promise<void> {
  const valid = document.validate(settings);
  await writeFileAtomic(filePath, `${JSON.stringify(valid, null, 2)}\n`);
}
