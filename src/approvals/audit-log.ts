import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { compileActivityFilter } from '../base/activity-filter.js';
import { Emitter, type Event } from '../base/emitter.js';
import { ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonValue } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { type Clock, systemClock } from './approval-queue.js';
import { createRedactor, type Redactor } from './redaction.js';
import {
  type ActivityEntry,
  type ActivityPage,
  type ActivityQuery,
  AUDIT_DECISIONS,
  type AuditCallRef,
  type CallAccount,
} from './types.js';

/** What a caller appends; the log adds id and time. */
export type AuditRecord = Omit<ActivityEntry, 'id' | 'time'> & { time?: string };

/** Where audit records go. The gate needs only this. */
export interface AuditSink {
  append(record: AuditRecord): Promise<unknown>;
}

export interface AuditLogOptions {
  /** The data folder; the log is `<dir>/audit.jsonl`, rotated files `audit.1.jsonl` (newest) … */
  dir: string;
  /** Rotate before a line would take the file past this. @defaultValue 5 MiB */
  maxFileBytes?: number;
  /** Rotated files kept besides the current one (at least 1); older ones are deleted. @defaultValue 5 */
  keepFiles?: number;
  /**
   * Every line is written to the file (handed to the OS) before `append` resolves, so a crash of
   * this process never loses an acknowledged line. fsync only matters if the machine itself dies;
   * it runs at most once per this many milliseconds after a write, before a rotation and on
   * close. 0 fsyncs each line before `append` resolves (about 0.6 ms a call). @defaultValue 1000
   */
  syncIntervalMs?: number;
  /** Arguments whose JSON is longer than this are stored as a truncated preview. @defaultValue 16384 */
  maxArgumentChars?: number;
  /** Applied to arguments and messages before they are written. @defaultValue built-in secret shapes */
  redactor?: () => Redactor;
  clock?: Clock;
}

export const AUDIT_FILE_NAME = 'audit.jsonl';
const DEFAULTS = {
  maxFileBytes: 5 * 1024 * 1024,
  keepFiles: 5,
  maxArgumentChars: 16_384,
  syncIntervalMs: 1_000,
};
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;
const MAX_MESSAGE_CHARS = 1_000;
const DECISIONS: ReadonlySet<string> = new Set(AUDIT_DECISIONS);
const DECIDERS: ReadonlySet<string> = new Set(['policy', 'user', 'hook', 'system']);

/** An audit line of a tool_call entry. */
export type CallLine = ActivityEntry & { call: AuditCallRef };
/** One tool_call's audit lines, in input order. */
export type CallLines = CallLine[];

/** One stored line: the entry plus a sequence number that orders entries and anchors cursors. */
type StoredEntry = ActivityEntry & { seq: number };

/**
 * Append-only JSON Lines audit log. One writer (a promise chain) appends and rotates; each line
 * is written to the file before its append resolves, and fsynced on a timer (see
 * syncIntervalMs). Reading never fails on a torn or foreign line: it is skipped. Queries run newest
 * first across the current and rotated files.
 */
