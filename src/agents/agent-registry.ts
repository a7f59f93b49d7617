import { randomBytes } from 'node:crypto';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import { agentSecretScope, type SecretStore, secretKey } from '../base/secret-store.js';
import { digestsEqual, secretDigest } from './request-guard.js';

/** An agent that may call the endpoint. Its token is a secret and never part of this record. */
export interface AgentRecord {
  id: string;
  name: string;
  /** Sizes the listing embedded in `tool_search` (tier rules). */
  contextLengthTokens: number;
  createdAt: string;
}

/** Where agent records persist (the settings file); the host adapts its settings to this. */
export interface AgentRecordStore {
  read(): AgentRecord[];
  write(records: AgentRecord[]): Promise<void>;
}

/** The part of the secret store the registry needs. */
export type TokenSecrets = Pick<SecretStore, 'get' | 'set' | 'delete'>;

/** The agent `toolbridge serve` and `toolbridge mcp` use when none is named. */
export const DEFAULT_AGENT_ID = 'default';

/**
 * Context length assumed for an agent nobody configured: a large modern model.
 * Change it per agent in the UI for small local models.
 */
export const DEFAULT_CONTEXT_LENGTH_TOKENS = 200_000;

/** Shortest token accepted from the user; generated ones have 256 random bits. */
const MIN_TOKEN_LENGTH = 16;

export function agentTokenKey(agentId: string): string {
  return secretKey(agentSecretScope(agentId), 'token');
}

/** A fresh bearer token: 256 random bits, base64url, with a recognisable prefix for secret scanners. */
export function generateAgentToken(): string {
  return `tb_${randomBytes(32).toString('base64url')}`;
}

/**
 * Agents and their bearer tokens. Records live in settings, tokens in the secret store; in
 * memory only a digest per token is kept for constant-time authentication.
 */
export class AgentRegistry implements Disposable {
  private readonly records = new Map<string, AgentRecord>();
  private readonly digests = new Map<string, Buffer>();
  /** Tokens given for this run only (`--agent-token`); never persisted. */
  private readonly runTokens = new Map<string, string>();
  private readonly _onDidChangeAgents = new Emitter<AgentRecord[]>();
  private readonly _onDidRevokeAgent = new Emitter<string>();

  /** Fires with the full list after any create, update or revoke. */
  readonly onDidChangeAgents: Event<AgentRecord[]> = this._onDidChangeAgents.event;
  /** Fires with the id of a revoked agent; its sessions must close. */
  readonly onDidRevokeAgent: Event<string> = this._onDidRevokeAgent.event;

  private constructor(
    private readonly store: AgentRecordStore,
    private readonly secrets: TokenSecrets,
  ) {}

  static async open(store: AgentRecordStore, secrets: TokenSecrets): Promise<AgentRegistry> {
    const registry = new AgentRegistry(store, secrets);
    for (const record of store.read()) {
      registry.records.set(record.id, { ...record });
      const token = await secrets.get(agentTokenKey(record.id));
      // A record whose token was lost cannot authenticate until a new token is issued.
      if (token !== undefined && token !== '') registry.digests.set(record.id, secretDigest(token));
    }
    return registry;
  }

  list(): AgentRecord[] {
    return [...this.records.values()].map((record) => ({ ...record }));
  }

  get(id: string): AgentRecord | undefined {
    const record = this.records.get(id);
    return record === undefined ? undefined : { ...record };
  }

  /** The agent this token belongs to, or undefined. Compares digests in constant time, all of them. */
  authenticate(token: string | undefined): AgentRecord | undefined {
    if (token === undefined || token === '') return undefined;
    const presented = secretDigest(token);
    let found: string | undefined;
    for (const [id, digest] of this.digests) {
      if (digestsEqual(presented, digest) && found === undefined) found = id;
    }
    return found === undefined ? undefined : this.get(found);
  }

