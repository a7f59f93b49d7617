import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withAlwaysAllowRule } from '../../../src/approvals/settings.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY, InMemorySecretStore } from '../../../src/base/secret-store.js';
import { openSettingsStore } from '../../../src/host/host-settings.js';
import { defaultSettings, SETTINGS_DOCUMENT, SETTINGS_VERSION } from '../../../src/host/settings-document.js';
import {
  readSettingsFile,
  resolveDataDir,
  type SettingsDocument,
  SettingsStore,
} from '../../../src/store/settings-file.js';
import { deadPid } from './dead-pid.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-settings-'));
  file = path.join(dir, 'settings.json');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const posix = process.platform !== 'win32';

/** As a user would leave it, but private, so no mode warning mixes into what a test checks. */
function writePrivate(text: string): Promise<void> {
  return fs.writeFile(file, text, { mode: 0o600 });
}

describe('resolveDataDir', () => {
  it('prefers --data-dir, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(resolveDataDir({ dataDir: '/a/b', env: { XDG_CONFIG_HOME: '/x' } })).toBe(path.resolve('/a/b'));
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/x' }, homeDir: '/home/u' })).toBe(
      path.join('/x', 'toolbridge'),
    );
    expect(resolveDataDir({ env: {}, homeDir: '/home/u' })).toBe(
      path.join('/home/u', '.config', 'toolbridge'),
    );
  });

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec says', () => {
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: 'rel' }, homeDir: '/home/u' })).toBe(
      path.join('/home/u', '.config', 'toolbridge'),
    );
  });

  it('makes a relative --data-dir absolute', () => {
    expect(path.isAbsolute(resolveDataDir({ dataDir: 'rel/dir' }))).toBe(true);
  });
});

describe('SettingsStore.open', () => {
  it('creates the file from the seed on first run, 0600 in a 0700 folder', async () => {
    const data = path.join(dir, 'data');
    const store = await openSettingsStore({
      dataDir: data,
      secrets: new InMemorySecretStore(),
      seed: (s) => ({
        ...s,
        servers: [{ id: 'everything', transport: 'stdio', command: 'node', enabled: true }],
      }),
    });
    expect(store.created).toBe(true);
    expect(store.current.servers.map((s) => s.id)).toEqual(['everything']);
    const onDisk = JSON.parse(await fs.readFile(path.join(data, 'settings.json'), 'utf8'));
    expect(onDisk.servers[0].id).toBe('everything');
    if (posix) {
      expect((await fs.stat(path.join(data, 'settings.json'))).mode & 0o777).toBe(0o600);
      expect((await fs.stat(data)).mode & 0o777).toBe(0o700);
    }
  });

  it('does not seed when a file exists', async () => {
    await writePrivate(JSON.stringify({ version: 1, servers: [] }));
    const store = await openSettingsStore({
      dataDir: dir,
      secrets: new InMemorySecretStore(),
      seed: () => {
        throw new Error('must not seed');
      },
    });
    expect(store.created).toBe(false);
    expect(store.current.servers).toEqual([]);
  });

  it('moves a corrupt file aside, reports it, and starts from defaults', async () => {
    await writePrivate('{"version": 1, "servers": [');
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    expect(store.warnings).toEqual([
      expect.stringMatching(/not valid JSON.*moved to .*settings\.json\.corrupt-/),
    ]);
    expect(store.current).toEqual(defaultSettings());
    const names = await fs.readdir(dir);
    const aside = names.find((name) => name.startsWith('settings.json.corrupt-'));
    expect(aside && (await fs.readFile(path.join(dir, aside), 'utf8'))).toBe('{"version": 1, "servers": [');
  });

  it('moves an invalid file aside with the validation message', async () => {
    await writePrivate(
      JSON.stringify({ version: 1, servers: [{ id: 'Bad Id', transport: 'stdio', command: 'x' }] }),
    );
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    expect(store.warnings[0]).toMatch(/servers\[0\]\.id .*moved to/);
    expect((await fs.readdir(dir)).some((name) => name.startsWith('settings.json.corrupt-'))).toBe(true);
  });

  it('moves secrets a user typed into settings.json to the secret store and rewrites the file', async () => {
    await writePrivate(
      JSON.stringify({
        version: 1,
        servers: [{ id: 'gh', transport: 'stdio', command: 'x', env: { GH_TOKEN: 'ghp_canary' } }],
      }),
    );
    const secrets = new InMemorySecretStore();
    const store = await openSettingsStore({ dataDir: dir, secrets });
    expect(store.warnings).toEqual([expect.stringContaining('moved to the secret store')]);
    expect(await fs.readFile(file, 'utf8')).not.toContain('ghp_canary');
    expect(await secrets.get('gh:env.GH_TOKEN')).toBe('ghp_canary');
  });

  it('migrates a version-1 file and writes it back as the current version', async () => {
    const servers = [{ id: 'a', transport: 'stdio', command: 'x', enabled: true }];
    await writePrivate(JSON.stringify({ version: 1, servers, redactionPatterns: ['p'] }));
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    expect(store.warnings).toEqual([]);
    const onDisk = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(onDisk).toEqual({
      ...defaultSettings(),
      version: SETTINGS_VERSION,
      servers,
      redactionPatterns: ['p'],
    });
    expect(onDisk.policies.rules).toEqual([]);
    expect(onDisk.connectors).toEqual({ enabled: true });
  });

  it('never puts a bad redaction pattern (maybe a pasted secret) into the warning', async () => {
    await writePrivate(JSON.stringify({ version: 1, redactionPatterns: ['ghp_CANARY1234567890('] }));
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    expect(store.warnings).toEqual([
      expect.stringMatching(/redactionPatterns\[0\] is refused: Redaction pattern 1/),
    ]);
    expect(store.warnings.join('\n')).not.toContain('CANARY');
  });

  it('removes temp files left by a crashed write', async () => {
    await fs.writeFile(path.join(dir, `.settings.json.${deadPid()}.aa.tmp`), 'half');
    await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    expect(await fs.readdir(dir)).toEqual(['settings.json']);
  });
});