export class AuditLog implements AsyncDisposable, AuditSink {
  private readonly _onDidAppend = new Emitter<ActivityEntry>();
  readonly onDidAppend: Event<ActivityEntry> = this._onDidAppend.event;
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** A failed write may have left half a line; the next write ends it first. */
  private torn = false;
  /** Lines written since the last fsync. */
  private dirty = false;
  private syncTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: Required<Omit<AuditLogOptions, 'redactor' | 'clock'>> & {
      redactor: () => Redactor;
      clock: Clock;
    },
    private handle: FileHandle,
    private size: number,
    private seq: number,
  ) {}

  static async open(options: AuditLogOptions): Promise<AuditLog> {
    const resolved = {
      dir: options.dir,
      maxFileBytes: options.maxFileBytes ?? DEFAULTS.maxFileBytes,
      keepFiles: options.keepFiles ?? DEFAULTS.keepFiles,
      syncIntervalMs: options.syncIntervalMs ?? DEFAULTS.syncIntervalMs,
      maxArgumentChars: options.maxArgumentChars ?? DEFAULTS.maxArgumentChars,
      redactor: options.redactor ?? defaultRedactor(),
      clock: options.clock ?? systemClock,
    };
    if (
      !(resolved.maxFileBytes > 0) ||
      !Number.isInteger(resolved.keepFiles) ||
      resolved.keepFiles < 1 ||
      !(resolved.syncIntervalMs >= 0)
    ) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'The audit log needs maxFileBytes > 0, a whole keepFiles ≥ 1 and syncIntervalMs ≥ 0.',
      );
    }
    await mkdir(resolved.dir, { recursive: true, mode: 0o700 });
    const paths = filePaths(resolved.dir, resolved.keepFiles);
    let seq = 0;
    for (const path of paths) {
      const entries = await readEntries(path);
      if (entries.length > 0) {
        seq = Math.max(...entries.map((entry) => entry.seq));
        break;
      }
    }
    const handle = await open(paths[0]!, 'a+', 0o600);
    let size = (await handle.stat()).size;
    if (size > 0) {
      // A crash mid-append leaves a line without its newline; end it so the next entry stands alone.
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) {
        await handle.write('\n');
        size += 1;
      }
    }
    return new AuditLog(resolved, handle, size, seq);
  }

  get path(): string {
    return join(this.options.dir, AUDIT_FILE_NAME);
  }

  /** Writes one entry (redacted, arguments capped) and resolves once the file holds it. */
  append(record: AuditRecord): Promise<ActivityEntry> {
    if (this.closed) return Promise.reject(new ToolbridgeError('INTERNAL', 'The audit log is closed.'));
    const redactor = this.options.redactor();
    const entry: ActivityEntry = {
      id: randomUUID(),
      time: record.time ?? new Date(this.options.clock.now()).toISOString(),
      agentId: record.agentId,
      toolName: record.toolName,
      serverId: record.serverId,
      ...(record.account === undefined ? {} : { account: record.account }),
      arguments: capArguments(redactor.redactValue(record.arguments), this.options.maxArgumentChars),
      decision: record.decision,
      decidedBy: record.decidedBy,
      ...(record.policySource === undefined ? {} : { policySource: record.policySource }),
      durationMs: record.durationMs,
      resultBytes: record.resultBytes,
      isError: record.isError,
      ...(record.call === undefined ? {} : { call: { ...record.call } }),
    };
    if (record.message !== undefined)
      entry.message = redactor.redactText(record.message).slice(0, MAX_MESSAGE_CHARS);
    const write = this.tail.then(() => this.write(entry));
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Matching entries, newest first, one page at a time. */
  async query(query: ActivityQuery = {}): Promise<ActivityPage> {
    const filter = parseQuery(query);
    await this.tail;
    const entries: ActivityEntry[] = [];
    const seen = new Set<number>();
    let more = false;
    let lastSeq = 0;
    outer: for (const path of filePaths(this.options.dir, this.options.keepFiles)) {
      const stored = await readEntries(path);
      for (let i = stored.length - 1; i >= 0; i--) {
        const entry = stored[i]!;
        // A rotation between two reads can show a file twice; the sequence number tells.
        if (seen.has(entry.seq) || (filter.beforeSeq !== undefined && entry.seq >= filter.beforeSeq))
          continue;
        seen.add(entry.seq);
        if (!filter.matches(entry)) continue;
        if (entries.length === filter.limit) {
          more = true;
          break outer;
        }
        entries.push(publicEntry(entry));
        lastSeq = entry.seq;
      }
    }
    return more ? { entries, nextCursor: encodeCursor(lastSeq) } : { entries };
  }

  /**
   * The lines of the last `maxCalls` tool_calls the person was shown (`call.shown` on any of their
   * lines), the newest call first and each call's lines in input order: what Cards → Recent
   * restores on start. Reads the files newest first and stops at the one that completes the count.
   */
  async shownCalls(maxCalls: number): Promise<CallLines[]> {
    await this.tail;
    const calls = new Map<string, CallLine[]>();
    const shown = new Set<string>();
    const seen = new Set<number>();
    for (const path of filePaths(this.options.dir, this.options.keepFiles)) {
      const stored = await readEntries(path);
      for (let i = stored.length - 1; i >= 0; i--) {
        const entry = stored[i]!;
        if (seen.has(entry.seq) || !isAuditCallRef(entry.call)) continue;
        seen.add(entry.seq);
        const line = { ...publicEntry(entry), call: entry.call };
        const lines = calls.get(line.call.id);
        if (lines === undefined) calls.set(line.call.id, [line]);
        else lines.push(line);
        if (line.call.shown === true) shown.add(line.call.id);
      }
      if (shown.size >= maxCalls) break;
    }
    return [...calls.values()]
      .filter((lines) => shown.has(lines[0]!.call.id))
      .slice(0, maxCalls)
      .map((lines) => lines.sort((a, b) => a.call.index - b.call.index));
  }

  /** Every matching entry, oldest first, as JSON Lines or CSV (RFC 4180, formula-safe). */
  async export(format: 'jsonl' | 'csv', query: ActivityQuery = {}): Promise<string> {
    const filter = parseQuery({ ...query, cursor: undefined, limit: undefined });
    await this.tail;
    const bySeq = new Map<number, ActivityEntry>();
    for (const path of filePaths(this.options.dir, this.options.keepFiles).reverse()) {
      for (const entry of await readEntries(path))
        if (filter.matches(entry)) bySeq.set(entry.seq, publicEntry(entry));
    }
    const entries = [...bySeq.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
    if (format === 'jsonl') return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    if (format === 'csv') return toCsv(entries);
    throw new ToolbridgeError('INVALID_ARGUMENT', 'Export format must be "jsonl" or "csv".');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.tail;
    await this.sync();
    await this.handle.close();
    this._onDidAppend.dispose();
  }

  private async write(entry: ActivityEntry): Promise<ActivityEntry> {
    this.seq += 1;
    const line = `${JSON.stringify({ seq: this.seq, ...entry })}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.options.maxFileBytes) await this.rotate();
    try {
      if (this.torn) {
        await this.handle.write('\n');
        this.size += 1;
        this.torn = false;
      }
      await this.handle.write(line);
    } catch (error) {
      this.torn = true;
      throw error;
    }
    this.size += bytes;
    this.dirty = true;
    if (this.options.syncIntervalMs === 0) await this.sync();
    else this.scheduleSync();
    this._onDidAppend.fire(entry);
    return entry;
  }

  /** fsyncs what was written since the last time; a failure is retried by the next sync. */
  private async sync(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      await this.handle.datasync();
    } catch {
      this.dirty = true;
    }
  }

  /** One pending fsync at a time, queued behind the writes so it never races a rotation. */
  private scheduleSync(): void {
    if (this.syncTimer !== undefined || this.closed) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      this.tail = this.tail.then(() => this.sync());
    }, this.options.syncIntervalMs);
    // A pending fsync must not keep the process alive; close() syncs anyway.
    this.syncTimer.unref();
  }

  /** audit.jsonl → audit.1.jsonl, audit.1 → audit.2, …; the oldest beyond keepFiles is deleted. */
  private async rotate(): Promise<void> {
    await this.sync();
    await this.handle.close();
    const paths = filePaths(this.options.dir, this.options.keepFiles);
    try {
      await unlinkIfPresent(paths.at(-1)!);
      for (let i = paths.length - 2; i >= 0; i--) await renameIfPresent(paths[i]!, paths[i + 1]!);
      await syncDirectory(this.options.dir);
    } finally {
      // Whatever failed, keep a file open so the log goes on (in the old file if it was not moved).
      this.handle = await open(paths[0]!, 'a+', 0o600);
      this.size = (await this.handle.stat()).size;
    }
  }
}

function defaultRedactor(): () => Redactor {
  const redactor = createRedactor();
  return () => redactor;
}

/** Current file first, then rotated ones, newest to oldest. */
function filePaths(dir: string, keepFiles: number): string[] {
  const paths = [join(dir, AUDIT_FILE_NAME)];
  for (let i = 1; i <= keepFiles; i++) paths.push(join(dir, `audit.${i}.jsonl`));
  return paths;
}

async function readEntries(path: string): Promise<StoredEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: StoredEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a torn line from a crash mid-write
    }
    if (isStoredEntry(value)) entries.push(value);
  }
  return entries;
}

function isStoredEntry(value: unknown): value is StoredEntry {
  if (!isPlainObject(value)) return false;
  return (
    Number.isSafeInteger(value.seq) &&
    typeof value.id === 'string' &&
    typeof value.time === 'string' &&
    typeof value.agentId === 'string' &&
    typeof value.toolName === 'string' &&
    typeof value.serverId === 'string' &&
    typeof value.decision === 'string' &&
    DECISIONS.has(value.decision) &&
    typeof value.decidedBy === 'string' &&
    DECIDERS.has(value.decidedBy) &&
    typeof value.durationMs === 'number' &&
    typeof value.resultBytes === 'number' &&
    typeof value.isError === 'boolean' &&
    (value.account === undefined || isCallAccount(value.account))
  );
}

function isAuditCallRef(value: unknown): value is AuditCallRef {
  return (
    isPlainObject(value) &&
    typeof value.id === 'string' &&
    Number.isSafeInteger(value.index) &&
    (value.shown === undefined || value.shown === true)
  );
}

/** `account` is optional (older lines have none); when present it must have its shape. */
function isCallAccount(value: unknown): value is CallAccount {
  if (!isPlainObject(value)) return false;
  const { alias } = value;
  if (alias !== undefined && typeof alias !== 'string') return false;
  return value.default === true ? true : value.default === undefined && alias !== undefined;
}

function publicEntry(stored: StoredEntry): ActivityEntry {
  const { seq: _seq, ...entry } = stored;
  return entry;
}

function capArguments(args: JsonValue, maxChars: number): JsonValue {
  const text = JSON.stringify(args);
  if (text.length <= maxChars) return args;
  return { $truncated: true, chars: text.length, preview: text.slice(0, maxChars) };
}

interface ParsedQuery {
  limit: number;
  beforeSeq?: number;
  matches(entry: ActivityEntry): boolean;
}

function parseQuery(query: ActivityQuery): ParsedQuery {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new ToolbridgeError('INVALID_ARGUMENT', `An activity page holds 1 to ${MAX_PAGE_SIZE} entries.`);
  }
  const filter = compileActivityFilter(query);
  if (!filter.ok) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `"${filter.field}" must be an ISO date and time, like 2026-09-01T10:00:00Z.`,
    );
  }
  const parsed: ParsedQuery = { limit, matches: filter.matches };
  if (query.cursor !== undefined) parsed.beforeSeq = decodeCursor(query.cursor);
  return parsed;
}

function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ v: 1, before: seq })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isPlainObject(value) && value.v === 1 && Number.isSafeInteger(value.before))
      return value.before as number;
  } catch {
    // fall through to the error below
  }
  throw new ToolbridgeError(
    'INVALID_ARGUMENT',
    'That activity cursor is not valid; start again from the first page.',
  );
}

const CSV_COLUMNS = [
  'id',
  'time',
  'agentId',
  'serverId',
  'toolName',
  'decision',
  'decidedBy',
  'durationMs',
  'resultBytes',
  'isError',
  'message',
  'arguments',
  // Last, so the columns before it keep their places for readers of older exports.
  'account',
] as const;

function toCsv(entries: readonly ActivityEntry[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const entry of entries) {
    rows.push(
      CSV_COLUMNS.map((column) => {
        const value =
          column === 'arguments'
            ? JSON.stringify(entry.arguments)
            : column === 'account'
              ? accountCell(entry.account)
              : entry[column];
        return csvCell(value === undefined ? '' : String(value));
      }).join(','),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** `work`, `default` (alias unknown) or `github-account (default)`; empty for a local tool. */
function accountCell(account: CallAccount | undefined): string | undefined {
  if (account === undefined) return undefined;
  if (!('alias' in account)) return 'default';
  return account.default ? `${account.alias} (default)` : account.alias;
}

/**
 * One RFC 4180 cell. A cell a spreadsheet would read as a formula (= + - @, tab, CR first) gets a
 * leading apostrophe: tool names and arguments come from servers and agents.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Makes the renames durable; not every platform can open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}
