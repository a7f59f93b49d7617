import { readFileSync } from 'node:fs';

/**
 * True while the process exists: `target` is a pid, or `-pgid` for any member of a process group.
 * Signal 0 checks without signalling; EPERM means it exists but belongs to someone else.
 */
export function processExists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ProcessStat {
  /** `R`, `S`, … ; `Z` for a zombie (exited, not yet collected by its parent). */
  state: string;
  groupId: number;
  /** Clock ticks since boot: tells a process apart from a later one that got the same pid. */
  startTime: string | undefined;
}

/** A process's state, process group and start time from /proc/<pid>/stat, Linux only. */
export function processStat(pid: number): ProcessStat | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at its closing ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', groupId: Number(fields[2]), startTime: fields[19] };
  } catch {
    return undefined;
  }
}

/** The kernel's start time for `pid` (Linux), or undefined. */
export function processStartTime(pid: number): string | undefined {
  return processStat(pid)?.startTime;
}
