/**
 * Leases for the stdio servers we start: each child's pid (its process group id), start time and
 * lease token (in its environment, inherited by its descendants), kept on disk while it runs. If
 * the host dies without closing them (kill -9, a crash), the next start reaps the leftovers, and
 * never a process that merely reuses an old pid.
 *
 * A leader counts as ours when its start time (/proc/<pid>/stat) or its lease token matches. A
 * group whose leader is gone is always ours: the kernel does not hand out a pid while a group still
 * uses it as its id. Processes that carry a lease's token are ours wherever they are (see
 * process-reaper.ts). Elsewhere than Linux a still-running leader cannot be told apart, so it is
 * left alone.
 */
import { processExists, processStat } from '../platform/process-alive.js';
import { groupAlive, PROCESS_GROUPS } from './process-group.js';
import { running, type StopOutcome, stopProcesses } from './process-reaper.js';

/** The lease file's name in the data folder. */
export const LEASES_FILE_NAME = 'server-leases.json';

export interface ProcessLease {
  pid: number;
  /** Kernel start time of the process (Linux clock ticks since boot); absent where unknown. */
  startTime?: string;
  /** The child's `TOOLBRIDGE_LEASE` value; absent in leases written by older versions. */
  token?: string;
  serverId: string;
}

/** Where leases persist between runs (the store offers a JSON file). */
export interface LeaseFile {
  read(): Promise<unknown>;
  write(value: ProcessLease[]): Promise<void>;
}

/** What reaping a lease file found and did. */
export interface ReapReport extends StopOutcome {
  /** The leases whose processes were still running, by server. */
  servers: string[];
}

export class ProcessLeases {
  private leases: ProcessLease[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: LeaseFile) {}

  /** Records a child we just started with `token` in its environment. */
  add(serverId: string, pid: number, token?: string): Promise<void> {
    const startTime = processStat(pid)?.startTime;
    return this.change((leases) => [
      ...leases.filter((lease) => lease.pid !== pid),
      { pid, serverId, ...(startTime ? { startTime } : {}), ...(token ? { token } : {}) },
    ]);
  }

  /** The lease tokens of the children running now (a lease goes once its processes are gone). */
  tokens(): string[] {
    return (this.leases ?? []).flatMap((lease) => (lease.token === undefined ? [] : [lease.token]));
  }

  /** Forgets a child once it and its group are gone. */
  remove(pid: number): Promise<void> {
    return this.change((leases) => leases.filter((lease) => lease.pid !== pid));
  }

  /**
   * Stops what a previous run left behind (SIGTERM to all at once, SIGKILL after `graceMs`) and
   * clears the file. Call before starting any server.
   */
  async reapLeftovers(graceMs = 2_000): Promise<ReapReport> {
    const leases = parseLeases(await this.file.read().catch(() => undefined));
    const groups = leases.filter(leaderIsOurs).map((lease) => lease.pid);
    const tokens = leases.flatMap((lease) => (lease.token === undefined ? [] : [lease.token]));
    const servers = leases
      .filter(
        (lease) =>
          groups.includes(lease.pid) ||
          (lease.token !== undefined && running({ groups: [], tokens: [lease.token] }).length > 0),
      )
      .map((lease) => lease.serverId);
    const outcome = await stopProcesses({ groups, tokens }, graceMs);
    this.leases = [];
    await this.file.write([]);
    return { ...outcome, servers };
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

/** Whether the lease's pid still names the group we started, not a later process with that pid. */
function leaderIsOurs(lease: ProcessLease): boolean {
  if (!PROCESS_GROUPS) return false;
  const stat = processStat(lease.pid);
  // A zombie leader has exited; only its parent has not collected it yet.
  const leaderGone = !processExists(lease.pid) || stat?.state === 'Z';
  if (leaderGone) return groupAlive(lease.pid);
  if (stat?.startTime !== undefined && stat.startTime === lease.startTime) return true;
  return lease.token !== undefined && running({ groups: [], tokens: [lease.token] }).includes(lease.pid);
}

function parseLeases(value: unknown): ProcessLease[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is ProcessLease =>
      typeof item === 'object' &&
      item !== null &&
      Number.isInteger((item as ProcessLease).pid) &&
      (item as ProcessLease).pid > 1 &&
      typeof (item as ProcessLease).serverId === 'string' &&
      ((item as ProcessLease).token === undefined || typeof (item as ProcessLease).token === 'string'),
  );
}

/** What to tell the person about a reap, one line each (none when nothing was left behind). */
export function reapReportLines(report: ReapReport): string[] {
  if (report.stopped.length === 0) return [];
  const servers = [...new Set(report.servers)].join(', ');
  const lines = [
    `stopped ${report.stopped.length} process(es) of server(s) ${servers} that a previous run left behind (pids ${report.stopped.join(', ')}).`,
  ];
  if (report.survivors.length > 0) {
    lines.push(
      `could not stop process(es) ${report.survivors.join(', ')} left behind by a previous run (not ours to signal, or stuck); stop them by hand if they hold files or ports.`,
    );
  }
  return lines;
}
