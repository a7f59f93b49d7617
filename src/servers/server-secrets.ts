/**
 * Moves secret values out of server configs and back in. In settings, an env value or HTTP header
 * that looks secret (Authorization, *TOKEN*, *KEY*, *SECRET*, *PASSWORD*, …) and a pre-registered
 * OAuth client's secret are replaced by a reference `${secret:<server id>:env.NAME}` /
 * `${secret:<server id>:header.Name}` / `${secret:<server id>:oauth.clientSecret}`; the value
 * itself goes to the secret store. The connection resolves references just before it connects.
 */
import { ToolbridgeError } from '../base/errors.js';
import { defineMember } from '../base/json.js';
import { SECRET_MASK } from '../base/secret-mask.js';
import { type SecretStore, secretKey } from '../base/secret-store.js';
import type { ServerConfig } from './types.js';

const SECRET_NAME = /auth|token|key|secret|passw|pwd|credential|cookie|session/i;
const REF = /\$\{secret:([^}]+)\}/g;
const WHOLE_REF = /^\$\{secret:([^}]+)\}$/;

/** True for env and header names whose values we treat as secrets. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function secretRef(key: string): string {
  return `\${secret:${key}}`;
}

/** The key when `value` is exactly one reference. */
export function parseSecretRef(value: string): string | undefined {
  return WHOLE_REF.exec(value)?.[1];
}

type Section = 'env' | 'headers' | 'oauth';

/**
 * The parts of a config that may hold secrets, as name → value maps. A pre-registered OAuth
 * client's secret is one more: `oauth.clientSecret`, kept under `<id>:oauth.clientSecret`.
 */
function sections(
  config: ServerConfig,
): Array<{ section: Section; field: string; values: Record<string, string> }> {
  if (config.transport === 'stdio')
    return config.env ? [{ section: 'env', field: 'env', values: config.env }] : [];
  const found: Array<{ section: Section; field: string; values: Record<string, string> }> = [];
  if (config.headers) found.push({ section: 'headers', field: 'header', values: config.headers });
  if (config.oauth?.clientSecret !== undefined) {
    found.push({ section: 'oauth', field: 'oauth', values: { clientSecret: config.oauth.clientSecret } });
  }
  return found;
}

function withSection(config: ServerConfig, section: Section, values: Record<string, string>): ServerConfig {
  if (section === 'env') return { ...config, env: values } as ServerConfig;
  if (section === 'headers') return { ...config, headers: values } as ServerConfig;
  if (config.transport === 'stdio' || config.oauth === undefined) return config;
  return { ...config, oauth: { ...config.oauth, ...values } };
}

/** Every config of `next` with its secret values moved into `store`; `previous`: the configs on disk. */
export async function moveServerSecretsOut(
  next: readonly ServerConfig[],
  previous: readonly ServerConfig[],
  store: SecretStore,
): Promise<ServerConfig[]> {
  const byId = new Map<string, ServerConfig>(previous.map((server) => [server.id, server]));
  const servers: ServerConfig[] = [];
  for (const server of next) servers.push(await extractServerSecrets(server, store, byId.get(server.id)));
  return servers;
}

/** Drops the secrets of every server `previous` held and `next` no longer does. */
export async function forgetRemovedServerSecrets(
  next: readonly ServerConfig[],
  previous: readonly ServerConfig[],
  store: SecretStore,
): Promise<void> {
  const remaining = new Set(next.map((server) => server.id));
  for (const server of previous) if (!remaining.has(server.id)) await store.deleteAllForServer(server.id);
}

/**
 * Returns `config` with every secret value moved into `store` and replaced by a reference.
 * A masked value (`••••`) keeps the secret `previous` had for that name; references made under an
 * older id are copied to the new id. Throws `INVALID_ARGUMENT` for a mask with nothing stored behind it.
 */
export async function extractServerSecrets(
  config: ServerConfig,
  store: SecretStore,
  previous?: ServerConfig,
): Promise<ServerConfig> {
  let result = config;
  for (const { section, field, values } of sections(config)) {
    const previousValues = previous
      ? sections(previous).find((s) => s.section === section)?.values
      : undefined;
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const key = secretKey(config.id, `${field}.${name}`);
      let ref = parseSecretRef(value);
      if (value === SECRET_MASK) {
        const kept = previousValues?.[name] === undefined ? undefined : parseSecretRef(previousValues[name]);
        if (kept === undefined) {
          throw new ToolbridgeError(
            'INVALID_ARGUMENT',
            `Server "${config.id}": ${field} ${name} is masked (${SECRET_MASK}) but no value is stored for it; type the real value.`,
          );
        }
        ref = kept;
      }
      if (ref !== undefined) {
        defineMember(next, name, ref === key ? secretRef(key) : await moveSecret(store, ref, key));
      } else if (isSecretName(name) && value !== '') {
        await store.set(key, value);
        defineMember(next, name, secretRef(key));
      } else {
        defineMember(next, name, value);
      }
    }
    result = withSection(result, section, next);
  }
  return result;
}

async function moveSecret(store: SecretStore, from: string, to: string): Promise<string> {
  const value = await store.get(from);
  // A dangling reference stays as it is; resolving it reports the missing secret.
  if (value === undefined) return secretRef(from);
  await store.set(to, value);
  return secretRef(to);
}

/**
 * Returns `config` with every `${secret:…}` reference in env and headers replaced by its value.
 * Throws `NOT_FOUND` for a missing one. The OAuth client secret stays a reference: only the
 * sign-in reads it (`readSecretValue`), and only when it needs it.
 */
export async function resolveServerSecrets(config: ServerConfig, store: SecretStore): Promise<ServerConfig> {
  let result = config;
  for (const { section, field, values } of sections(config)) {
    if (section === 'oauth') continue;
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const keys = [...value.matchAll(REF)].map((match) => match[1]!);
      let resolved = value;
      for (const key of keys) {
        const secret = await store.get(key);
        if (secret === undefined) {
          throw new ToolbridgeError(
            'NOT_FOUND',
            `Server "${config.id}": the secret for ${field} ${name} is missing from the secret store (${store.kind}). Enter it again in the server's settings.`,
          );
        }
        resolved = resolved.replace(secretRef(key), () => secret);
      }
      defineMember(next, name, resolved);
    }
    result = withSection(result, section, next);
  }
  return result;
}

/** A value that may be a `${secret:…}` reference: its secret (undefined when missing), else the value itself. */
export async function readSecretValue(value: string, store: SecretStore): Promise<string | undefined> {
  const key = parseSecretRef(value);
  return key === undefined ? value : store.get(key);
}

/**
 * Puts `previous`'s values back where `config` holds the mask, for edits the settings store cannot
 * pair by id on its own (a rename: the old id's references then move to the new id on save).
 */
export function restoreMaskedSecrets(config: ServerConfig, previous: ServerConfig): ServerConfig {
  let result = config;
  for (const { section, values } of sections(config)) {
    const before = sections(previous).find((s) => s.section === section)?.values ?? {};
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      defineMember(next, name, value === SECRET_MASK && Object.hasOwn(before, name) ? before[name]! : value);
    }
    result = withSection(result, section, next);
  }
  return result;
}

/** For views: every reference and every secret-looking value becomes `••••`. */
export function maskServerConfig(config: ServerConfig): ServerConfig {
  let result = config;
  for (const { section, values } of sections(config)) {
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const secret = value.includes('${secret:') || (isSecretName(name) && value !== '');
      defineMember(next, name, secret ? SECRET_MASK : value);
    }
    result = withSection(result, section, next);
  }
  return result;
}
