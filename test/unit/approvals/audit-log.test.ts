import { appendFile, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, CallAccount } from '../../../src/api/ui-api.js';
import {
  AuditLog,
  type AuditLogOptions,
  type AuditRecord,
  csvCell,
} from '../../../src/approvals/audit-log.js';
import { createRedactor, REDACTED } from '../../../src/approvals/redaction.js';

let dir: string;
let logs: AuditLog[];
let now: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolbridge-audit-'));
  logs = [];
  now = Date.parse('2026-09-01T10:00:00Z');
});

afterEach(async () => {
  for (const log of logs) await log.close();
  await rm(dir, { recursive: true, force: true });
});

async function openLog(options: Partial<AuditLogOptions> = {}): Promise<AuditLog> {
  const log = await AuditLog.open({
    dir,
    clock: { now: () => (now += 1000) },
    ...options,
  });
  logs.push(log);
  return log;
}

function record(overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    agentId: 'agent-a',
    toolName: 'mcp__files__read_file',
    serverId: 'files',
    arguments: { path: '/tmp/a' },
    decision: 'allow',
    decidedBy: 'policy',
    durationMs: 12,
    resultBytes: 34,
    isError: false,
    ...overrides,
  };
}

async function lines(name = 'audit.jsonl'): Promise<string[]> {
  return (await readFile(join(dir, name), 'utf8')).split('\n').filter((line) => line !== '');
}

describe('AuditLog.append', () => {
  it('appends one JSON line per entry with every field, private to the user, and announces it', async () => {
    const log = await openLog();
    const announced: ActivityEntry[] = [];
    log.onDidAppend((entry) => announced.push(entry));
    const entry = await log.append(record({ message: 'ok' }));
    expect(entry).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      time: '2026-09-01T10:00:01.000Z',
      agentId: 'agent-a',
      toolName: 'mcp__files__read_file',
      serverId: 'files',
      arguments: { path: '/tmp/a' },
      decision: 'allow',
      decidedBy: 'policy',
      durationMs: 12,
      resultBytes: 34,
      isError: false,
      message: 'ok',
    });
    expect(announced).toEqual([entry]);
    expect((await lines()).map((line) => JSON.parse(line))).toEqual([{ seq: 1, ...entry }]);
    expect((await stat(log.path)).mode & 0o777).toBe(0o600);
  });

  it('stores redacted arguments and messages, with the built-in shapes and the settings patterns', async () => {
    const token = `ghp_${'Xy7'.repeat(12)}`;
    const log = await openLog({ redactor: () => createRedactor(['ACME-\\d{4}']) });
    await log.append(
      record({
        arguments: { headers: { authorization: 'abc' }, body: `token ${token} for ACME-1234` },
        message: `failed with ${token}`,
      }),
    );
    const raw = await readFile(log.path, 'utf8');
    expect(raw).not.toContain(token);
    expect(raw).not.toContain('ACME-1234');
    expect(raw).not.toContain('"abc"');
    const [stored] = (await log.query()).entries;
    expect(stored?.arguments).toEqual({
      headers: { authorization: REDACTED },
      body: `token ${REDACTED} for ${REDACTED}`,
    });
    expect(stored?.message).toBe(`failed with ${REDACTED}`);
  });

  it('keeps concurrent appends whole and ordered', async () => {
    const log = await openLog();
    await Promise.all(Array.from({ length: 40 }, (_, n) => log.append(record({ arguments: { n } }))));
    const parsed = (await lines()).map(
      (line) => JSON.parse(line) as { seq: number; arguments: { n: number } },
    );
    expect(parsed.map((entry) => entry.seq)).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
    expect(parsed.map((entry) => entry.arguments.n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('stores huge arguments as a truncated preview', async () => {
    const log = await openLog({ maxArgumentChars: 100 });
    const entry = await log.append(record({ arguments: { content: 'x'.repeat(10_000) } }));
    expect(entry.arguments).toEqual({ $truncated: true, chars: 10_014, preview: expect.any(String) });
    expect((entry.arguments as { preview: string }).preview).toHaveLength(100);
  });
});

/** A connector call's line, with the account it ran under. */
function connectorRecord(account: CallAccount): AuditRecord {
  return record({ toolName: 'connectors__github__GET_ME', serverId: 'github', account });
}

describe('AuditLog: the connector account', () => {
  it('stores the account on the line and reads it back, local lines without one', async () => {
    const log = await openLog();
    const named = await log.append(connectorRecord({ alias: 'work' }));
    expect(named.account).toEqual({ alias: 'work' });
    await log.append(connectorRecord({ default: true }));
    await log.append(record());
    expect((await lines()).map((line) => JSON.parse(line).account)).toEqual([
      { alias: 'work' },
      { default: true },
      undefined,
    ]);
    expect((await log.query()).entries.map((entry) => entry.account)).toEqual([
      undefined,
      { default: true },
      { alias: 'work' },
    ]);
  });

  it('reads lines written before the field existed, and skips a line whose account is malformed', async () => {
    const line = (seq: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ seq, id: `id${seq}`, time: '2026-09-01T09:00:00Z', ...record(), ...extra });
    await writeFile(
      join(dir, 'audit.jsonl'),
      [
        line(1),
        line(2, { account: 'work' }),
        line(3, { account: { alias: 7 } }),
        line(4, { account: { alias: 'work', default: false } }),
        line(5, { account: {} }),
        line(6, { account: { alias: 'home', default: true } }),
        '',
      ].join('\n'),
    );
    const log = await openLog();
    expect((await log.query()).entries.map((entry) => [entry.id, entry.account])).toEqual([
      ['id6', { alias: 'home', default: true }],
      ['id1', undefined],
    ]);
  });
});

describe('AuditLog durability', () => {
  /** Counts fsyncs on every FileHandle (the prototype is shared and not exported by Node). */
  async function countSyncs(): Promise<{ count: () => number }> {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const spy = vi.spyOn(proto, 'datasync');
    return { count: () => spy.mock.calls.length };
  }

  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('has each line in the file when append resolves, and batches fsync on a timer and at close', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const syncs = await countSyncs();
    const log = await openLog({ syncIntervalMs: 500 });
    for (let n = 0; n < 20; n++) {
      const entry = await log.append(record({ arguments: { n } }));
      expect((await lines()).at(-1)).toContain(entry.id);
    }
    expect(syncs.count()).toBe(0);
    vi.advanceTimersByTime(500);
    await log.query();
    expect(syncs.count()).toBe(1);
    await log.append(record());
    await log.close();
    expect(syncs.count()).toBe(2);
    await log.close();
    expect(syncs.count()).toBe(2);
  });

  it('fsyncs every line before append resolves with syncIntervalMs 0', async () => {
    const syncs = await countSyncs();
    const log = await openLog({ syncIntervalMs: 0 });
    for (let n = 1; n <= 5; n++) {
      await log.append(record({ arguments: { n } }));
      expect(syncs.count()).toBe(n);
    }
  });

  it('refuses a negative sync interval', async () => {
    await expect(AuditLog.open({ dir, syncIntervalMs: -1 })).rejects.toThrow(/syncIntervalMs/);
  });
});

