import { readFileSync } from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { ServerManager } from '../../../src/servers/server-manager.js';
import type { ServerConfig } from '../../../src/servers/types.js';
import { createFixtureServer, type FixtureScenario } from '../../fixtures/servers/fixture-server.mjs';

const basic: FixtureScenario = JSON.parse(
  readFileSync(new URL('../../fixtures/servers/basic.json', import.meta.url), 'utf8'),
);

function stdio(id: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  return { id, transport: 'stdio', command: 'unused', enabled: true, ...extra } as ServerConfig;
}

const managers: ServerManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

/**
 * A manager whose servers are in-memory fixture servers; records the order transports begin to
 * close in, and (with `holdClose`) keeps each close waiting until `holdClose` resolves.
 */
function makeManager(holdClose?: Promise<void>) {
  const closed: string[] = [];
  const manager = new ServerManager({
    createTransport: async (config) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createFixtureServer(basic).connect(serverSide);
      const close = clientSide.close.bind(clientSide);
      clientSide.close = async () => {
        if (!closed.includes(config.id)) closed.push(config.id);
        await holdClose;
        await close();
      };
      return clientSide;
    },
  });
  managers.push(manager);
  return { manager, closed };
}

describe('ServerManager.add', () => {
  it('connects the server and returns its snapshot', async () => {
    const { manager } = makeManager();
    const snapshot = await manager.add(stdio('one', { name: 'One' }));
    expect(snapshot).toMatchObject({
      id: 'one',
      status: 'connected',
      toolCount: 7,
      crashLooping: false,
      stderrTail: [],
    });
    expect(snapshot.config.name).toBe('One');
    expect(snapshot.tools.map((t) => t.name)).toContain('echo');
  });

  it('refuses a taken or invalid id with advice', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('one'), { start: false });
    await expect(manager.add(stdio('one'))).rejects.toThrow(
      'A server with id "one" already exists; choose another id.',
    );
    await expect(manager.add(stdio('Bad Id'))).rejects.toThrow('use "bad-id" instead');
  });

  it('can add without starting; startAll starts the enabled ones', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('a'), { start: false });
    await manager.add(stdio('b', { enabled: false }), { start: false });
    expect(manager.snapshotOf('a').status).toBe('starting');
    await manager.startAll();
    expect(manager.snapshot().map((s) => [s.id, s.status])).toEqual([
      ['a', 'connected'],
      ['b', 'disabled'],
    ]);
  });
});

describe('ServerManager events', () => {
  it('tags status and tool changes with the server id', async () => {
    const { manager } = makeManager();
    const statuses: string[] = [];
    const tools: string[] = [];
    manager.onDidChangeStatus(({ id, state }) => statuses.push(`${id}:${state.status}`));
    manager.onDidChangeTools(({ id, tools: list }) => tools.push(`${id}:${list.length}`));
    await manager.add(stdio('a'));
    await manager.disable('a');
    expect(statuses).toEqual(['a:starting', 'a:connected', 'a:disabled']);
    expect(tools).toEqual(['a:7', 'a:0']);
  });

  it('on remove, drops the tools and says so', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('a'));
    const events: string[] = [];
    manager.onDidChangeTools(({ id, tools }) => events.push(`tools ${id}:${tools.length}`));
    manager.onDidRemove(({ id }) => events.push(`removed ${id}`));
    await manager.remove('a');
    expect(events).toEqual(['tools a:0', 'removed a']);
    expect(manager.has('a')).toBe(false);
  });
});

describe('ServerManager.update', () => {
  it('renames a server in place', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('a'));
    await manager.add(stdio('b'));
    await manager.add(stdio('c'));
    const renamed = await manager.update('b', stdio('bee'));
    expect(renamed).toMatchObject({ id: 'bee', status: 'connected' });
    expect(manager.ids()).toEqual(['a', 'bee', 'c']);
    await expect(manager.update('a', stdio('c'))).rejects.toThrow(/already exists/);
  });

  it('enable and disable flip the config and the connection', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('a'));
    expect((await manager.disable('a')).config.enabled).toBe(false);
    expect(manager.snapshotOf('a').status).toBe('disabled');
    const enabled = await manager.enable('a');
    expect(enabled).toMatchObject({ status: 'connected', config: { enabled: true } });
  });
});

describe('ServerManager.callTool', () => {
  it('routes to the server, and names the known servers for an unknown one', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('a'));
    const result = await manager.callTool('a', 'echo', { message: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const error = await manager.callTool('zzz', 'echo', {}).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'NOT_FOUND')).toBe(true);
    expect((error as Error).message).toBe('No server "zzz". Known servers: a.');
  });
});

describe('ServerManager.close', () => {
  it('issue #12: closes every server at once: each close begins before any has ended', async () => {
    let release!: () => void;
    const { manager, closed } = makeManager(new Promise((resolve) => (release = resolve)));
    for (const id of ['first', 'second', 'third']) await manager.add(stdio(id));
    const closing = manager.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect([...closed].sort()).toEqual(['first', 'second', 'third']);
    release();
    await closing;
    await expect(manager.add(stdio('late'))).rejects.toThrow('closed');
  });

  it('lists tools per server in server order for the catalog', async () => {
    const { manager } = makeManager();
    await manager.add(stdio('b'));
    await manager.add(stdio('a', { enabled: false }));
    expect(manager.tools().map((s) => [s.serverId, s.tools.length])).toEqual([
      ['b', 7],
      ['a', 0],
    ]);
  });
});
