// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests spell out the literal ${secret:…} reference syntax.
import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { SECRET_MASK } from '../../../src/base/secret-mask.js';
import { InMemorySecretStore } from '../../../src/base/secret-store.js';
import {
  extractServerSecrets,
  isSecretName,
  maskServerConfig,
  parseSecretRef,
  readSecretValue,
  resolveServerSecrets,
  restoreMaskedSecrets,
} from '../../../src/servers/server-secrets.js';
import type { ServerConfig } from '../../../src/servers/types.js';

const stdio: ServerConfig = {
  id: 'github',
  transport: 'stdio',
  command: 'npx',
  enabled: true,
  env: {
    GITHUB_TOKEN: 'ghp_canary1',
    API_KEY: 'k-canary2',
    DB_PASSWORD: 'pw-canary3',
    LOG_LEVEL: 'debug',
    EMPTY_TOKEN: '',
  },
};
const http: ServerConfig = {
  id: 'remote',
  transport: 'http',
  url: 'https://example.com/mcp',
  enabled: true,
  headers: { Authorization: 'Bearer canary4', 'X-Client-Secret': 'canary5', Accept: 'application/json' },
};

describe('isSecretName', () => {
  it('matches the usual secret names and not plain settings', () => {
    for (const name of [
      'Authorization',
      'GITHUB_TOKEN',
      'API_KEY',
      'x-api-key',
      'CLIENT_SECRET',
      'DB_PASSWORD',
      'Cookie',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['LOG_LEVEL', 'PATH', 'Accept', 'PORT', 'HOME'])
      expect(isSecretName(name), name).toBe(false);
  });
});

describe('extractServerSecrets', () => {
  it('moves secret env values into the store and leaves references', async () => {
    const store = new InMemorySecretStore();
    const out = await extractServerSecrets(stdio, store);
    expect(out.transport === 'stdio' && out.env).toEqual({
      GITHUB_TOKEN: '${secret:github:env.GITHUB_TOKEN}',
      API_KEY: '${secret:github:env.API_KEY}',
      DB_PASSWORD: '${secret:github:env.DB_PASSWORD}',
      LOG_LEVEL: 'debug',
      EMPTY_TOKEN: '',
    });
    expect(await store.get('github:env.GITHUB_TOKEN')).toBe('ghp_canary1');
    expect(JSON.stringify(out)).not.toMatch(/canary/);
  });

  it('moves secret headers too', async () => {
    const store = new InMemorySecretStore();
    const out = await extractServerSecrets(http, store);
    expect(out.transport === 'http' && out.headers).toEqual({
      Authorization: '${secret:remote:header.Authorization}',
      'X-Client-Secret': '${secret:remote:header.X-Client-Secret}',
      Accept: 'application/json',
    });
    expect(await store.get('remote:header.Authorization')).toBe('Bearer canary4');
  });

  it('keeps the stored value when the UI sends the mask back', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(stdio, store);
    const edited = {
      ...stdio,
      env: { ...stdio.env, GITHUB_TOKEN: SECRET_MASK, LOG_LEVEL: 'info' },
    } as ServerConfig;
    const out = await extractServerSecrets(edited, store, saved);
    expect(out.transport === 'stdio' && out.env?.GITHUB_TOKEN).toBe('${secret:github:env.GITHUB_TOKEN}');
    expect(await store.get('github:env.GITHUB_TOKEN')).toBe('ghp_canary1');
  });

  it('refuses a mask with nothing stored behind it', async () => {
    const masked = { ...stdio, env: { NEW_TOKEN: SECRET_MASK } } as ServerConfig;
    const error = await extractServerSecrets(masked, new InMemorySecretStore()).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('NEW_TOKEN');
  });

  it('copies secrets to the new id when a server is renamed', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(stdio, store);
    const renamed = await extractServerSecrets({ ...saved, id: 'gh' }, store);
    expect(renamed.transport === 'stdio' && renamed.env?.GITHUB_TOKEN).toBe('${secret:gh:env.GITHUB_TOKEN}');
    expect(await store.get('gh:env.GITHUB_TOKEN')).toBe('ghp_canary1');
  });
});