describe('AuditLog reading damaged files', () => {
  it('skips a torn last line and keeps appending on a fresh line', async () => {
    const first = await openLog();
    await first.append(record({ arguments: { n: 1 } }));
    await first.append(record({ arguments: { n: 2 } }));
    await first.close();
    await appendFile(join(dir, 'audit.jsonl'), '{"seq":3,"id":"x","time":"2026-09-01T10:');

    const reopened = await openLog();
    expect((await reopened.query()).entries.map((e) => e.arguments)).toEqual([{ n: 2 }, { n: 1 }]);
    await reopened.append(record({ arguments: { n: 3 } }));
    expect((await reopened.query()).entries.map((e) => e.arguments)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    const raw = await lines();
    expect(raw).toHaveLength(4);
    expect(JSON.parse(raw[3]!)).toMatchObject({ seq: 3, arguments: { n: 3 } });
  });

  it('skips garbage and foreign lines anywhere in the file', async () => {
    const good = (seq: number) =>
      JSON.stringify({
        seq,
        id: `id${seq}`,
        time: '2026-09-01T09:00:00Z',
        ...record({ arguments: { seq } }),
      });
    await writeFile(
      join(dir, 'audit.jsonl'),
      [good(1), 'not json', '{"seq":"two"}', '[]', good(2), '\u0000\u0000', ''].join('\n'),
    );
    const log = await openLog();
    expect((await log.query()).entries.map((e) => e.id)).toEqual(['id2', 'id1']);
    await log.append(record());
    expect(JSON.parse((await lines()).at(-1)!)).toMatchObject({ seq: 3 });
  });
});

describe('AuditLog rotation', () => {
  it('rotates at the size limit, keeps N old files, and queries across them newest first', async () => {
    const log = await openLog({ maxFileBytes: 1200, keepFiles: 2 });
    for (let n = 0; n < 30; n++) await log.append(record({ arguments: { n } }));
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['audit.1.jsonl', 'audit.2.jsonl', 'audit.jsonl']);
    for (const file of files) expect((await stat(join(dir, file))).size).toBeLessThanOrEqual(1200);

    const kept = [
      ...(await lines('audit.2.jsonl')),
      ...(await lines('audit.1.jsonl')),
      ...(await lines()),
    ].map((line) => (JSON.parse(line) as { arguments: { n: number } }).arguments.n);
    // Contiguous, ending with the newest; the oldest were dropped with the file beyond keepFiles.
    expect(kept.at(-1)).toBe(29);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 30 - kept.length + i));
    expect(kept.length).toBeLessThan(30);

    const page = await log.query({ limit: 500 });
    expect(page.entries.map((entry) => (entry.arguments as { n: number }).n)).toEqual([...kept].reverse());
  });

  it('continues the sequence after a restart, also when the current file is empty', async () => {
    const first = await openLog({ maxFileBytes: 300, keepFiles: 3 });
    for (let n = 0; n < 3; n++) await first.append(record({ arguments: { n } }));
    await first.close();
    await writeFile(join(dir, 'audit.jsonl'), '');
    const second = await openLog({ maxFileBytes: 300, keepFiles: 3 });
    await second.append(record({ arguments: { n: 3 } }));
    const newest = (await second.query({ limit: 1 })).entries[0];
    expect(newest?.arguments).toEqual({ n: 3 });
    expect(JSON.parse((await lines())[0]!).seq).toBeGreaterThan(
      JSON.parse((await lines('audit.1.jsonl'))[0]!).seq,
    );
  });
});

