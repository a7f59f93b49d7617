/**
 * Signals for whole process groups (POSIX). A stdio server leads its own group, so one signal
 * reaches everything it started. EPERM means a member exists that we may not signal: still alive.
 */
import { processExists } from '../platform/process-alive.js';

export const PROCESS_GROUPS = process.platform !== 'win32';

export function processAlive(pid: number): boolean {
  return processExists(pid);
}

export function groupAlive(pgid: number): boolean {
  return PROCESS_GROUPS && processExists(-pgid);
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** An unref'd sleep: never keeps the process alive. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