describe('SettingsStore.update', () => {
  it('writes the change atomically and fires onDidChange', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    const seen: number[] = [];
    store.onDidChange((s) => seen.push(s.callTimeoutMs));
    const next = await store.update((draft) => {
      draft.callTimeoutMs = 5_000;
      return undefined;
    });
    expect(next.callTimeoutMs).toBe(5_000);
    expect(seen).toEqual([5_000]);
    expect(JSON.parse(await fs.readFile(file, 'utf8')).callTimeoutMs).toBe(5_000);
    expect(await fs.readdir(dir)).toEqual(['settings.json']);
    if (posix) expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('leaves the file and current untouched when the change fails validation', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    const before = await fs.readFile(file);
    const error = await store
      .update((draft) => ({ ...draft, policies: { ...draft.policies, default: 'sometimes' as 'ask' } }))
      .catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('policies.default');
    expect(await fs.readFile(file)).toEqual(before);
    expect(store.current.policies.default).toBe('ask');
  });

  it('never writes a secret value to the file (checked on the bytes)', async () => {
    const secrets = new InMemorySecretStore();
    const store = await openSettingsStore({ dataDir: dir, secrets });
    await store.update((draft) => {
      draft.servers.push(
        { id: 'a', transport: 'stdio', command: 'x', enabled: true, env: { OPENAI_API_KEY: 'sk-canary-1' } },
        {
          id: 'b',
          transport: 'http',
          url: 'https://e.example/mcp',
          enabled: true,
          headers: { Authorization: 'Bearer canary-2' },
        },
      );
      return undefined;
    });
    const bytes = await fs.readFile(file, 'utf8');
    expect(bytes).not.toContain('canary');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal reference syntax.
    expect(bytes).toContain('${secret:a:env.OPENAI_API_KEY}');
    expect(await secrets.get('b:header.Authorization')).toBe('Bearer canary-2');
  });

  it("deletes a removed server's secrets after the write", async () => {
    const secrets = new InMemorySecretStore();
    const store = await openSettingsStore({ dataDir: dir, secrets });
    await store.update((d) => ({
      ...d,
      servers: [{ id: 'a', transport: 'stdio', command: 'x', enabled: true, env: { TOKEN: 't' } }],
    }));
    expect(await secrets.keys('a')).toEqual(['a:env.TOKEN']);
    await store.update((d) => ({ ...d, servers: [] }));
    expect(await secrets.keys()).toEqual([]);
  });

  it('keeps the connector gateway token when a server named "connectors" is removed', async () => {
    const secrets = new InMemorySecretStore();
    await secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, 'gw-token');
    const store = await openSettingsStore({ dataDir: dir, secrets });
    await store.update((d) => ({
      ...d,
      servers: [{ id: 'connectors', transport: 'stdio', command: 'x', enabled: true, env: { TOKEN: 't' } }],
    }));
    expect(await secrets.keys('connectors')).toEqual(['connectors:env.TOKEN']);
    await store.update((d) => ({ ...d, servers: [] }));
    expect(await secrets.keys()).toEqual([CONNECTOR_GATEWAY_TOKEN_KEY]);
    expect(await fs.readFile(file, 'utf8')).not.toContain('gw-token');
  });

  it('saves "always allow" rules and the gateway URL, and reads them back', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    for (const definitionHash of ['h1', 'h2']) {
      await store.update((d) => {
        d.policies.rules = withAlwaysAllowRule(d.policies.rules, {
          toolKind: 'mcp',
          serverId: 'gh',
          toolName: 'push',
          policy: 'allow',
          definitionHash,
        });
        d.connectors.gatewayUrl = 'https://gw.example.com/';
        return undefined;
      });
    }
    const reread = await readSettingsFile(file, SETTINGS_DOCUMENT);
    expect(reread.settings?.policies.rules).toEqual([
      { toolKind: 'mcp', serverId: 'gh', toolName: 'push', policy: 'allow', definitionHash: 'h2' },
    ]);
    expect(reread.settings?.connectors).toEqual({ gatewayUrl: 'https://gw.example.com/', enabled: true });
  });

  it('runs updates one after another so none is lost', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    let running = 0;
    let mostAtOnce = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.update(async (draft) => {
          mostAtOnce = Math.max(mostAtOnce, ++running);
          // A turn of the event loop: an update run alongside this one would start meanwhile.
          await new Promise(setImmediate);
          draft.redactionPatterns.push(`p${i}`);
          running--;
          return undefined;
        }),
      ),
    );
    expect(mostAtOnce).toBe(1);
    expect(store.current.redactionPatterns).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
    const reread = await readSettingsFile(file, SETTINGS_DOCUMENT);
    expect(reread.settings?.redactionPatterns).toHaveLength(10);
  });

  it('keeps working after a failed update', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    await expect(
      store.update(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(store.update((d) => ({ ...d, cardTimeoutMs: 2_000 }))).resolves.toMatchObject({
      cardTimeoutMs: 2_000,
    });
  });
});