describe('AuditLog.query', () => {
  async function seeded(): Promise<AuditLog> {
    const log = await openLog({ maxFileBytes: 2000, keepFiles: 10 });
    for (let n = 0; n < 24; n++) {
      await log.append(
        record({
          arguments: { n },
          agentId: n % 2 === 0 ? 'agent-a' : 'agent-b',
          serverId: n % 3 === 0 ? 'github' : 'files',
          toolName: n % 3 === 0 ? 'mcp__github__create_issue' : 'mcp__files__read_file',
          decision: n % 4 === 0 ? 'deny' : 'allow',
        }),
      );
    }
    return log;
  }
  const ns = (entries: ActivityEntry[]) => entries.map((entry) => (entry.arguments as { n: number }).n);

  it('pages newest first with an opaque cursor, across rotated files, without gaps or repeats', async () => {
    const log = await seeded();
    expect((await readdir(dir)).length).toBeGreaterThan(2);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await log.query({ limit: 5, cursor });
      seen.push(...ns(page.entries));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => 23 - i));
  });

  it('a cursor keeps its place while new entries arrive', async () => {
    const log = await seeded();
    const first = await log.query({ limit: 3 });
    await log.append(record({ arguments: { n: 99 } }));
    const second = await log.query({ limit: 3, cursor: first.nextCursor });
    expect(ns(first.entries)).toEqual([23, 22, 21]);
    expect(ns(second.entries)).toEqual([20, 19, 18]);
  });

  it('filters by tool, server, agent, decision and time range', async () => {
    const log = await seeded();
    const all = async (query: object) => ns((await log.query({ limit: 500, ...query })).entries);
    expect(await all({ toolName: 'mcp__github__create_issue' })).toEqual([21, 18, 15, 12, 9, 6, 3, 0]);
    expect(await all({ serverId: 'github', agentId: 'agent-b' })).toEqual([21, 15, 9, 3]);
    expect(await all({ decision: 'deny' })).toEqual([20, 16, 12, 8, 4, 0]);
    // Entry n was written at 10:00:(n+1).
    expect(await all({ since: '2026-09-01T10:00:05Z', until: '2026-09-01T10:00:08Z' })).toEqual([7, 6, 5, 4]);
    const filtered = await log.query({ decision: 'deny', limit: 4 });
    expect(ns(filtered.entries)).toEqual([20, 16, 12, 8]);
    expect(
      ns((await log.query({ decision: 'deny', limit: 4, cursor: filtered.nextCursor })).entries),
    ).toEqual([4, 0]);
  });

  it('issue #16: finds free text in any case across tool, server, agent and arguments, every word', async () => {
    const log = await seeded();
    const all = async (query: object) => ns((await log.query({ limit: 500, ...query })).entries);
    expect(await all({ text: 'CREATE_ISSUE' })).toEqual(await all({ toolName: 'mcp__github__create_issue' }));
    expect(await all({ text: 'github agent-b' })).toEqual([21, 15, 9, 3]);
    expect(await all({ text: '"n":17' })).toEqual([17]);
    expect(await all({ text: '   ' })).toHaveLength(24);
    expect(await all({ text: 'no-such-word' })).toEqual([]);
  });

  it('refuses a bad cursor, limit or time with INVALID_ARGUMENT', async () => {
    const log = await seeded();
    for (const query of [
      { cursor: 'nonsense' },
      { limit: 0 },
      { limit: 501 },
      { limit: 1.5 },
      { since: 'yesterday' },
      { until: 'soon' },
    ]) {
      await expect(log.query(query)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('AuditLog.shownCalls', () => {
  const entry = (id: string, index: number, shown = false): Partial<AuditRecord> => ({
    call: shown ? { id, index, shown: true } : { id, index },
  });

  it('issue #16: gives the calls the person was shown, newest first, each in input order, across rotated files', async () => {
    const log = await openLog({ maxFileBytes: 900, keepFiles: 5 });
    // "a": entry 1 ended before entry 0 (a batch runs them in any order); only entry 0 had a card.
    await log.append(record(entry('a', 1)));
    await log.append(record(entry('a', 0, true)));
    await log.append(record(entry('never-shown', 0)));
    await log.append(record()); // not a tool_call entry
    for (let n = 0; n < 6; n++) await log.append(record(entry(`b${n}`, 0, true)));
    expect((await readdir(dir)).length).toBeGreaterThan(1);
    const calls = await log.shownCalls(50);
    expect(calls.map((lines) => lines.map((line) => `${line.call.id}/${line.call.index}`))).toEqual([
      ...[5, 4, 3, 2, 1, 0].map((n) => [`b${n}/0`]),
      ['a/0', 'a/1'],
    ]);
    expect((await log.shownCalls(2)).map((lines) => lines[0]!.call.id)).toEqual(['b5', 'b4']);
  });

  it('skips a line whose call is malformed', async () => {
    await writeFile(
      join(dir, 'audit.jsonl'),
      [
        {
          ...record(),
          seq: 1,
          id: 'x',
          time: '2026-09-01T10:00:00Z',
          call: { id: 7, index: 0, shown: true },
        },
        {
          ...record(),
          seq: 2,
          id: 'y',
          time: '2026-09-01T10:00:01Z',
          call: { id: 'ok', index: 0, shown: true },
        },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const log = await openLog();
    expect((await log.shownCalls(50)).map((lines) => lines.map((line) => line.id))).toEqual([['y']]);
  });
});

describe('AuditLog.export', () => {
  it('exports matching entries oldest first as JSON Lines', async () => {
    const log = await openLog({ maxFileBytes: 800, keepFiles: 5 });
    for (let n = 0; n < 6; n++) await log.append(record({ arguments: { n }, isError: n === 4 }));
    const text = await log.export('jsonl');
    const parsed = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ActivityEntry);
    expect(parsed.map((entry) => (entry.arguments as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(parsed[0]).not.toHaveProperty('seq');
    expect(await log.export('jsonl', { toolName: 'nothing' })).toBe('');
  });

  it('exports CSV with proper quoting and a guard against spreadsheet formulas', async () => {
    const log = await openLog();
    await log.append(record({ message: 'he said "hi", then\nleft' }));
    await log.append(
      record({ toolName: '=HYPERLINK("http://x","y")', message: '+1', arguments: ['-2', '@SUM(A1)'] }),
    );
    await log.append(record({ message: '@cmd', agentId: '-agent' }));
    const csv = await log.export('csv');
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([
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
      'account',
    ]);
    expect(rows).toHaveLength(4);
    expect(rows[1]![10]).toBe('he said "hi", then\nleft');
    expect(rows[1]![11]).toBe('{"path":"/tmp/a"}');
    expect(rows[2]![4]).toBe('\'=HYPERLINK("http://x","y")');
    expect(rows[2]![10]).toBe("'+1");
    expect(rows[2]![11]).toBe('["-2","@SUM(A1)"]');
    expect(rows[3]![2]).toBe("'-agent");
    expect(rows[3]![10]).toBe("'@cmd");
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('exports the connector account as the last CSV column, empty for local tools', async () => {
    const log = await openLog();
    await log.append(record());
    await log.append(connectorRecord({ alias: 'work' }));
    await log.append(connectorRecord({ default: true }));
    await log.append(connectorRecord({ alias: 'github-account', default: true }));
    const rows = parseCsv(await log.export('csv'));
    expect(rows.map((row) => row.at(-1))).toEqual([
      'account',
      '',
      'work',
      'default',
      'github-account (default)',
    ]);
  });

  it('csvCell quotes only when needed', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('\tx')).toBe("'\tx");
  });
});

/** A strict RFC 4180 reader, to check the writer from the outside. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}
