import { describe, expect, it } from 'vitest';
import {
  type AgentRecord,
  AgentRegistry,
  agentTokenKey,
  DEFAULT_AGENT_ID,
  generateAgentToken,
} from '../../../src/agents/agent-registry.js';
import { ToolbridgeError } from '../../../src/base/errors.js';

function memoryStores(initial: AgentRecord[] = [], secrets = new Map<string, string>()) {
  const saved: { records: AgentRecord[]; writes: number } = { records: initial, writes: 0 };
  return {
    saved,
    secrets,
    store: {
      read: () => saved.records,
      write: async (records: AgentRecord[]) => {
        saved.records = records;
        saved.writes++;
      },
    },
    vault: {
      get: async (key: string) => secrets.get(key),
      set: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
    },
  };
}

describe('generateAgentToken', () => {
  it('gives at least 128 random bits, different every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => generateAgentToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      const body = token.replace(/^tb_/, '');
      expect(Buffer.from(body, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });
});

describe('AgentRegistry', () => {
  it('creates an agent whose token authenticates it, keeping the token out of the record', async () => {
    const { store, vault, saved, secrets } = memoryStores();
    const registry = await AgentRegistry.open(store, vault);
    const { agent, token } = await registry.create('Claude Desktop', 32_000);
    expect(agent.name).toBe('Claude Desktop');
    expect(agent.contextLengthTokens).toBe(32_000);
    expect(registry.authenticate(token)?.id).toBe(agent.id);
    expect(registry.authenticate(`${token}x`)).toBeUndefined();
    expect(registry.authenticate('')).toBeUndefined();
    expect(registry.authenticate(undefined)).toBeUndefined();
    expect(JSON.stringify(saved.records)).not.toContain(token);
    expect(secrets.get(agentTokenKey(agent.id))).toBe(token);
  });

  it('gives each agent its own token', async () => {
    const { store, vault } = memoryStores();
    const registry = await AgentRegistry.open(store, vault);
    const a = await registry.create('A');
    const b = await registry.create('A');
    expect(a.agent.id).not.toBe(b.agent.id);
    expect(registry.authenticate(a.token)?.id).toBe(a.agent.id);
    expect(registry.authenticate(b.token)?.id).toBe(b.agent.id);
  });

  it('reloads agents and tokens from the stores', async () => {
    const stores = memoryStores();
    const first = await AgentRegistry.open(stores.store, stores.vault);
    const { agent, token } = await first.create('Cursor');
    const second = await AgentRegistry.open(stores.store, stores.vault);
    expect(second.list()).toEqual([agent]);
    expect(second.authenticate(token)?.id).toBe(agent.id);
    expect(await second.token(agent.id)).toBe(token);
  });

  it('revoking deletes record and token and announces it', async () => {
    const { store, vault, secrets, saved } = memoryStores();
    const registry = await AgentRegistry.open(store, vault);
    const { agent, token } = await registry.create('Old');
    const revoked: string[] = [];
    registry.onDidRevokeAgent((id) => revoked.push(id));
    await registry.revoke(agent.id);
    expect(revoked).toEqual([agent.id]);
    expect(registry.authenticate(token)).toBeUndefined();
    expect(secrets.has(agentTokenKey(agent.id))).toBe(false);
    expect(saved.records).toEqual([]);
    await expect(registry.revoke(agent.id)).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'NOT_FOUND'),
    );
  });

  it('updates name and context length, refusing nonsense', async () => {
    const { store, vault } = memoryStores();
    const registry = await AgentRegistry.open(store, vault);
    const { agent } = await registry.create('A');
    const changes: number[] = [];
    registry.onDidChangeAgents((list) => changes.push(list.length));
    const updated = await registry.update(agent.id, { name: ' B ', contextLengthTokens: 8_000 });
    expect(updated).toMatchObject({ name: 'B', contextLengthTokens: 8_000 });
    expect(changes).toEqual([1]);
    await expect(registry.update(agent.id, { contextLengthTokens: 12.5 })).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'INVALID_ARGUMENT'),
    );
    await expect(registry.update(agent.id, { name: '   ' })).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'INVALID_ARGUMENT'),
    );
  });

  it('ensureDefault creates the default agent once and keeps its token across runs', async () => {
    const stores = memoryStores();
    const registry = await AgentRegistry.open(stores.store, stores.vault);
    const first = await registry.ensureDefault();
    expect(first.agent.id).toBe(DEFAULT_AGENT_ID);
    const again = await (await AgentRegistry.open(stores.store, stores.vault)).ensureDefault();
    expect(again.token).toBe(first.token);
  });

  it('a run token replaces the stored one for this run only', async () => {
    const stores = memoryStores();
    const registry = await AgentRegistry.open(stores.store, stores.vault);
    const stored = (await registry.ensureDefault()).token;
    const { token } = await registry.ensureDefault('given-token-0123456789');
    expect(token).toBe('given-token-0123456789');
    expect(registry.authenticate('given-token-0123456789')?.id).toBe(DEFAULT_AGENT_ID);
    expect(registry.authenticate(stored)).toBeUndefined();
    expect(stores.secrets.get(agentTokenKey(DEFAULT_AGENT_ID))).toBe(stored);
    await expect(registry.ensureDefault('short')).rejects.toSatisfy((error) =>
      ToolbridgeError.is(error, 'INVALID_ARGUMENT'),
    );
  });
});
