/**
 * The headless secret store: one JSON file, created 0600 inside a 0700 folder, rewritten
 * atomically. Not encrypted: the UI says so (`kind: 'file-0600'`). The Electron app uses the OS
 * keychain through safeStorage instead.
 *
 * Several processes may share the file (`toolbridge serve` and any `toolbridge mcp` on one data
 * folder): a read notices when another process rewrote it and reads it again, and a change is
 * made under a lock file, on the file as it is then, so no process writes over another's change.
 */
import type { BigIntStats } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import { checkSecretKey, type SecretStore, secretScope } from '../base/secret-store.js';
import {
  ensurePrivateDir,
  moveAside,
  removeStaleTempFiles,
  repairPrivateFileMode,
  writeFileAtomic,
} from './atomic-file.js';
import { withFileLock } from './file-lock.js';

export const SECRETS_FILE_NAME = 'secrets.json';
const FORMAT_VERSION = 1;

type Secrets = Map<string, string>;

export class FileSecretStore implements SecretStore {
  readonly kind = 'file-0600' as const;
  /** Changes from this instance, one at a time (the lock file orders them against other holders). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly filePath: string,
    private values: Secrets,
    /** Which version of the file `values` reflects; undefined while there is no file. */
    private version: string | undefined,
  ) {}

  /**
   * Opens (or creates on first write) `<dataDir>/secrets.json`. Problems it repaired — a folder or
   * file others could read, an unreadable file moved aside — come back as warnings.
   */
  static async open(dataDir: string): Promise<{ store: FileSecretStore; warnings: string[] }> {
    const warnings: string[] = [];
    const filePath = path.join(dataDir, SECRETS_FILE_NAME);
    const dirWarning = await ensurePrivateDir(dataDir);
    if (dirWarning) warnings.push(dirWarning);
    await removeStaleTempFiles(filePath);
    const modeWarning = await repairPrivateFileMode(filePath);
    if (modeWarning) warnings.push(modeWarning);
    const disk = await readSecretsFile(filePath);
    if (disk.values === undefined) {
      const aside = await moveAside(filePath);
      warnings.push(
        `${filePath} could not be read as a secrets file; it was moved to ${aside}. Re-enter the secrets of your servers.`,
      );
      return { store: new FileSecretStore(filePath, new Map(), undefined), warnings };
    }
    return { store: new FileSecretStore(filePath, disk.values, disk.version), warnings };
  }

  async get(key: string): Promise<string | undefined> {
    await this.refresh();
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    checkSecretKey(key);
    // Writing the value already there would only take the lock for nothing (agent tokens do it at start).
    if ((await this.get(key)) === value) return;
    return this.change((values) => {
      if (values.get(key) === value) return false;
      values.set(key, value);
      return true;
    });
  }

  delete(key: string): Promise<void> {
    return this.change((values) => values.delete(key));
  }

  deleteAllForServer(scope: string): Promise<void> {
    return this.change((values) => {
      const removed = [...values.keys()].filter((key) => secretScope(key) === scope);
      for (const key of removed) values.delete(key);
      return removed.length > 0;
    });
  }

  async keys(scope?: string): Promise<string[]> {
    await this.refresh();
    return [...this.values.keys()].filter((key) => scope === undefined || secretScope(key) === scope).sort();
  }

  /** Reads the file again when another process has rewritten it since we last saw it. */
  private async refresh(): Promise<void> {
    if ((await versionOf(this.filePath)) === this.version) return;
    const disk = await readSecretsFile(this.filePath);
    // A file that does not parse is not replaced under a running process: keep what we had.
    if (disk.values === undefined) return;
    this.values = disk.values;
    this.version = disk.version;
  }

  /** Applies `edit` to the file as it is now, holding the lock; writes only when `edit` changed something. */
  private change(edit: (values: Secrets) => boolean): Promise<void> {
    const run = () =>
      withFileLock(`${this.filePath}.lock`, async () => {
        await this.refresh();
        const next = new Map(this.values);
        if (!edit(next)) return;
        const sorted = Object.fromEntries([...next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        try {
          await writeFileAtomic(
            this.filePath,
            `${JSON.stringify({ version: FORMAT_VERSION, secrets: sorted }, null, 2)}\n`,
          );
        } catch (error) {
          throw unavailable(this.filePath, error);
        }
        this.values = next;
        // Still holding the lock: nobody else can have written since our rename.
        this.version = await versionOf(this.filePath);
      });
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** Tells one written version of the file from another (each atomic write is a new inode). */
async function versionOf(filePath: string): Promise<string | undefined> {
  let stat: BigIntStats;
  try {
    stat = await fs.stat(filePath, { bigint: true });
  } catch {
    return undefined;
  }
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The file's secrets and version; no file is an empty store, and `values` is undefined for one that does not parse. */
async function readSecretsFile(filePath: string): Promise<{ values?: Secrets; version?: string }> {
  const version = await versionOf(filePath);
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: new Map() };
    throw unavailable(filePath, error);
  }
  const parsed = parseSecretsFile(text);
  if (parsed === undefined) return {};
  return { values: new Map(Object.entries(parsed)), ...(version === undefined ? {} : { version }) };
}

function parseSecretsFile(text: string): Record<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value) || value.version !== FORMAT_VERSION || !isPlainObject(value.secrets))
      return undefined;
    const entries = Object.entries(value.secrets);
    if (!entries.every(([key, item]) => typeof item === 'string' && key.includes(':'))) return undefined;
    return Object.fromEntries(entries) as Record<string, string>;
  } catch {
    return undefined;
  }
}

function unavailable(filePath: string, cause: unknown): ToolbridgeError {
  // The cause names the path and errno only; no secret value reaches it.
  return new ToolbridgeError(
    'SECRET_STORE_UNAVAILABLE',
    `The secrets file ${filePath} could not be written (${errorMessage(cause)}). Check that the data folder is writable and has free space.`,
    { cause },
  );
}

/** The 0600 file store of the data folder; what opening it repaired goes to `log`. */
export async function openFileSecretStore(
  dataDir: string,
  log: (line: string) => void,
): Promise<FileSecretStore> {
  const { store, warnings } = await FileSecretStore.open(dataDir);
  for (const warning of warnings) log(`toolbridge: ${warning}`);
  return store;
}
