import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { DataDirLock, LOCK_FILE_NAME } from '../../../src/host/data-dir-lock.js';
import { deadPid } from '../store/dead-pid.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-lock-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('DataDirLock', () => {
  it('lets one holder in and names it to the next', async () => {
    const lock = await DataDirLock.acquire(dir);
    await expect(DataDirLock.acquire(dir)).rejects.toSatisfy(
      (error) =>
        ToolbridgeError.is(error, 'INVALID_ARGUMENT') &&
        String((error as Error).message).includes(`pid ${process.pid}`),
    );
    expect((await DataDirLock.read(dir))?.pid).toBe(process.pid);
    await lock.close();
    expect(await DataDirLock.read(dir)).toBeUndefined();
    const again = await DataDirLock.acquire(dir);
    await again.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const pid = deadPid();
    await fs.writeFile(
      path.join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid, hostname: os.hostname(), startedAt: new Date().toISOString() }),
    );
    expect(await DataDirLock.read(dir)).toBeUndefined();
    const lock = await DataDirLock.acquire(dir);
    expect((await DataDirLock.read(dir))?.pid).toBe(process.pid);
    await lock.close();
  });

  it('publishes the endpoint URL and creates the file owner-only', async () => {
    const lock = await DataDirLock.acquire(dir);
    await lock.setEndpoint('http://127.0.0.1:4100/mcp');
    expect((await DataDirLock.read(dir))?.endpointUrl).toBe('http://127.0.0.1:4100/mcp');
    if (process.platform !== 'win32') {
      expect((await fs.stat(path.join(dir, LOCK_FILE_NAME))).mode & 0o777).toBe(0o600);
    }
    await lock.close();
  });

  it('does not remove a lock someone else took after ours was removed', async () => {
    const lock = await DataDirLock.acquire(dir);
    const foreign = JSON.stringify({
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: '2000-01-01T00:00:00.000Z',
    });
    await fs.writeFile(path.join(dir, LOCK_FILE_NAME), foreign);
    await lock.close();
    expect(await fs.readFile(path.join(dir, LOCK_FILE_NAME), 'utf8')).toBe(foreign);
  });
});
