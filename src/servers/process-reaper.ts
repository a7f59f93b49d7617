/**
 * Finds and stops everything a stdio server started, including what left its process group.
 *
 * Each server is spawned with a random lease token in its environment (`TOOLBRIDGE_LEASE`).
 * Children inherit their parent's environment, so the token marks the server's descendants too,
 * also one that called setsid() to leave the group. On Linux, /proc/<pid>/environ of a process of
 * our own user holds the environment it was started with, so a scan of /proc finds them all, and a
 * pid that was reused by an unrelated process does not carry the token.
 *
 * Limits (documented in the README): a descendant that drops or replaces its environment when it
 * starts a program (`env -i`, execve with a fresh list) no longer carries the token and escapes if
 * it also left the group; another user's processes are never touched; on other systems only the
 * process group is reached.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { processStat } from '../platform/process-alive.js';
import { groupAlive, signalGroup } from './process-group.js';

/** The environment variable that carries a server's lease token to it and its descendants. */
export const LEASE_TOKEN_ENV = 'TOOLBRIDGE_LEASE';

/** How long to wait for processes to vanish after SIGKILL before calling them survivors. */
const KILL_SETTLE_MS = 1_000;
const POLL_MS = 40;
const MARK = Buffer.from(`${LEASE_TOKEN_ENV}=`);
const SCANS_PROC = process.platform === 'linux';

export function newLeaseToken(): string {
  return randomBytes(16).toString('hex');
}

/** What to stop: whole process groups, and every process of ours that carries one of the tokens. */
export interface StopTargets {
  groups: readonly number[];
  tokens: readonly string[];
}

export interface StopOutcome {
  /** Pids that were running when the stop began (on Linux; elsewhere the live group ids). */
  stopped: number[];
  /** Pids still running after SIGKILL: not ours to signal (EPERM) or stuck in the kernel. */
  survivors: number[];
}

/**
 * Stops `targets` within one grace period: SIGTERM to all of them at once, one wait of up to
 * `graceMs` for all to exit, then SIGKILL to whatever is left. What is left is found by a fresh
 * look, so a process started meanwhile is caught and a pid that exited during the wait and was
 * reused by another program is not hit. The wait itself polls only the pids first seen (cheap),
 * never the whole of /proc.
 */
export async function stopProcesses(targets: StopTargets, graceMs: number): Promise<StopOutcome> {
  const first = scan(targets);
  if (first.length === 0) return { stopped: [], survivors: [] };
  signalAll(targets, first, 'SIGTERM');
  await waitGone(first, graceMs);
  const left = scan(targets);
  if (left.length > 0) {
    signalAll(targets, left, 'SIGKILL');
    await waitGone(left, KILL_SETTLE_MS);
  }
  return { stopped: first.map(({ pid }) => pid), survivors: left.filter(stillRunning).map(({ pid }) => pid) };
}

/** SIGKILL to `targets` at once, without waiting: for a second Ctrl-C. */
export function killNow(targets: StopTargets): void {
  signalAll(targets, scan(targets), 'SIGKILL');
}

/** Live processes in `targets` (zombies excluded: they have exited), by pid. */
export function running(targets: StopTargets): number[] {
  return scan(targets).map(({ pid }) => pid);
}

/** A process as first seen; the start time tells it apart from a later one with its pid. */
interface Seen {
  pid: number;
  groupId: number;
  startTime?: string | undefined;
}

/**
 * One pass over /proc on Linux; elsewhere the groups that still have a member (as pseudo-pids).
 */
function scan(targets: StopTargets): Seen[] {
  if (!SCANS_PROC) return targets.groups.filter(groupAlive).map((pid) => ({ pid, groupId: pid }));
  const groups = new Set(targets.groups);
  const tokens = new Set(targets.tokens);
  if (groups.size === 0 && tokens.size === 0) return [];
  const uid = process.getuid?.();
  const found: Seen[] = [];
  for (const pid of procPids()) {
    const stat = processStat(pid);
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X') continue;
    if (groups.has(stat.groupId) || (tokens.size > 0 && tokens.has(leaseTokenOf(pid, uid) ?? ''))) {
      found.push({ pid, groupId: stat.groupId, startTime: stat.startTime });
    }
  }
  return found;
}

function stillRunning(seen: Seen): boolean {
  if (!SCANS_PROC) return groupAlive(seen.pid);
  const stat = processStat(seen.pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === seen.startTime;
}

/**
 * Signals the target groups that still had a live member when `seen` was taken (never an emptied
 * group id, which a new group could have taken since), and each seen process outside them.
 */
function signalAll(targets: StopTargets, seen: readonly Seen[], signal: NodeJS.Signals): void {
  const groups = new Set(targets.groups.filter((group) => seen.some((item) => item.groupId === group)));
  for (const group of groups) signalGroup(group, signal);
  if (!SCANS_PROC) return;
  // The rest left their server's group but carry its token.
  for (const { pid, groupId } of seen) {
    if (groups.has(groupId)) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // exited meanwhile
    }
  }
}

/** Polls the processes first seen until all exited, or `ms` passed. */
async function waitGone(seen: readonly Seen[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (seen.some(stillRunning) && Date.now() < deadline) await pause(POLL_MS);
}

/**
 * Waits for `event` at most `ms`; true when it came first. Unlike an unref'd timer this keeps the
 * process alive: stopping servers must finish even when nothing else is left on the event loop
 * (start-up, shutdown), or Node would exit half-way and leave them running.
 */
export async function within(event: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([event.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function procPids(): number[] {
  try {
    return readdirSync('/proc')
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 1 && pid !== process.pid);
  } catch {
    return [];
  }
}

/** The lease token in `pid`'s start-up environment, for processes of user `uid` only. */
function leaseTokenOf(pid: number, uid: number | undefined): string | undefined {
  try {
    if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) return undefined;
    const environ = readFileSync(`/proc/${pid}/environ`);
    let at = environ.indexOf(MARK);
    // Only at the start of an entry: `OTHER_TOOLBRIDGE_LEASE=` is not ours.
    while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(MARK, at + 1);
    if (at < 0) return undefined;
    const start = at + MARK.length;
    const end = environ.indexOf(0, start);
    return environ.toString('utf8', start, end < 0 ? environ.length : end);
  } catch {
    return undefined;
  }
}
