/**
 * The headless secret store: one JSON file, created 0600 inside a 0700 folder, rewritten
 * atomically. Not encrypted: the UI says so (`kind: 'file-0600'`). The Electron app uses the OS
 * keychain through safeStorage instead.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import {
  ensurePrivateDir,
  moveAside,
  removeStaleTempFiles,
  repairPrivateFileMode,
  writeFileAtomic,
} from './atomic-file.js';
import { checkSecretKey, type SecretStore, secretScope } from './secret-store.js';

export const SECRETS_FILE_NAME = 'secrets.json';
const FORMAT_VERSION = 1;

export class FileSecretStore implements SecretStore {
  readonly kind = 'file-0600' as const;

  private constructor(
    readonly filePath: string,
    private readonly values: Map<string, string>,
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
    const values = new Map<string, string>();
    let text: string | undefined;
    try {
      text = await fs.readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unavailable(filePath, error);
    }
    if (text !== undefined) {
      const parsed = parseSecretsFile(text);
      if (parsed) {
        for (const [key, value] of Object.entries(parsed)) values.set(key, value);
      } else {
        const aside = await moveAside(filePath);
        warnings.push(
          `${filePath} could not be read as a secrets file; it was moved to ${aside}. Re-enter the secrets of your servers.`,
        );
      }
    }
    return { store: new FileSecretStore(filePath, values), warnings };
  }

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    checkSecretKey(key);
    if (this.values.get(key) === value) return;
    const previous = this.values.get(key);
    this.values.set(key, value);
    await this.persist(() =>
      previous === undefined ? this.values.delete(key) : this.values.set(key, previous),
    );
  }

  async delete(key: string): Promise<void> {
    const previous = this.values.get(key);
    if (previous === undefined) return;
    this.values.delete(key);
    await this.persist(() => this.values.set(key, previous));
  }

  async deleteAllForServer(scope: string): Promise<void> {
    const removed = [...this.values].filter(([key]) => secretScope(key) === scope);
    if (removed.length === 0) return;
    for (const [key] of removed) this.values.delete(key);
    await this.persist(() => {
      for (const [key, value] of removed) this.values.set(key, value);
    });
  }

  async keys(scope?: string): Promise<string[]> {
    return [...this.values.keys()].filter((key) => scope === undefined || secretScope(key) === scope).sort();
  }

  private async persist(undo: () => void): Promise<void> {
    const secrets = Object.fromEntries([...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    try {
      await writeFileAtomic(
        this.filePath,
        `${JSON.stringify({ version: FORMAT_VERSION, secrets }, null, 2)}\n`,
      );
    } catch (error) {
      undo();
      throw unavailable(this.filePath, error);
    }
  }
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
