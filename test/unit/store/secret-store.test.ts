import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import {
  agentSecretScope,
  InMemorySecretStore,
  type SecretStore,
  secretKey,
  secretScope,
} from '../../../src/base/secret-store.js';
import { FileSecretStore } from '../../../src/store/file-secret-store.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-secrets-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('secretKey', () => {
  it('joins scope and field, and refuses a scope with ":"', () => {
    expect(secretKey('github', 'env.GITHUB_TOKEN')).toBe('github:env.GITHUB_TOKEN');
    expect(secretScope('github:header.a:b')).toBe('github');
    expect(agentSecretScope('a1')).toBe('agent.a1');
    expect(() => secretKey('a:b', 'x')).toThrow(ToolbridgeError);
  });
});

const stores: Array<[string, () => Promise<SecretStore>]> = [
  ['InMemorySecretStore', async () => new InMemorySecretStore()],
  ['FileSecretStore', async () => (await FileSecretStore.open(dir)).store],
];

describe.each(stores)('%s', (_name, make) => {
  it('gets, sets and deletes by key', async () => {
    const store = await make();
    expect(await store.get('a:x')).toBeUndefined();
    await store.set('a:x', 'one');
    await store.set('a:x', 'two');
    expect(await store.get('a:x')).toBe('two');
    await store.delete('a:x');
    expect(await store.get('a:x')).toBeUndefined();
  });

  it('deletes every key of one server and no other', async () => {
    const store = await make();
    await store.set('a:env.X', '1');
    await store.set('a:header.Authorization', '2');
    await store.set('ab:env.X', '3');
    await store.set('agent.a:token', '4');
    await store.deleteAllForServer('a');
    expect(await store.keys()).toEqual(['ab:env.X', 'agent.a:token']);
    expect(await store.keys('ab')).toEqual(['ab:env.X']);
  });

  it('refuses a key without a scope', async () => {
    const store = await make();
    await expect(store.set('nokey', 'v')).rejects.toThrow(/<scope>:<field>/);
  });
});

describe('FileSecretStore', () => {
  it('says it is a 0600 file', async () => {
    expect((await FileSecretStore.open(dir)).store.kind).toBe('file-0600');
  });

  it('persists across opens, in a 0600 file with no temp left', async () => {
    const { store } = await FileSecretStore.open(dir);
    await store.set('github:env.TOKEN', 'ghp_canary');
    const again = (await FileSecretStore.open(dir)).store;
    expect(await again.get('github:env.TOKEN')).toBe('ghp_canary');
    expect(await fs.readdir(dir)).toEqual(['secrets.json']);
    if (process.platform !== 'win32') {
      expect((await fs.stat(path.join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
      expect((await fs.stat(dir)).mode & 0o777).toBe(0o700);
    }
  });

  it.runIf(process.platform !== 'win32')('repairs a file others can read, with a warning', async () => {
    const { store } = await FileSecretStore.open(dir);
    await store.set('a:b', 'c');
    await fs.chmod(path.join(dir, 'secrets.json'), 0o644);
    const { store: again, warnings } = await FileSecretStore.open(dir);
    expect(warnings).toEqual([expect.stringContaining('readable by other users')]);
    expect((await fs.stat(path.join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(await again.get('a:b')).toBe('c');
  });

  it('moves an unreadable file aside instead of overwriting it', async () => {
    await fs.writeFile(path.join(dir, 'secrets.json'), '{ not json', { mode: 0o600 });
    const { store, warnings } = await FileSecretStore.open(dir);
    expect(warnings).toEqual([expect.stringMatching(/moved to .*secrets\.json\.corrupt-/)]);
    expect(await store.keys()).toEqual([]);
    const names = await fs.readdir(dir);
    const aside = names.find((name) => name.startsWith('secrets.json.corrupt-'));
    expect(aside && (await fs.readFile(path.join(dir, aside), 'utf8'))).toBe('{ not json');
  });

  it('cleans up temp files a crashed writer left', async () => {
    await fs.writeFile(path.join(dir, '.secrets.json.99.ff.tmp'), 'half');
    await FileSecretStore.open(dir);
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it.runIf(process.platform !== 'win32' && process.getuid?.() !== 0)(
    'reports SECRET_STORE_UNAVAILABLE and keeps the old value when it cannot write',
    async () => {
      const { store } = await FileSecretStore.open(dir);
      await store.set('a:b', 'old');
      await fs.chmod(dir, 0o500);
      try {
        const error = await store.set('a:b', 'new-secret-value').catch((e: unknown) => e);
        expect(ToolbridgeError.is(error, 'SECRET_STORE_UNAVAILABLE')).toBe(true);
        expect((error as Error).message).not.toContain('new-secret-value');
        expect(await store.get('a:b')).toBe('old');
      } finally {
        await fs.chmod(dir, 0o700);
      }
    },
  );
});

describe('FileSecretStore shared by two processes (two stores on one folder)', () => {
  it('each sees what the other wrote, and concurrent changes from both are all kept', async () => {
    const first = (await FileSecretStore.open(dir)).store;
    const second = (await FileSecretStore.open(dir)).store;
    await first.set('remote:oauth.tokens', 'from-first');
    expect(await second.get('remote:oauth.tokens')).toBe('from-first');
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => first.set(`a:env.K${i}`, `first-${i}`)),
      ...Array.from({ length: 5 }, (_, i) => second.set(`b:env.K${i}`, `second-${i}`)),
      second.set('remote:oauth.tokens', 'from-second'),
    ]);
    const expected = [
      ...Array.from({ length: 5 }, (_, i) => `a:env.K${i}`),
      ...Array.from({ length: 5 }, (_, i) => `b:env.K${i}`),
      'remote:oauth.tokens',
    ];
    expect(await first.keys()).toEqual(expected);
    expect(await second.keys()).toEqual(expected);
    expect(await first.get('remote:oauth.tokens')).toBe('from-second');
    expect(await (await FileSecretStore.open(dir)).store.keys()).toEqual(expected);
    await second.deleteAllForServer('a');
    expect(await first.keys('a')).toEqual([]);
    await first.delete('remote:oauth.tokens');
    expect(await second.get('remote:oauth.tokens')).toBeUndefined();
    expect((await fs.readdir(dir)).sort()).toEqual(['secrets.json']);
  });
});