describe('a pre-registered OAuth client secret', () => {
  const withClient: ServerConfig = {
    id: 'remote',
    transport: 'http',
    url: 'https://example.com/mcp',
    enabled: true,
    oauth: { clientId: 'tb-app', clientSecret: 'client-canary6', redirectPort: 33418 },
  };

  it('goes to the store under <id>:oauth.clientSecret, masked in views, kept through the mask', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(withClient, store);
    expect(saved).toEqual({
      ...withClient,
      oauth: { clientId: 'tb-app', clientSecret: '${secret:remote:oauth.clientSecret}', redirectPort: 33418 },
    });
    expect(await store.get('remote:oauth.clientSecret')).toBe('client-canary6');
    const view = maskServerConfig(saved);
    expect(view).toMatchObject({ oauth: { clientId: 'tb-app', clientSecret: SECRET_MASK } });
    expect(await extractServerSecrets(view, store, saved)).toEqual(saved);
    // Renamed: the reference moves to the new id with the secret.
    const renamed = await extractServerSecrets(
      restoreMaskedSecrets({ ...view, id: 'moved' }, saved),
      store,
      saved,
    );
    expect(renamed).toMatchObject({ oauth: { clientSecret: '${secret:moved:oauth.clientSecret}' } });
    expect(await store.get('moved:oauth.clientSecret')).toBe('client-canary6');
  });

  it('stays a reference for the connection; only the sign-in reads it', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(withClient, store);
    expect(await resolveServerSecrets(saved, store)).toEqual(saved);
    const secret = saved.transport === 'stdio' ? undefined : saved.oauth?.clientSecret;
    expect(await readSecretValue(secret!, store)).toBe('client-canary6');
    expect(await readSecretValue('typed-in-by-hand', store)).toBe('typed-in-by-hand');
    expect(await readSecretValue('${secret:remote:oauth.gone}', store)).toBeUndefined();
  });
});

describe('resolveServerSecrets', () => {
  it('puts the values back, also inside a longer value', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(http, store);
    const withPrefix = {
      ...saved,
      headers: {
        ...(saved.transport === 'http' ? saved.headers : {}),
        'X-Both': 'pre ${secret:remote:header.X-Client-Secret} post',
      },
    } as ServerConfig;
    const resolved = await resolveServerSecrets(withPrefix, store);
    expect(resolved.transport === 'http' && resolved.headers).toEqual({
      ...http.headers,
      'X-Both': 'pre canary5 post',
    });
  });

  it('names the missing secret without guessing it', async () => {
    const saved = await extractServerSecrets(stdio, new InMemorySecretStore());
    await expect(resolveServerSecrets(saved, new InMemorySecretStore())).rejects.toThrow(
      /Server "github": the secret for env GITHUB_TOKEN is missing/,
    );
  });
});

describe('restoreMaskedSecrets', () => {
  it('lets a renamed server keep its masked secrets through the save', async () => {
    const store = new InMemorySecretStore();
    const saved = await extractServerSecrets(stdio, store);
    const fromUi = { ...maskServerConfig(saved), id: 'gh' } as ServerConfig;
    const restored = restoreMaskedSecrets(fromUi, saved);
    const out = await extractServerSecrets(restored, store);
    expect(out.transport === 'stdio' && out.env?.GITHUB_TOKEN).toBe('${secret:gh:env.GITHUB_TOKEN}');
    expect(await store.get('gh:env.GITHUB_TOKEN')).toBe('ghp_canary1');
  });
});

describe('maskServerConfig', () => {
  it('hides references and secret-looking values, keeps the rest', () => {
    const masked = maskServerConfig({
      ...stdio,
      env: { A_TOKEN: '${secret:github:env.A_TOKEN}', RAW_KEY: 'x', LEVEL: '1' },
    });
    expect(masked.transport === 'stdio' && masked.env).toEqual({
      A_TOKEN: SECRET_MASK,
      RAW_KEY: SECRET_MASK,
      LEVEL: '1',
    });
    expect(parseSecretRef('${secret:a:b}')).toBe('a:b');
    expect(parseSecretRef('x ${secret:a:b}')).toBeUndefined();
  });
});
