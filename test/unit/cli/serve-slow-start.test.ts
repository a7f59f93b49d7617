import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerView } from '../../../src/api/ui-api.js';
import { reportSlowStart, waitingLine } from '../../../src/cli/commands/serve.js';

const server = (id: string, status: ServerView['status'], command = 'npx'): ServerView => ({
  id,
  name: id,
  status,
  enabled: true,
  trusted: false,
  config: { id, transport: 'stdio', command, args: ['-y', `@acme/${id}`], enabled: true },
  toolCount: 0,
  stderrTail: [],
});

afterEach(() => vi.useRealTimers());

describe('waitingLine', () => {
  it('issue #16: names each server still starting with what it runs', () => {
    expect(waitingLine([server('a', 'connected'), server('slow', 'starting')])).toBe(
      'toolbridge serve: waiting for 1 server to start: slow (npx -y @acme/slow). The endpoint and ui: link follow once they are up or have failed; Ctrl-C stops.',
    );
    expect(waitingLine([server('x', 'starting'), server('y', 'starting')])).toMatch(
      /^toolbridge serve: waiting for 2 servers to start: x \(npx -y @acme\/x\), y \(npx -y @acme\/y\)\./,
    );
    expect(waitingLine([server('a', 'connected'), server('b', 'error')])).toBeUndefined();
  });
});

describe('reportSlowStart', () => {
  it('issue #16: says nothing for a fast start, then which servers it waits for, again only when that changes', async () => {
    vi.useFakeTimers();
    let servers = [server('fast', 'connected'), server('slow', 'starting'), server('slower', 'starting')];
    const lines: string[] = [];
    const stop = reportSlowStart(
      async () => servers,
      { stdout: () => {}, stderr: (t) => lines.push(t) },
      {
        afterMs: 1000,
        everyMs: 2000,
      },
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('waiting for 2 servers to start: slow (');
    await vi.advanceTimersByTimeAsync(2000);
    expect(lines).toHaveLength(1);
    servers = [server('fast', 'connected'), server('slow', 'connected'), server('slower', 'starting')];
    await vi.advanceTimersByTimeAsync(2000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('waiting for 1 server to start: slower (');
    stop();
    servers = [server('other', 'starting')];
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lines).toHaveLength(2);
  });
});
