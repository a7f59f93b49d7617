/**
 * Leases for the stdio servers we start: each child's pid (its process group id) and start time,
 * kept on disk while it runs. If the host dies without closing them (kill -9, a crash), the next
 * start reaps the leftover groups, and never a process that merely reuses an old pid.
 *
 * Linux tells a reused pid apart by its start time (/proc/<pid>/stat). A group whose leader is gone
 * is always ours: the kernel does not hand out a pid while a group still uses it as its id.
 * Elsewhere a still-running leader cannot be told apart, so it is left alone.
 */
import { readFileSync } from 'node:fs';
import { groupAlive, PROCESS_GROUPS, processAlive, signalGroup, waitGroupGone } from './process-group.js';

/** The lease file's name in the data folder. */
export const LEASES_FILE_NAME = 'server-leases.json';

export interface ProcessLease {
  pid: number;
  /** Kernel start time of the process (Linux clock ticks since boot); absent where unknown. */
  startTime?: string;
  serverId: string;
}

/** Where leases persist between runs (the store offers a JSON file). */
export interface LeaseFile {
  read(): Promise<unknown>;
  write(value: ProcessLease[]): Promise<void>;
}

/** The kernel's start time for `pid` (Linux), or undefined. */
export function processStartTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

/** State letter and start time from /proc/<pid>/stat (Linux only). */
function procStat(pid: number): { state: string; startTime: string | undefined } | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at its closing ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', startTime: fields[19] };
  } catch {
    return undefined;
  }
}

export class ProcessLeases {
  private leases: ProcessLease[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: LeaseFile) {}

  /** Records a child we just started. */
  add(serverId: string, pid: number): Promise<void> {
    const startTime = processStartTime(pid);
    return this.change((leases) => [
      ...leases.filter((lease) => lease.pid !== pid),
      { pid, serverId, ...(startTime ? { startTime } : {}) },
    ]);
  }

  /** Forgets a child once it and its group are gone. */
  remove(pid: number): Promise<void> {
    return this.change((leases) => leases.filter((lease) => lease.pid !== pid));
  }

  /**
   * Stops the process groups a previous run left behind (SIGTERM, then SIGKILL after `graceMs`)
   * and clears the file. Returns the pids it stopped. Call before starting any server.
   */
  async reapLeftovers(graceMs = 2_000): Promise<number[]> {
    const leases = parseLeases(await this.file.read().catch(() => undefined));
    const ours = leases.filter(isStillOurs).map((lease) => lease.pid);
    for (const pid of ours) signalGroup(pid, 'SIGTERM');
    await Promise.all(ours.map((pid) => waitGroupGone(pid, graceMs)));
    for (const pid of ours.filter(groupAlive)) signalGroup(pid, 'SIGKILL');
    this.leases = [];
    await this.file.write([]);
    return ours;
  }

  private change(edit: (leases: ProcessLease[]) => ProcessLease[]): Promise<void> {
    const run = async (): Promise<void> => {
      this.leases ??= parseLeases(await this.file.read().catch(() => undefined));
      this.leases = edit(this.leases);
      await this.file.write(this.leases);
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

function isStillOurs(lease: ProcessLease): boolean {
  if (!PROCESS_GROUPS) return false;
  const stat = procStat(lease.pid);
  // A zombie leader has exited; only its parent has not collected it yet.
  const leaderGone = !processAlive(lease.pid) || stat?.state === 'Z';
  if (leaderGone) return groupAlive(lease.pid);
  return stat?.startTime !== undefined && stat.startTime === lease.startTime;
}

function parseLeases(value: unknown): ProcessLease[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is ProcessLease =>
      typeof item === 'object' &&
      item !== null &&
      Number.isInteger((item as ProcessLease).pid) &&
      (item as ProcessLease).pid > 1 &&
      typeof (item as ProcessLease).serverId === 'string',
  );
}
