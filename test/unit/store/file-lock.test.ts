import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, withFileLock } from '../../../src/store/file-lock.js';
import { deadPid } from './dead-pid.js';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-lock-'));
  lock = path.join(dir, 'work.lock');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A read-modify-write that loses updates unless the holders take turns. */
async function increment(file: string): Promise<void> {
  const value = Number(await fs.readFile(file, 'utf8').catch(() => '0'));
  // A turn of the event loop between the read and the write, where another holder could run.
  await new Promise(setImmediate);
  await fs.writeFile(file, String(value + 1));
}

function holderFile(pid: number, acquiredAt: number, hostname = os.hostname()): string {
  return JSON.stringify({ pid, hostname, acquiredAt, nonce: 'someone-else' });
}

describe('withFileLock', () => {
  it('lets one holder in at a time: no update is lost, and nothing is left behind', async () => {
    const counter = path.join(dir, 'counter');
    await Promise.all(Array.from({ length: 12 }, () => withFileLock(lock, () => increment(counter))));
    expect(await fs.readFile(counter, 'utf8')).toBe('12');
    expect(await fs.readdir(dir)).toEqual(['counter']);
  });

  it('releases the lock when the work throws', async () => {
    await expect(
      withFileLock(lock, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await withFileLock(lock, async () => 'again')).toBe('again');
  });

  it('takes over a lock whose process is gone', async () => {
    await fs.writeFile(lock, holderFile(deadPid(), Date.now()));
    expect(await withFileLock(lock, async () => 'mine', { waitMs: 0 })).toBe('mine');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('takes over a lock held longer than staleMs, even by a live process', async () => {
    let now = 1_000_000;
    await fs.writeFile(lock, holderFile(process.pid, now));
    const options = { waitMs: 0, staleMs: 5_000, clock: () => now };
    await expect(withFileLock(lock, async () => 'early', options)).rejects.toMatchObject({ code: 'TIMEOUT' });
    now += 5_001;
    expect(await withFileLock(lock, async () => 'late', options)).toBe('late');
  });

  it('takes over a file that is not a lock it could have written', async () => {
    await fs.writeFile(lock, 'garbage');
    expect(await withFileLock(lock, async () => 'ok', { waitMs: 0 })).toBe('ok');
  });

  it('waits for a live holder, and says who holds it when it gives up', async () => {
    const release = await acquireFileLock(lock);
    const error = await withFileLock(lock, async () => 'never', { waitMs: 60 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(String((error as Error).message)).toContain(`process ${process.pid}`);
    const waiting = withFileLock(lock, async () => 'after', { waitMs: 5_000 });
    await release();
    expect(await waiting).toBe('after');
  });

  it('a release never removes a lock someone else took over meanwhile', async () => {
    let now = 0;
    const release = await acquireFileLock(lock, { clock: () => now });
    now = 10_000;
    // Another holder decides ours is stale and takes the lock.
    const theirs = await acquireFileLock(lock, { staleMs: 1_000, clock: () => now, waitMs: 0 });
    await release();
    const holder = JSON.parse(await fs.readFile(lock, 'utf8')) as { acquiredAt: number };
    expect(holder.acquiredAt).toBe(10_000);
    await theirs();
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
