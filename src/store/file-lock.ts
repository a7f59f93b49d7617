/**
 * An exclusive lock shared by every process using the data folder (`toolbridge serve`, any
 * number of `toolbridge mcp`) and by every holder inside one process: a lock file that appears
 * whole or not at all (hard-linked from a written temp file, which fails if it exists). A lock
 * whose owner process is gone, or that was held longer than any real holder would, is taken over.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import { processExists } from '../platform/process-alive.js';
import { PRIVATE_FILE_MODE } from './atomic-file.js';

export interface FileLockOptions {
  /** Give up waiting for the lock after this long, with `TIMEOUT`. @defaultValue 60_000 */
  waitMs?: number;
  /**
   * A lock held this long is taken over even though its owner still runs (a hung owner, or a
   * reused pid). Keep it well above the longest work done under the lock. @defaultValue 120_000
   */
  staleMs?: number;
  /** How often a waiter looks again. @defaultValue 20 */
  pollMs?: number;
  /** Dates the lock and judges its age. @defaultValue Date.now */
  clock?: () => number;
}

/** What a lock file holds. */
interface LockHolder {
  pid: number;
  hostname: string;
  acquiredAt: number;
  /** Tells this holding apart from any other, the same process's included. */
  nonce: string;
}

/** Runs `work` holding the lock at `lockPath` (created in its folder, which must exist). */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const release = await acquireFileLock(lockPath, options);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Takes the lock, waiting while another holder has it; resolves with its release. */
export async function acquireFileLock(
  lockPath: string,
  options: FileLockOptions = {},
): Promise<() => Promise<void>> {
  const clock = options.clock ?? Date.now;
  const staleMs = options.staleMs ?? 120_000;
  const waitMs = options.waitMs ?? 60_000;
  const deadline = Date.now() + waitMs;
  const holder: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    acquiredAt: clock(),
    nonce: randomBytes(12).toString('hex'),
  };
  const text = JSON.stringify(holder);
  for (;;) {
    if (await tryCreate(lockPath, text)) return () => removeIfHolding(lockPath, text);
    // Undefined when its holder released it meanwhile (or it cannot be read): wait and look again.
    const current = await fs.readFile(lockPath, 'utf8').catch(() => undefined);
    const other = current === undefined ? undefined : parseHolder(current);
    if (current !== undefined && (other === undefined || isAbandoned(other, clock(), staleMs))) {
      await removeIfHolding(lockPath, current);
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = other === undefined ? 'another Toolbridge process' : `Toolbridge process ${other.pid}`;
      throw new ToolbridgeError(
        'TIMEOUT',
        `Waited ${Math.round(waitMs / 1000)} s for ${lockPath}, which ${holder} holds. Try again; if no other Toolbridge is running, delete that file.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 20));
  }
}

/** Links a fully written temp file into place: the lock exists whole, or the link fails. */
async function tryCreate(lockPath: string, text: string): Promise<boolean> {
  const temp = path.join(
    path.dirname(lockPath),
    `.${path.basename(lockPath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await fs.writeFile(temp, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await fs.link(temp, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ToolbridgeError(
      'INTERNAL',
      `Could not create the lock file ${lockPath}: ${(error as Error).message}.`,
      { cause: error },
    );
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/**
 * Removes the lock only while it still holds `text`. It is moved aside before it is read, so a
 * lock another process took in the meantime is never deleted: that one is linked back instead.
 */
async function removeIfHolding(lockPath: string, text: string): Promise<void> {
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}.released`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return; // already gone
  }
  try {
    const moved = await fs.readFile(aside, 'utf8').catch(() => undefined);
    if (moved !== text) await fs.link(aside, lockPath).catch(() => undefined);
  } finally {
    await fs.rm(aside, { force: true });
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      isPlainObject(value) &&
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.acquiredAt === 'number'
    ) {
      return value as unknown as LockHolder;
    }
  } catch {
    // not a lock we wrote: take it over
  }
  return undefined;
}

function isAbandoned(holder: LockHolder, now: number, staleMs: number): boolean {
  // A pid from another machine (a shared home folder) cannot be checked; only age tells there.
  if (holder.hostname === os.hostname() && !processExists(holder.pid)) return true;
  return now - holder.acquiredAt > staleMs;
}
