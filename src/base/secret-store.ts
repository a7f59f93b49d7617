/**
 * Where secrets live (server API keys and headers, OAuth tokens, agent tokens): never in
 * settings.json, logs or messages. Keys are `<scope>:<field>`; a server's scope is its id, so
 * `deleteAllForServer` can drop everything a removed server owned.
 */
import { ToolbridgeError } from './errors.js';

export type SecretStoreKind = 'os-encrypted' | 'file-0600' | 'memory';

export interface SecretStore {
  /** How the secrets are kept, so the UI can say it plainly. */
  readonly kind: SecretStoreKind;
  /** The secret, or undefined when absent (or unreadable: such a secret counts as absent). */
  get(key: string): Promise<string | undefined>;
  /** Throws `SECRET_STORE_UNAVAILABLE` with advice when the store cannot keep it. */
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes every key of that scope (`<scope>:*`). */
  deleteAllForServer(scope: string): Promise<void>;
  /** The keys held, optionally only those of one scope. Never the values. */
  keys(scope?: string): Promise<string[]>;
}

/**
 * Scopes hold no ":"; the field may. Server ids are `[a-z0-9_-]`; agents use `agent.<id>` and the
 * connector gateway `connectors.gateway`.
 */
export function secretKey(scope: string, field: string): string {
  if (scope === '' || scope.includes(':')) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Secret scope "${scope}" must be non-empty and hold no ":".`,
    );
  }
  if (field === '')
    throw new ToolbridgeError('INVALID_ARGUMENT', `Secret field for scope "${scope}" must be non-empty.`);
  return `${scope}:${field}`;
}

/** The scope part of a key. */
export function secretScope(key: string): string {
  const index = key.indexOf(':');
  return index < 0 ? key : key.slice(0, index);
}

/** Scope of an agent's secrets; the dot keeps it apart from every server id. */
export function agentSecretScope(agentId: string): string {
  return `agent.${agentId}`;
}

/**
 * The connector gateway's bearer token. The dot keeps the scope apart from every server id, so a
 * server named "connectors" can never own it (removing that server deletes its whole scope).
 */
export const CONNECTOR_GATEWAY_TOKEN_KEY = 'connectors.gateway:token';

export function checkSecretKey(key: string): void {
  const index = key.indexOf(':');
  if (index <= 0 || index === key.length - 1) {
    throw new ToolbridgeError('INVALID_ARGUMENT', `Secret key "${key}" must look like "<scope>:<field>".`);
  }
}

/** Kept in memory only: gone when the process ends. For tests and when nothing else is available. */
export class InMemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    checkSecretKey(key);
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async deleteAllForServer(scope: string): Promise<void> {
    for (const key of [...this.values.keys()]) {
      if (secretScope(key) === scope) this.values.delete(key);
    }
  }

  async keys(scope?: string): Promise<string[]> {
    return [...this.values.keys()].filter((key) => scope === undefined || secretScope(key) === scope).sort();
  }
}
