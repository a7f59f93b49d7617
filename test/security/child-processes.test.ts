/**
 * Issue #12, child processes: what `toolbridge serve` starts never outlives it, not after a kill -9
 * (the next start reaps it), not when it ignores SIGTERM, not when it left its process group with
 * setsid(); shutdown stops every server at once (all get SIGTERM before any is killed), so it
 * takes one grace period however many there are; and nothing that only looks like a leftover (a
 * reused pid) is ever killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/host.js';
import { processStartTime } from '../../src/platform/process-alive.js';
import { writeSettings } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';
import { alive, buildPrivateCli, lines } from '../integration/host/process-kit.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT_DIR = 'dist-security-proc';
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'servers');
const FIXTURE = path.join(FIXTURES, 'fixture-server.mjs');
const BASIC = path.join(FIXTURES, 'basic.json');
const STUBBORN = path.join(FIXTURES, 'stubborn.cjs');
const SPAWNER = path.join(FIXTURES, 'spawner.cjs');
/** The servers' stop grace period (ServerConnection's default). */
const GRACE_MS = 2_000;

/** Every pid a test started or saw started, SIGKILLed (with its group) after each test. */
const started = new Set<number>();
let main: string;
let dataDir: string;

beforeAll(async () => {
  main = await buildPrivateCli(OUT_DIR);
}, 120_000);

afterAll(async () => {
  await fs.rm(path.join(ROOT, OUT_DIR), { recursive: true, force: true });
});

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-sec-proc-'));
});

afterEach(async () => {
  for (const pid of started) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  started.clear();
  await fs.rm(dataDir, { recursive: true, force: true });
});

interface Serve {
  child: ChildProcess;
  out: string[];
  err: string[];
  exit: Promise<number | null>;
}