  async create(
    name: string,
    contextLengthTokens?: number,
    id?: string,
  ): Promise<{ agent: AgentRecord; token: string }> {
    const cleanName = validateName(name);
    const agentId = id ?? this.newId(cleanName);
    if (this.records.has(agentId)) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `An agent with id "${agentId}" already exists.`);
    }
    const agent: AgentRecord = {
      id: agentId,
      name: cleanName,
      contextLengthTokens: validateContextLength(contextLengthTokens ?? DEFAULT_CONTEXT_LENGTH_TOKENS),
      createdAt: new Date().toISOString(),
    };
    const token = generateAgentToken();
    await this.secrets.set(agentTokenKey(agent.id), token);
    this.records.set(agent.id, agent);
    this.digests.set(agent.id, secretDigest(token));
    await this.persist();
    return { agent: { ...agent }, token };
  }

  async update(id: string, patch: { name?: string; contextLengthTokens?: number }): Promise<AgentRecord> {
    const record = this.require(id);
    const next: AgentRecord = {
      ...record,
      ...(patch.name === undefined ? {} : { name: validateName(patch.name) }),
      ...(patch.contextLengthTokens === undefined
        ? {}
        : { contextLengthTokens: validateContextLength(patch.contextLengthTokens) }),
    };
    this.records.set(id, next);
    await this.persist();
    return { ...next };
  }

  /** Deletes the agent and its token; open sessions are closed by whoever listens to onDidRevokeAgent. */
  async revoke(id: string): Promise<void> {
    this.require(id);
    this.records.delete(id);
    this.digests.delete(id);
    this.runTokens.delete(id);
    await this.secrets.delete(agentTokenKey(id));
    await this.persist();
    this._onDidRevokeAgent.fire(id);
  }

  /** The agent's current token, for the copy-paste config in the UI. */
  async token(id: string): Promise<string> {
    this.require(id);
    const runToken = this.runTokens.get(id);
    if (runToken !== undefined) return runToken;
    const stored = await this.secrets.get(agentTokenKey(id));
    if (stored === undefined || stored === '') {
      throw new ToolbridgeError(
        'NOT_FOUND',
        `The token of agent "${id}" is missing from the secret store. Revoke the agent and create a new one.`,
      );
    }
    return stored;
  }

  /**
   * The default agent, created on first use. With `runToken` the agent authenticates with that
   * token for this run only (it is not written anywhere); without it the stored token is used.
   */
  async ensureDefault(runToken?: string): Promise<{ agent: AgentRecord; token: string }> {
    if (!this.records.has(DEFAULT_AGENT_ID)) await this.create('Default agent', undefined, DEFAULT_AGENT_ID);
    if (runToken !== undefined) {
      if (runToken.length < MIN_TOKEN_LENGTH || /\s/.test(runToken)) {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          `The agent token must be at least ${MIN_TOKEN_LENGTH} characters with no spaces. Omit it to use a generated one.`,
        );
      }
      this.runTokens.set(DEFAULT_AGENT_ID, runToken);
      this.digests.set(DEFAULT_AGENT_ID, secretDigest(runToken));
    }
    return { agent: this.get(DEFAULT_AGENT_ID)!, token: await this.token(DEFAULT_AGENT_ID) };
  }

  dispose(): void {
    this._onDidChangeAgents.dispose();
    this._onDidRevokeAgent.dispose();
  }

  private require(id: string): AgentRecord {
    const record = this.records.get(id);
    if (record === undefined) {
      throw new ToolbridgeError('NOT_FOUND', `No agent "${id}". List agents to see the ids that exist.`);
    }
    return record;
  }

  private newId(name: string): string {
    const base =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 24) || 'agent';
    // A random suffix keeps ids unguessable-looking and unique even for equal names.
    let id: string;
    do id = `${base}-${randomBytes(3).toString('hex')}`;
    while (this.records.has(id));
    return id;
  }

  private async persist(): Promise<void> {
    const list = this.list();
    await this.store.write(list);
    this._onDidChangeAgents.fire(list);
  }
}

function validateName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '' || trimmed.length > 100) {
    throw new ToolbridgeError('INVALID_ARGUMENT', 'An agent needs a name of 1–100 characters.');
  }
  return trimmed;
}

function validateContextLength(value: number): number {
  if (!Number.isInteger(value) || value < 1_000 || value > 100_000_000) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `Context length ${value} is not valid: give the model's context window in tokens (1,000–100,000,000).`,
    );
  }
  return value;
}
