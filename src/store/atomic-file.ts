/**
 * The one writer for every file the store owns (settings, secrets): write a temp file in the same
 * folder (created 0600, never chmod-ed afterwards), fsync it, rename it over the target, fsync the
 * folder. Writes to one path are queued, so there is a single writer per file.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { processExists } from '../platform/process-alive.js';

const TEMP_SUFFIX = '.tmp';
const queues = new Map<string, Promise<unknown>>();

/** Private files: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;
/** Private folders: owner only. */
export const PRIVATE_DIR_MODE = 0o700;

/** Replaces `filePath` with `data` so a crash leaves either the old or the new content, whole. */
export function writeFileAtomic(filePath: string, data: string, mode = PRIVATE_FILE_MODE): Promise<void> {
  const target = path.resolve(filePath);
  const previous = queues.get(target) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => writeNow(target, data, mode));
  queues.set(target, next);
  // Drop the queue entry once idle so the map does not grow with every path ever written.
  void next
    .catch(() => undefined)
    .then(() => {
      if (queues.get(target) === next) queues.delete(target);
    });
  return next;
}

async function writeNow(target: string, data: string, mode: number): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`,
  );
  // 'wx' fails if the name exists; the mode applies at creation, so the bytes are never world-readable.
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable. Some platforms (Windows) cannot open a folder; skip there.
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Removes temp files a crashed writer of `filePath` left behind. Returns how many it removed. A
 * temp file whose writer (the pid in its name) still runs is being written: another process
 * shares the file (`toolbridge mcp` beside `serve`), so it stays.
 */
export async function removeStaleTempFiles(filePath: string): Promise<number> {
  const dir = path.dirname(path.resolve(filePath));
  const prefix = `.${path.basename(filePath)}.`;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  const stale = names.filter((name) => {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) return false;
    const writer = Number(name.slice(prefix.length).split('.')[0]);
    return !(Number.isInteger(writer) && writer > 0 && processExists(writer));
  });
  await Promise.all(stale.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return stale.length;
}

/**
 * Renames an unreadable file to `<name>.corrupt-<timestamp>` so nothing overwrites it, and
 * returns the new path.
 */
export async function moveAside(filePath: string, now: Date = new Date()): Promise<string> {
  const aside = `${filePath}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(filePath, aside);
  return aside;
}

/**
 * Creates `dir` (and parents) owner-only. An existing folder that others can read is tightened,
 * and the returned warning says so.
 */
export async function ensurePrivateDir(dir: string): Promise<string | undefined> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return undefined;
  const stat = await fs.stat(dir);
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  await fs.chmod(dir, PRIVATE_DIR_MODE);
  return `The data folder ${dir} was readable by other users (mode ${mode.toString(8)}); it is now 700.`;
}

/** Tightens an existing private file that others can read; returns a warning when it had to. */
export async function repairPrivateFileMode(filePath: string): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = (await fs.stat(filePath)).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  await fs.chmod(filePath, PRIVATE_FILE_MODE);
  return `${filePath} was readable by other users (mode ${mode.toString(8)}); it is now 600.`;
}