function startServe(): Serve {
  const child = spawn(process.execPath, [main, 'serve', '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child.pid!);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: lines(child.stdout!), err: lines(child.stderr!), exit };
}

/** Waits for serve's `ui:` line; fails at once, with what it printed, if it exits instead. */
async function comesUp(serve: Serve): Promise<void> {
  let exitCode: number | null | undefined;
  void serve.exit.then((code) => {
    exitCode = code;
  });
  await waitUntil(
    () => exitCode !== undefined || serve.out.some((line) => line.startsWith('ui: ')),
    'serve to come up',
    45_000,
  );
  expect(exitCode, `serve exited ${exitCode}; stderr: ${serve.err.join(' | ')}`).toBeUndefined();
}

function stdioServer(id: string, preloads: string[], env: Record<string, string> = {}) {
  return {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [...preloads.flatMap((preload) => ['-r', preload]), FIXTURE, BASIC],
    env,
    enabled: true,
  };
}

async function leasedPids(): Promise<Record<string, number>> {
  const leases = JSON.parse(await fs.readFile(path.join(dataDir, 'server-leases.json'), 'utf8')) as Array<{
    pid: number;
    serverId: string;
  }>;
  for (const lease of leases) started.add(lease.pid);
  return Object.fromEntries(leases.map((lease) => [lease.serverId, lease.pid]));
}

/** The pids a spawner server wrote, once it wrote them. */
async function spawnedPids(file: string): Promise<number[]> {
  let text = '';
  await waitUntil(() => {
    text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    return text.endsWith('\n');
  }, 'the spawned pids');
  const pids = text.trim().split('\n').map(Number);
  for (const pid of pids) started.add(pid);
  return pids;
}

async function crash(serve: Serve): Promise<void> {
  serve.child.kill('SIGKILL');
  await serve.exit;
}

/** SIGTERM to serve; its exit code. */
async function stop(serve: Serve): Promise<number | null> {
  serve.child.kill('SIGTERM');
  return serve.exit;
}

/** Starts a process that is not ours (as a pid reused after a crash would be). */
function unrelatedProcess(): number {
  const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
  child.unref();
  started.add(child.pid!);
  return child.pid!;
}

describe.runIf(process.platform === 'linux')('issue #12: child processes and shutdown', () => {
  it('issue #12: after kill -9, the next start reaps a server that ignores SIGTERM, says so, and comes up (3 cycles)', async () => {
    await writeSettings(dataDir, { servers: [stdioServer('stubborn', [STUBBORN])] });
    let leftover: number | undefined;
    for (let cycle = 0; cycle < 3; cycle++) {
      const serve = startServe();
      await comesUp(serve);
      if (leftover !== undefined) {
        expect(serve.err.join('\n')).toContain(
          `stopped 1 process(es) of server(s) stubborn that a previous run left behind (pids ${leftover})`,
        );
        expect(alive(leftover)).toBe(false);
      }
      leftover = (await leasedPids()).stubborn!;
      expect(alive(leftover)).toBe(true);
      await crash(serve);
      expect(alive(leftover)).toBe(true);
    }
    const last = startServe();
    await comesUp(last);
    expect(alive(leftover!)).toBe(false);
    const current = (await leasedPids()).stubborn!;
    expect(await stop(last)).toBe(0);
    expect(alive(current)).toBe(false);
  }, 180_000);

  it('issue #12: a data-folder lock left by a dead process is taken over', async () => {
    await writeSettings(dataDir, { servers: [] });
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await fs.writeFile(
      path.join(dataDir, 'host.lock'),
      JSON.stringify({ pid: gone.pid, hostname: os.hostname(), startedAt: new Date().toISOString() }),
    );
    const serve = startServe();
    await comesUp(serve);
    expect(await stop(serve)).toBe(0);
  });

  it('issue #12: a lock and a lease whose pid another program reuses: serve comes up and leaves that program alone', async () => {
    await writeSettings(dataDir, { servers: [] });
    const other = unrelatedProcess();
    await waitUntil(() => processStartTime(other) !== undefined, 'the other program', 5_000);
    const earlier = String(Number(processStartTime(other)) - 100);
    await fs.writeFile(
      path.join(dataDir, 'host.lock'),
      JSON.stringify({
        pid: other,
        hostname: os.hostname(),
        startedAt: new Date().toISOString(),
        processStartTime: earlier,
      }),
    );
    await fs.writeFile(
      path.join(dataDir, 'server-leases.json'),
      JSON.stringify([
        { pid: other, serverId: 'old', startTime: earlier, token: 'f'.repeat(32) },
        { pid: other, serverId: 'older' },
      ]),
    );
    const serve = startServe();
    await comesUp(serve);
    expect(serve.err.join('\n')).not.toContain('left behind');
    expect(alive(other)).toBe(true);
    expect(await stop(serve)).toBe(0);
    expect(alive(other)).toBe(true);
  });

  it('issue #12: three servers that ignore SIGTERM stop in parallel: all get SIGTERM before any is killed, then all are killed before serve exits', async () => {
    const log = path.join(dataDir, 'term.log');
    await writeSettings(dataDir, {
      servers: ['a', 'b', 'c'].map((id) => stdioServer(`stubborn-${id}`, [STUBBORN], { STUBBORN_LOG: log })),
    });
    const serve = startServe();
    await comesUp(serve);
    const pids = Object.values(await leasedPids());
    expect(pids).toHaveLength(3);
    const stopping = stop(serve);
    // They ignore SIGTERM, so the first to die was SIGKILLed: by then all three had their SIGTERM,
    // once each. Stopping them one after another would SIGTERM the second only after the first's
    // grace period and SIGKILL; in parallel, the whole stop is one grace period, without a clock.
    await waitUntil(() => pids.some((pid) => !alive(pid)), 'the first SIGKILL', 4 * GRACE_MS);
    const terms = (await fs.readFile(log, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
    expect(terms.sort()).toEqual(pids.map((pid) => `${pid} TERM`).sort());
    expect(await stopping).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('issue #12: a server with 20 children and 2 setsid grandchildren leaves nothing behind on shutdown', async () => {
    const pidsFile = path.join(dataDir, 'spawned.txt');
    await writeSettings(dataDir, {
      servers: [
        stdioServer('spawner', [SPAWNER], {
          SPAWN_CHILDREN: '20',
          SPAWN_SETSID: '2',
          SPAWN_PIDS_FILE: pidsFile,
        }),
      ],
    });
    const serve = startServe();
    await comesUp(serve);
    const spawned = await spawnedPids(pidsFile);
    expect(spawned).toHaveLength(22);
    expect(spawned.filter(alive)).toHaveLength(22);
    expect(await stop(serve)).toBe(0);
    await waitUntil(() => spawned.every((pid) => !alive(pid)), 'every descendant to exit', 5_000);
  });

  it('issue #12: after kill -9, the next start reaps a server, its children and its setsid grandchildren', async () => {
    const pidsFile = path.join(dataDir, 'spawned.txt');
    await writeSettings(dataDir, {
      servers: [
        stdioServer('spawner', [STUBBORN, SPAWNER], {
          SPAWN_CHILDREN: '3',
          SPAWN_SETSID: '2',
          SPAWN_PIDS_FILE: pidsFile,
        }),
      ],
    });
    const first = startServe();
    await comesUp(first);
    const server = (await leasedPids()).spawner!;
    const spawned = await spawnedPids(pidsFile);
    await fs.rm(pidsFile);
    await crash(first);
    expect([server, ...spawned].filter(alive)).toHaveLength(6);
    const second = startServe();
    await comesUp(second);
    expect([server, ...spawned].filter(alive)).toEqual([]);
    expect(second.err.join('\n')).toMatch(
      /stopped 6 process\(es\) of server\(s\) spawner that a previous run/,
    );
    await spawnedPids(pidsFile);
    expect(await stop(second)).toBe(0);
  });

  it('issue #12: a second SIGTERM while stopping kills the servers at once, setsid grandchildren included', async () => {
    const pidsFile = path.join(dataDir, 'spawned.txt');
    await writeSettings(dataDir, {
      servers: [
        stdioServer('spawner', [STUBBORN, SPAWNER], {
          SPAWN_CHILDREN: '2',
          SPAWN_SETSID: '2',
          SPAWN_PIDS_FILE: pidsFile,
        }),
      ],
    });
    const serve = startServe();
    await comesUp(serve);
    const server = (await leasedPids()).spawner!;
    const spawned = await spawnedPids(pidsFile);
    serve.child.kill('SIGTERM');
    await waitUntil(() => serve.err.some((line) => line.includes('shutting down')), 'the first stop');
    serve.child.kill('SIGTERM');
    await serve.exit;
    await waitUntil(
      () => [server, ...spawned].every((pid) => !alive(pid)),
      'everything to be killed',
      GRACE_MS,
    );
  });

  it('issue #12: a server that dies on its own takes its setsid grandchildren with it', async () => {
    const pidsFile = path.join(dataDir, 'spawned.txt');
    await writeSettings(dataDir, {
      servers: [stdioServer('spawner', [SPAWNER], { SPAWN_SETSID: '3', SPAWN_PIDS_FILE: pidsFile })],
    });
    const host = await createHost({ dataDir, port: 0, log: () => undefined });
    try {
      await host.ready;
      const spawned = await spawnedPids(pidsFile);
      expect(spawned.filter(alive)).toHaveLength(3);
      await host.servers.callTool('spawner', 'crash', {}).catch(() => undefined);
      await waitUntil(() => spawned.every((pid) => !alive(pid)), 'the grandchildren to stop', 2 * GRACE_MS);
    } finally {
      await host.close();
    }
  });
});
