import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ENCRYPTED_SECRETS_DIR,
  type SafeStorageLike,
  SafeStorageSecretStore,
} from '../../../main/safe-storage-secret-store.js';

/** Reversible and visibly not plain text; `rotated` makes the next decrypt ask for re-encryption. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}) {
  const state = { rotated: false, encryptions: 0 };
  const storage: SafeStorageLike = {
    isAsyncEncryptionAvailable: async () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptStringAsync: async (text) => {
      state.encryptions++;
      return Buffer.from(`v1:${Buffer.from(text).reverse().toString('hex')}`);
    },
    decryptStringAsync: async (encrypted) => {
      const text = encrypted.toString();
      if (!text.startsWith('v1:')) throw new Error('cannot decrypt');
      const result = Buffer.from(text.slice(3), 'hex').reverse().toString();
      const shouldReEncrypt = state.rotated;
      state.rotated = false;
      return { result, shouldReEncrypt };
    },
  };
  return { storage, state };
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'toolbridge-safe-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('SafeStorageSecretStore', () => {
  it('keeps only ciphertext on disk, apart from the headless secrets file', async () => {
    const { storage } = fakeSafeStorage();
    const { store, warnings } = await SafeStorageSecretStore.open(storage, dataDir, 'linux');
    expect(store.kind).toBe('os-encrypted');
    expect(warnings).toEqual([]);
    await store.set('github:token', 'ghp_canary_1234567890');
    expect(await store.get('github:token')).toBe('ghp_canary_1234567890');
    const onDisk = await readFile(join(dataDir, ENCRYPTED_SECRETS_DIR, 'secrets.json'), 'utf8');
    expect(onDisk).toContain('github:token');
    expect(onDisk).not.toContain('ghp_canary');
    await expect(readFile(join(dataDir, 'secrets.json'), 'utf8')).rejects.toThrow();
    expect(await store.keys('github')).toEqual(['github:token']);
    await store.deleteAllForServer('github');
    expect(await store.get('github:token')).toBeUndefined();
  });

  it('re-encrypts a value when the keychain says its key rotated', async () => {
    const { storage, state } = fakeSafeStorage();
    const { store } = await SafeStorageSecretStore.open(storage, dataDir, 'darwin');
    await store.set('a:b', 'value');
    state.rotated = true;
    expect(await store.get('a:b')).toBe('value');
    expect(state.encryptions).toBe(2);
  });

  it('reports a value that no longer decrypts as absent and forgets it', async () => {
    const { storage } = fakeSafeStorage();
    const { store } = await SafeStorageSecretStore.open(storage, dataDir, 'darwin');
    await store.set('a:b', 'value');
    const broken = {
      ...storage,
      decryptStringAsync: async () => Promise.reject(new Error('keychain reset')),
    };
    const { store: reopened } = await SafeStorageSecretStore.open(broken, dataDir, 'darwin');
    expect(await reopened.get('a:b')).toBeUndefined();
    expect(await reopened.keys()).toEqual([]);
  });

  it.each([
    ['Linux without a keyring (basic_text)', { backend: 'basic_text' }, 'linux', 'no system keyring'],
    ['no keychain at all', { available: false }, 'win32', 'not available'],
  ] as const)('falls back to the 0600 file and says so: %s', async (_label, options, platform, reason) => {
    const { storage } = fakeSafeStorage(options);
    const { store, warnings } = await SafeStorageSecretStore.open(storage, dataDir, platform);
    expect(store.kind).toBe('file-0600');
    expect(warnings.join(' ')).toContain(reason);
  });
});
