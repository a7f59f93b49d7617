import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait.js';
import { alive, buildPrivateCli, childPids, killGroups, lines } from './process-kit.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let MAIN: string;
const TOKEN = 'given-token-for-this-run-0123456789';
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'servers');
const FIXTURE = path.join(FIXTURES, 'fixture-server.mjs');
const STUBBORN = path.join(FIXTURES, 'stubborn.cjs');
const BASIC = path.join(FIXTURES, 'basic.json');

let dataDir: string;
let serve: ChildProcess | undefined;

beforeAll(async () => {
  MAIN = await buildPrivateCli('dist-serve-test');
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-serve-'));
}, 120_000);

afterAll(async () => {
  if (serve?.exitCode === null && serve.pid !== undefined) {
    killGroups(childPids(serve.pid));
    serve.kill('SIGKILL');
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('toolbridge serve', () => {
  it('prints the endpoint and token once the default servers are up, serves an agent, and stops cleanly', async () => {
    serve = spawn(
      process.execPath,
      [MAIN, 'serve', '--data-dir', dataDir, '--port', '0', '--agent-token', TOKEN, '--policy', 'allow'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out = lines(serve.stdout!);
    const err = lines(serve.stderr!);
    await waitUntil(
      () => out.some((line) => line.startsWith('ui: ')),
      () => `the printed lines (stderr: ${err.join(' | ')})`,
      30_000,
    );
    const endpoint = out
      .find((line) => line.startsWith('agent endpoint: '))!
      .slice('agent endpoint: '.length);
    const token = out.find((line) => line.startsWith('agent token: '))!.slice('agent token: '.length);
    expect(out.indexOf(`agent endpoint: ${endpoint}`)).toBeLessThan(out.indexOf(`agent token: ${token}`));
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token).toBe(TOKEN);

    // The default servers have connected before the lines appeared: the first search sees them.
    const client = new Client({ name: 'serve-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const search = (await client.callTool({
      name: 'tool_search',
      arguments: { queries: ['echo', 'read file', 'create entities'] },
    })) as CallToolResult;
    const payload = JSON.parse((search.content[0] as { text: string }).text);
    const found = payload.results.flatMap((group: { matches: string[] }) => group.matches);
    expect(found).toContain('mcp__everything__echo');
    expect(found.some((name: string) => name.startsWith('mcp__filesystem__'))).toBe(true);
    expect(found.some((name: string) => name.startsWith('mcp__memory__'))).toBe(true);
    const echo = (await client.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: 'from serve' } }] },
    })) as CallToolResult;
    expect((echo.content[0] as { text: string }).text).toBe('Echo: from serve');

    // Credentials do not cross: an agent token opens no UI socket.
    const ui = new URL(out.find((line) => line.startsWith('ui: '))!.slice(4));
    const upgradeStatus = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port: Number(ui.port),
        path: '/api/ws',
        headers: {
          Authorization: `Bearer ${token}`,
          Origin: ui.origin,
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
        },
      });
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        resolve(101);
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(upgradeStatus).toBe(401);
    await client.close();

    // issue #16: toolbridge ui-link renews the link without a restart; the new secret signs in.
    const renewed = spawn(process.execPath, [MAIN, 'ui-link', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const renewedOut = lines(renewed.stdout!);
    expect(await new Promise<number | null>((resolve) => renewed.on('close', resolve))).toBe(0);
    const link = new URL(renewedOut.find((line) => line.startsWith('ui: '))!.slice(4));
    expect(link.origin).toBe(ui.origin);
    expect(link.hash).toMatch(/^#secret=.+/);
    expect(link.hash).not.toBe(ui.hash);
    const signIn = await fetch(new URL('/api/session', ui.origin), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Toolbridge-CSRF': '1' },
      body: JSON.stringify({ secret: link.hash.slice('#secret='.length) }),
    });
    expect(signIn.status).toBe(200);
    const key = (await fs.readFile(path.join(dataDir, 'ui-link.key'), 'utf8')).trim();
    expect((await fs.stat(path.join(dataDir, 'ui-link.key'))).mode & 0o777).toBe(0o600);
    const linkUrl = new URL('/api/ui-link', ui.origin);
    expect(
      (await fetch(linkUrl, { method: 'POST', headers: { Authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect((await fetch(linkUrl, { method: 'POST' })).status).toBe(401);
    expect(
      (
        await fetch(linkUrl, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, Origin: ui.origin },
        })
      ).status,
    ).toBe(403);
    expect(
      (await fetch(linkUrl, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(401);

    // toolbridge mcp --connect relays a stdio agent to this host.
    const relayed = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await relayed.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp', '--connect', endpoint],
        env: { ...getDefaultEnvironment(), TOOLBRIDGE_AGENT_TOKEN: token },
        stderr: 'ignore',
      }),
    );
    const viaRelay = (await relayed.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: 'relayed' } }] },
    })) as CallToolResult;
    expect((viaRelay.content[0] as { text: string }).text).toBe('Echo: relayed');
    await relayed.close();

    // A second host on the same folder is refused, clearly.
    const second = spawn(process.execPath, [MAIN, 'serve', '--data-dir', dataDir, '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const secondErr = lines(second.stderr!);
    const secondCode = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(secondCode).toBe(2);
    expect(secondErr.join('\n')).toMatch(/already using the data folder/);

    const servers = childPids(serve.pid!);
    expect(servers.length).toBeGreaterThanOrEqual(3);
    const exited = new Promise<number | null>((resolve) => serve!.on('exit', resolve));
    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitUntil(() => servers.every((pid) => !alive(pid)), 'the servers to exit');
    expect(err.join('\n')).not.toContain(TOKEN);
    // The key goes with the serve that wrote it, and ui-link then says no serve is running.
    await expect(fs.stat(path.join(dataDir, 'ui-link.key'))).rejects.toMatchObject({ code: 'ENOENT' });
    const none = spawn(process.execPath, [MAIN, 'ui-link', '--data-dir', dataDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const noneErr = lines(none.stderr!);
    expect(await new Promise<number | null>((resolve) => none.on('close', resolve))).not.toBe(0);
    expect(noneErr.join('\n')).toContain('No toolbridge serve is running on the data folder');
  });

  it('toolbridge mcp serves one agent over stdio from its own host, never writing settings', async () => {
    const own = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-mcp-'));
    let servers: number[] = [];
    try {
      const everything = path.join(
        ROOT,
        'node_modules',
        '@modelcontextprotocol',
        'server-everything',
        'dist',
        'index.js',
      );
      const settingsText = JSON.stringify({
        version: 1,
        servers: [
          {
            id: 'everything',
            transport: 'stdio',
            command: process.execPath,
            args: [everything, 'stdio'],
            enabled: true,
          },
          // Ignores SIGTERM and the end of stdin: only a host that shuts down properly stops it.
          {
            id: 'stubborn',
            transport: 'stdio',
            command: process.execPath,
            args: ['-r', STUBBORN, FIXTURE, BASIC],
            enabled: true,
          },
        ],
      });
      await fs.writeFile(path.join(own, 'settings.json'), settingsText, { mode: 0o600 });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'mcp', '--data-dir', own, '--policy', 'allow', '--context-length', '8000'],
        stderr: 'pipe',
      });
      const client = new Client({ name: 'spawning-agent', version: '1.0.0' });
      await client.connect(transport);
      const mcpPid = transport.pid!;
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'manage_connections',
        'tool_search',
        'tool_describe',
        'tool_call',
      ]);
      const result = (await client.callTool({
        name: 'tool_call',
        arguments: { calls: [{ name: 'mcp__everything__echo', arguments: { message: 'over stdio' } }] },
      })) as CallToolResult;
      expect((result.content[0] as { text: string }).text).toBe('Echo: over stdio');
      // Issue #14: everything besides tools passes through this endpoint too.
      expect(client.getInstructions()).toContain('\n- everything: ');
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain(
        'everything__args-prompt',
      );
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((resource) => resource.uri.startsWith('toolbridge://everything/'))).toBe(true);
      const read = await client.readResource({ uri: resources[0]!.uri });
      expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
      servers = childPids(mcpPid);
      expect(servers.length).toBe(2);
      // Closing stdin starts the shutdown; the SDK client sends SIGTERM 2 s later and SIGKILL 2 s
      // after that, as agents do. The stubborn server must still not outlive us.
      await client.close();
      await waitUntil(
        () => !alive(mcpPid) && servers.every((pid) => !alive(pid)),
        'mcp and its server to exit',
      );
      expect(await fs.readFile(path.join(own, 'settings.json'), 'utf8')).toBe(settingsText);
      await expect(fs.access(path.join(own, 'host.lock'))).rejects.toThrow();
    } finally {
      killGroups(servers);
      await fs.rm(own, { recursive: true, force: true });
    }
  });

  it('issue #16: while a server is slow to start, serve says on stderr which one it waits for', async () => {
    const own = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-serve-slow-'));
    try {
      const silent = { id: 'silent', transport: 'stdio', command: process.execPath, enabled: true };
      await fs.writeFile(
        path.join(own, 'settings.json'),
        JSON.stringify({ version: 1, servers: [{ ...silent, args: [path.join(FIXTURES, 'silent.cjs')] }] }),
        { mode: 0o600 },
      );
      const slow = spawn(process.execPath, [MAIN, 'serve', '--data-dir', own, '--port', '0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = lines(slow.stdout!);
      const err = lines(slow.stderr!);
      await waitUntil(() => err.some((line) => line.includes('waiting for')), 'the waiting line', 20_000);
      const waiting = err.find((line) => line.includes('waiting for'))!;
      expect(waiting).toMatch(/^toolbridge serve: waiting for 1 server to start: silent \(.+\)\. /);
      // The command is named from its start; a long one (a deep Node path) is cut with "…".
      expect(waiting).toContain(`silent (${process.execPath.slice(0, 20)}`);
      expect(out.some((line) => line.startsWith('ui: '))).toBe(false);
      const exited = new Promise<number | null>((resolve) => slow.on('exit', resolve));
      slow.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await fs.rm(own, { recursive: true, force: true });
    }
  });

  it('serve whose stderr nobody reads any more still stops on SIGTERM, instead of spinning on the failed writes', async () => {
    const own = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-serve-orphan-'));
    await fs.writeFile(path.join(own, 'settings.json'), JSON.stringify({ version: 1, servers: [] }), {
      mode: 0o600,
    });
    const orphan = spawn(process.execPath, [MAIN, 'serve', '--data-dir', own, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = lines(orphan.stdout!);
      await waitUntil(() => out.some((line) => line.startsWith('ui: ')), 'the ui: line', 30_000);
      // As when the parent that read its stderr died: its next line (shutting down) meets EPIPE.
      orphan.stderr!.destroy();
      orphan.kill('SIGTERM');
      // Bounded inside the test, so a serve that never exits is killed below, not left spinning.
      await waitUntil(
        () => orphan.exitCode !== null || orphan.signalCode !== null,
        'serve to exit after SIGTERM',
        30_000,
      );
      expect(orphan.exitCode).toBe(0);
    } finally {
      if (orphan.exitCode === null && orphan.signalCode === null) orphan.kill('SIGKILL');
      await fs.rm(own, { recursive: true, force: true });
    }
  });

  it('toolbridge mcp stops its servers on SIGTERM, even one that ignores SIGTERM', async () => {
    const own = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-mcp-term-'));
    let servers: number[] = [];
    try {
      const stubborn = { id: 'stubborn', transport: 'stdio', command: process.execPath, enabled: true };
      await fs.writeFile(
        path.join(own, 'settings.json'),
        JSON.stringify({ version: 1, servers: [{ ...stubborn, args: ['-r', STUBBORN, FIXTURE, BASIC] }] }),
        { mode: 0o600 },
      );
      const mcp = spawn(process.execPath, [MAIN, 'mcp', '--data-dir', own, '--policy', 'allow'], {
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      const out = lines(mcp.stdout!);
      mcp.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
      await waitUntil(() => out.some((line) => line.includes('"id":1')), 'the initialize answer', 15_000);
      servers = childPids(mcp.pid!);
      expect(servers.length).toBe(1);
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        mcp.on('exit', (code, signal) => resolve([code, signal])),
      );
      mcp.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
      await waitUntil(() => servers.every((pid) => !alive(pid)), 'the stubborn server to exit', 5_000);
    } finally {
      killGroups(servers);
      await fs.rm(own, { recursive: true, force: true });
    }
  });
});
