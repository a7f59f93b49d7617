/**
 * Leftover servers from a host that died without closing them (kill -9) are reaped at the next
 * start; processes that merely reuse an old pid are not.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../src/platform/process-alive.js';
import { type LeaseFile, type ProcessLease, ProcessLeases } from '../../../src/servers/process-leases.js';
import { ServerConnection } from '../../../src/servers/server-connection.js';
import { waitUntil } from '../../helpers/wait.js';
import { FIXTURE_SERVER, fixtureConfig, isAlive, STUBBORN_PRELOAD, scenarioPath } from './helpers.js';

class MemoryLeaseFile implements LeaseFile {
  value: unknown;
  async read(): Promise<unknown> {
    return structuredClone(this.value);
  }
  async write(value: ProcessLease[]): Promise<void> {
    this.value = structuredClone(value);
  }
}

const stray: number[] = [];
afterEach(() => {
  for (const pid of stray.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Starts a process in its own group and leaves it running, as a killed host would. */
function orphan(command: string, args: string[]): { pid: number; stdout: Promise<string> } {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  child.unref();
  stray.push(child.pid!);
  const stdout = new Promise<string>((resolve) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
  });
  return { pid: child.pid!, stdout };
}

describe('ServerConnection with leases', () => {
  it('records a stdio child while it runs and forgets it after close', async () => {
    const file = new MemoryLeaseFile();
    const connection = new ServerConnection(fixtureConfig('leased', 'basic'), {
      leases: new ProcessLeases(file),
    });
    await connection.start();
    const pid = connection.state.pid!;
    await waitUntil(
      () => Array.isArray(file.value) && (file.value as ProcessLease[]).length === 1,
      'the lease',
      2_000,
    );
    expect(file.value).toEqual([
      {
        pid,
        serverId: 'leased',
        token: expect.stringMatching(/^[0-9a-f]{32}$/),
        ...(process.platform === 'linux' ? { startTime: processStartTime(pid) } : {}),
      },
    ]);
    await connection.close();
    expect(file.value).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('ProcessLeases.reapLeftovers', () => {
  it('stops a leftover server that ignores SIGTERM, and clears the file', async () => {
    const { pid } = orphan(process.execPath, ['-r', STUBBORN_PRELOAD, FIXTURE_SERVER, scenarioPath('basic')]);
    await waitUntil(() => processStartTime(pid) !== undefined, 'the orphan', 2_000);
    const file = new MemoryLeaseFile();
    file.value = [{ pid, serverId: 'old', startTime: processStartTime(pid) }];
    const reaped = await new ProcessLeases(file).reapLeftovers(300);
    expect(reaped.stopped).toEqual([pid]);
    await waitUntil(() => !isAlive(pid), 'the orphan to die', 1_000);
    expect(file.value).toEqual([]);
  });

  it('stops what is left of a group whose leader already exited', async () => {
    const { pid: shellPid, stdout } = orphan('/bin/sh', ['-c', 'sleep 1000 & echo $!']);
    const sleepPid = Number(await stdout);
    await waitUntil(() => !isAlive(shellPid), 'the shell to exit', 2_000);
    expect(isAlive(sleepPid)).toBe(true);
    const file = new MemoryLeaseFile();
    file.value = [{ pid: shellPid, serverId: 'old', startTime: '1' }];
    expect((await new ProcessLeases(file).reapLeftovers(300)).stopped).toEqual([sleepPid]);
    await waitUntil(() => !isAlive(sleepPid), 'the background sleep to die', 1_000);
  });

  it('leaves alone a process that reuses a leased pid', async () => {
    const { pid } = orphan(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    await waitUntil(() => processStartTime(pid) !== undefined, 'the process', 2_000);
    const file = new MemoryLeaseFile();
    file.value = [{ pid, serverId: 'old', startTime: `${processStartTime(pid)}0` }, { pid: 'junk' }];
    expect((await new ProcessLeases(file).reapLeftovers(300)).stopped).toEqual([]);
    expect(isAlive(pid)).toBe(true);
    expect(file.value).toEqual([]);
  });
});