describe('issue #13: the store knows no domain', () => {
  /** A document of one field, with its own version, migration and message. */
  const counter: SettingsDocument<{ version: 2; count: number }> = {
    version: 2,
    migrations: [(raw) => ({ ...raw, count: raw.total })],
    defaults: () => ({ version: 2, count: 0 }),
    validate: (raw) => {
      const { count } = raw as { count: unknown };
      if (typeof count !== 'number') {
        throw new ToolbridgeError('INVALID_ARGUMENT', 'Invalid settings: count must be a number.');
      }
      return { version: 2, count };
    },
  };

  it('loads, migrates, validates and writes whatever document it is given', async () => {
    await writePrivate(JSON.stringify({ version: 1, total: 4 }));
    const store = await SettingsStore.open({ dataDir: dir, document: counter });
    expect(store.current).toEqual({ version: 2, count: 4 });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ version: 2, count: 4 });
    await store.update((draft) => ({ ...draft, count: draft.count + 1 }));
    expect((await readSettingsFile(file, counter)).settings).toEqual({ version: 2, count: 5 });
    const before = await fs.readFile(file);
    await expect(store.update(() => ({ version: 2, count: 'x' as unknown as number }))).rejects.toThrow(
      'count must be a number',
    );
    expect(await fs.readFile(file)).toEqual(before);
  });
});
