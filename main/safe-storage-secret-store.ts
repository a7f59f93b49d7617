import { join } from 'node:path';
import type { SecretStore } from '../src/base/secret-store.js';
import { FileSecretStore } from '../src/store/file-secret-store.js';

/** The part of Electron's `safeStorage` we use (the async API), so tests hand in a fake. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend?(): string;
}

/** Ciphertexts live apart from the headless `secrets.json`, which `toolbridge serve` would read as plain text. */
export const ENCRYPTED_SECRETS_DIR = 'os-encrypted';

/**
 * Secrets encrypted by the OS keychain (Electron safeStorage), the only file that touches it.
 * Ciphertexts are kept in a 0600 file through the headless store, so writes are atomic and keys
 * behave the same. A value that no longer decrypts (keychain reset) is dropped and reported
 * absent, as the user would re-enter it anyway.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'os-encrypted' as const;

  private constructor(
    private readonly safeStorage: SafeStorageLike,
    private readonly ciphertexts: SecretStore,
  ) {}

  /**
   * Opens the store in `dataDir`. Where the OS cannot encrypt (no keychain; Linux's
   * `basic_text` backend, which only obfuscates), falls back to the 0600 file and says why.
   */
  static async open(
    safeStorage: SafeStorageLike,
    dataDir: string,
    platform: NodeJS.Platform = process.platform,
  ): Promise<{ store: SecretStore; warnings: string[] }> {
    const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
    const available =
      backend !== 'basic_text' && (await safeStorage.isAsyncEncryptionAvailable().catch(() => false));
    if (!available) {
      const fallback = await FileSecretStore.open(dataDir);
      const reason =
        backend === 'basic_text'
          ? 'no system keyring was found (safeStorage would only obfuscate them)'
          : 'the system keychain is not available';
      return {
        store: fallback.store,
        warnings: [
          ...fallback.warnings,
          `Secrets are kept unencrypted in a file only you can read (0600), because ${reason}.`,
        ],
      };
    }
    const inner = await FileSecretStore.open(join(dataDir, ENCRYPTED_SECRETS_DIR));
    return { store: new SafeStorageSecretStore(safeStorage, inner.store), warnings: inner.warnings };
  }

  async get(key: string): Promise<string | undefined> {
    const stored = await this.ciphertexts.get(key);
    if (stored === undefined) return undefined;
    try {
      const { result, shouldReEncrypt } = await this.safeStorage.decryptStringAsync(
        Buffer.from(stored, 'base64'),
      );
      if (shouldReEncrypt) await this.set(key, result);
      return result;
    } catch {
      await this.ciphertexts.delete(key);
      return undefined;
    }
  }

  async set(key: string, value: string): Promise<void> {
    const encrypted = await this.safeStorage.encryptStringAsync(value);
    await this.ciphertexts.set(key, encrypted.toString('base64'));
  }

  delete(key: string): Promise<void> {
    return this.ciphertexts.delete(key);
  }

  deleteAllForServer(scope: string): Promise<void> {
    return this.ciphertexts.deleteAllForServer(scope);
  }

  keys(scope?: string): Promise<string[]> {
    return this.ciphertexts.keys(scope);
  }
}
