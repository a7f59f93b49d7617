/**
 * The default servers (MCP reference servers) over real stdio, launched as a fresh install would:
 * process.execPath on each package's bin script.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientRequestHandler } from '../../../src/servers/client-requests.js';
import { defaultServerConfigs } from '../../../src/servers/default-servers.js';
import { ServerManager } from '../../../src/servers/server-manager.js';
import type { ServerStatus } from '../../../src/servers/types.js';
import { waitUntil } from '../../helpers/wait.js';
import { isAlive, textOf } from './helpers.js';

describe('default servers', () => {
  let dataDir: string;
  let manager: ServerManager;
  const canary = `host-canary-${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-defaults-'));
    process.env.TOOLBRIDGE_TEST_CANARY = canary;
    manager = new ServerManager({ callTimeoutMs: 20_000 });
    for (const config of await defaultServerConfigs(dataDir)) await manager.add(config, { start: false });
    await manager.startAll();
  });

  afterAll(async () => {
    delete process.env.TOOLBRIDGE_TEST_CANARY;
    await manager.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('all three connect, each with its tools', () => {
    const byId = Object.fromEntries(manager.snapshot().map((s) => [s.id, s]));
    expect(Object.keys(byId)).toEqual(['everything', 'filesystem', 'memory']);
    for (const server of Object.values(byId)) expect(server.status, server.lastError).toBe('connected');
    expect(byId.everything?.tools.map((t) => t.name)).toContain('echo');
    expect(byId.filesystem?.tools.map((t) => t.name)).toContain('write_file');
    expect(byId.memory?.tools.map((t) => t.name)).toContain('create_entities');
    expect(byId.everything?.toolCount).toBe(byId.everything?.tools.length);
  });

  it('the filesystem server works in <dataDir>/sandbox', async () => {
    const file = path.join(dataDir, 'sandbox', 'hello.txt');
    const result = await manager.callTool('filesystem', 'write_file', {
      path: file,
      content: 'hi from toolbridge',
    });
    expect(result.isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toBe('hi from toolbridge');
    const outside = await manager.callTool('filesystem', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });

  it('the memory server keeps its graph in the data folder', async () => {
    await manager.callTool('memory', 'create_entities', {
      entities: [{ name: 'Toolbridge', entityType: 'project', observations: ['a gateway'] }],
    });
    expect(await fs.readFile(path.join(dataDir, 'memory.jsonl'), 'utf8')).toContain('Toolbridge');
  });

  it("a server's environment holds the default list and its own env, never the host's (R7)", async () => {
    const env = textOf(await manager.callTool('everything', 'get-env', {}));
    expect(env).toContain('PATH');
    expect(env).not.toContain(canary);
  });

  it('a server killed mid-session goes to error, reconnects and has its tools back', async () => {
    const before = manager.snapshotOf('everything');
    const statuses: ServerStatus[] = [];
    const listener = manager.onDidChangeStatus(({ id, state }) => {
      if (id === 'everything') statuses.push(state.status);
    });
    process.kill(before.pid!, 'SIGKILL');
    await waitUntil(() => statuses.includes('connected'), 'reconnect', 15_000);
    listener.dispose();
    expect(statuses.slice(0, 3)).toEqual(['error', 'starting', 'connected']);
    const after = manager.snapshotOf('everything');
    expect(after.pid).not.toBe(before.pid);
    expect(after.tools.map((t) => t.name)).toEqual(before.tools.map((t) => t.name));
    expect(after.stderrTail.join('\n')).toContain(
      '[toolbridge] server stopped unexpectedly (was killed by SIGKILL)',
    );
    expect(textOf(await manager.callTool('everything', 'echo', { message: 'back' }))).toContain('back');
  });

  it('leaves no server process behind after close', async () => {
    const pids = manager.snapshot().map((s) => s.pid!);
    expect(pids.every((pid) => typeof pid === 'number' && isAlive(pid))).toBe(true);
    await manager.close();
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 'server processes to exit', 5_000);
  });
});

describe('issue #14: the reference server "everything" with the client features declared', () => {
  let dataDir: string;
  let manager: ServerManager;
  const asked: string[] = [];
  const handler: ClientRequestHandler = {
    elicit: async (params) => {
      asked.push(`elicit ${params.mode ?? 'form'}`);
      return params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: { name: 'Ada' } };
    },
    createMessage: async (params) => {
      asked.push(`sample ${JSON.stringify(params.messages[0]?.content)}`);
      return { role: 'assistant', content: { type: 'text', text: 'a reply' }, model: 'test-model' };
    },
  };
  const hidden = ['trigger-elicitation-request', 'trigger-url-elicitation', 'trigger-sampling-request'];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-defaults-features-'));
    manager = new ServerManager({ callTimeoutMs: 20_000, clientRequests: handler });
    const everything = (await defaultServerConfigs(dataDir)).find((config) => config.id === 'everything')!;
    await manager.add({ ...everything, roots: [path.join(dataDir, 'sandbox')] });
  });

  afterAll(async () => {
    await manager.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const names = () => manager.snapshotOf('everything').tools.map((tool) => tool.name);

  it('lists the tools it hides from clients without elicitation, sampling and roots', async () => {
    await waitUntil(() => hidden.every((name) => names().includes(name)), 'the hidden tools', 15_000);
    expect(names()).toContain('get-roots-list');
  });

  it('their calls reach the client features and come back', async () => {
    await waitUntil(() => hidden.every((name) => names().includes(name)), 'the hidden tools', 15_000);
    const elicited = textOf(await manager.callTool('everything', 'trigger-elicitation-request', {}));
    expect(elicited).toContain('User provided the requested information');
    const sampled = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'hello' });
    expect(textOf(sampled)).toContain('a reply');
    const roots = JSON.stringify(await manager.callTool('everything', 'get-roots-list', {}));
    expect(roots).toContain(pathToFileURL(path.join(dataDir, 'sandbox')).href);
    expect(asked).toEqual([
      'elicit form',
      `sample ${JSON.stringify({ type: 'text', text: 'Resource trigger-sampling-request context: hello' })}`,
    ]);
  });
});
