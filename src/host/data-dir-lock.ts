import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { processStartTime } from '../platform/process-alive.js';
import { PRIVATE_FILE_MODE, writeFileAtomic } from '../store/atomic-file.js';

export const LOCK_FILE_NAME = 'host.lock';

/** Who holds the data folder, and where its agent endpoint answers once it is up. */
export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  /** The holder's kernel start time (Linux), so a later process that reuses its pid is no holder. */
  processStartTime?: string;
  endpointUrl?: string;
}

/**
 * One writing host per data folder: the app or `toolbridge serve` holds this lock, so two
 * processes never write settings.json over each other. The file is created exclusively; a lock
 * left by a process that no longer runs (on this machine), or whose pid another process now has,
 * is taken over.
 */
export class DataDirLock implements AsyncDisposable {
  private released = false;

  private constructor(
    readonly filePath: string,
    private info: LockInfo,
  ) {}

  static async acquire(dataDir: string): Promise<DataDirLock> {
    const filePath = path.join(dataDir, LOCK_FILE_NAME);
    const startTime = processStartTime(process.pid);
    const info: LockInfo = {
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
      ...(startTime === undefined ? {} : { processStartTime: startTime }),
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await fs.open(filePath, 'wx', PRIVATE_FILE_MODE);
        try {
          await handle.writeFile(JSON.stringify(info));
        } finally {
          await handle.close();
        }
        return new DataDirLock(filePath, info);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new ToolbridgeError('INTERNAL', `Cannot create ${filePath}: ${errorMessage(error)}.`, {
            cause: error,
          });
        }
      }
      const holder = await DataDirLock.read(dataDir);
      if (holder !== undefined) {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          `Another Toolbridge (pid ${holder.pid}) is already using the data folder ${dataDir}. ` +
            'Stop it first, or pass a different --data-dir.',
        );
      }
      await fs.rm(filePath, { force: true });
    }
    throw new ToolbridgeError('INTERNAL', `Could not take the lock ${filePath}; try again.`);
  }

  /** The live holder of the data folder, or undefined when none (or only a stale lock) is there. */
  static async read(dataDir: string): Promise<LockInfo | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await fs.readFile(path.join(dataDir, LOCK_FILE_NAME), 'utf8'));
    } catch {
      return undefined;
    }
    if (!isPlainObject(parsed) || typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') {
      return undefined;
    }
    const info = parsed as unknown as LockInfo;
    // A lock from another machine (shared home folder) cannot be checked; respect it.
    if (info.hostname !== os.hostname()) return info;
    if (!isAlive(info.pid)) return undefined;
    // The pid now names another process (the holder died, the pid was handed out again).
    const startTime = processStartTime(info.pid);
    if (info.processStartTime !== undefined && startTime !== undefined && startTime !== info.processStartTime)
      return undefined;
    return info;
  }

  /** Records the endpoint URL so other processes (`toolbridge mcp`) can find the running host. */
  async setEndpoint(endpointUrl: string): Promise<void> {
    if (this.released) return;
    this.info = { ...this.info, endpointUrl };
    await writeFileAtomic(this.filePath, JSON.stringify(this.info));
  }

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    // Only remove the file if it is still ours.
    const current: unknown = await fs
      .readFile(this.filePath, 'utf8')
      .then((text) => JSON.parse(text))
      .catch(() => undefined);
    if (
      isPlainObject(current) &&
      current.pid === this.info.pid &&
      current.startedAt === this.info.startedAt
    ) {
      await fs.rm(this.filePath, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
