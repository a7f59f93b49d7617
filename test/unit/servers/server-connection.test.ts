// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a stored config spells out the literal ${secret:…} reference.
import { readFileSync } from 'node:fs';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import {
  type Clock,
  ServerConnection,
  type ServerConnectionOptions,
} from '../../../src/servers/server-connection.js';
import type { ServerConfig, ServerState } from '../../../src/servers/types.js';
import {
  createFixtureServer,
  createFixtureState,
  type FixtureScenario,
} from '../../fixtures/servers/fixture-server.mjs';

function scenario(name: string): FixtureScenario {
  return JSON.parse(readFileSync(new URL(`../../fixtures/servers/${name}.json`, import.meta.url), 'utf8'));
}

/** Time moves only when the test says so. */
class ManualClock implements Clock {
  time = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 1;
  readonly delays: number[] = [];

  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, fn, id });
    this.delays.push(ms);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((timer) => timer.at <= this.time);
    this.timers = this.timers.filter((timer) => timer.at > this.time);
    for (const timer of due) timer.fn();
  }
}

const config: ServerConfig = { id: 'fx', transport: 'stdio', command: 'unused', enabled: true };

/** A connection whose transport is an in-memory pair linked to a fixture server. */
function inMemory(name: string, options: ServerConnectionOptions = {}, serverConfig: ServerConfig = config) {
  const state = createFixtureState(scenario(name));
  const serverSides: InMemoryTransport[] = [];
  let opened = 0;
  const connection = new ServerConnection(serverConfig, {
    clock: new ManualClock(),
    random: () => 0.5,
    ...options,
    createTransport: async (...args) => {
      opened++;
      if (options.createTransport) return options.createTransport(...args);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      serverSides.push(serverSide);
      await createFixtureServer(state.scenario, state).connect(serverSide);
      return clientSide;
    },
  });
  connections.push(connection);
  return { connection, state, serverSides, opened: () => opened };
}

const connections: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

function recordStates(connection: ServerConnection): ServerState[] {
  const states: ServerState[] = [];
  connection.onDidChangeState((state) => states.push(state));
  return states;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe('ServerConnection.start', () => {
  it('goes starting → connected and reads every page of tools', async () => {
    const { connection } = inMemory('paging');
    const states = recordStates(connection);
    await connection.start();
    expect(states.map((s) => s.status)).toEqual(['starting', 'connected']);
    expect(connection.state).toMatchObject({ status: 'connected', toolCount: 11, crashLooping: false });
    expect(connection.tools.map((t) => t.name)).toEqual(
      Array.from({ length: 11 }, (_, i) => `tool_${String(i).padStart(3, '0')}`),
    );
  });

  it('stays disabled and opens nothing when the config is disabled', async () => {
    const { connection, opened } = inMemory('basic', {}, { ...config, enabled: false });
    await connection.start();
    expect(connection.state.status).toBe('disabled');
    expect(opened()).toBe(0);
    const error = await connection.callTool('echo', {}).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'SERVER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe(
      'Cannot call tool "echo": server "fx" is disabled. Enable it in Servers to use its tools.',
    );
  });

  it('sets needs-auth on a 401 and does not retry', async () => {
    const clock = new ManualClock();
    const { connection } = inMemory('basic', {
      clock,
      createTransport: () => {
        throw new UnauthorizedError('no token');
      },
    });
    await connection.start();
    expect(connection.state.status).toBe('needs-auth');
    expect(connection.state.lastError).toMatch(/401 Unauthorized.*sign in/);
    expect(clock.delays.filter((d) => d !== 30_000)).toEqual([]);
  });
});

describe('ServerConnection reconnects', () => {
  it('after a crash: error, then a new session with the tools back', async () => {
    const clock = new ManualClock();
    const { connection, serverSides, opened } = inMemory('basic', { clock });
    await connection.start();
    const states = recordStates(connection);
    await serverSides[0]!.close();
    expect(connection.state).toMatchObject({
      status: 'error',
      nextRetryAt: new Date(clock.time).toISOString(),
    });
    expect(connection.state.lastError).toContain('stopped unexpectedly (the connection closed)');
    clock.advance(0);
    await expect.poll(() => connection.state.status).toBe('connected');
    expect(opened()).toBe(2);
    expect(states.map((s) => s.status)).toEqual(['error', 'starting', 'connected']);
    expect(connection.tools).toHaveLength(7);
    expect(textOf(await connection.callTool('echo', { message: 'back' }))).toBe('back');
  });

  it('backs off: immediate, 1 s, 2 s, 4 s …, and flags crash-looping', async () => {
    const clock = new ManualClock();
    const { connection } = inMemory('basic', {
      clock,
      createTransport: () => {
        throw new Error('spawn nope ENOENT');
      },
    });
    await connection.start();
    const retryDelays = (): number[] => clock.delays.filter((d) => d !== 30_000);
    for (let i = 0; i < 5; i++) {
      const last = retryDelays().at(-1)!;
      clock.advance(last);
      await expect.poll(() => retryDelays().length).toBe(i + 2);
    }
    expect(retryDelays()).toEqual([0, 1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(connection.state).toMatchObject({ status: 'error', crashLooping: true });
    expect(connection.state.lastError).toBe('Could not connect to server "fx": spawn nope ENOENT');
  });

  it('starts the backoff over after a long healthy spell', async () => {
    const clock = new ManualClock();
    const { connection, serverSides } = inMemory('basic', { clock, backoff: { healthyResetMs: 60_000 } });
    await connection.start();
    await serverSides[0]!.close();
    clock.advance(0);
    await expect.poll(() => connection.state.status).toBe('connected');
    await serverSides[1]!.close();
    expect(clock.delays.filter((d) => d !== 30_000)).toEqual([0, 1_000]);
    clock.advance(1_000);
    await expect.poll(() => connection.state.status).toBe('connected');
    clock.time += 60_000;
    await serverSides[2]!.close();
    expect(clock.delays.filter((d) => d !== 30_000).at(-1)).toBe(0);
  });

  it('a start right after a stop that interrupted connecting connects anew', async () => {
    let calls = 0;
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { connection } = inMemory('basic', {
      // The first attempt stalls here until the stop has been asked for, so it lands while in flight.
      resolveConfig: async (c) => {
        if (calls++ === 0) {
          entered();
          await released;
        }
        return c;
      },
    });
    const first = connection.start();
    await inFlight;
    const stopping = connection.stop();
    release();
    await stopping;
    await connection.start();
    await first;
    expect(connection.state.status).toBe('connected');
  });

  it('restart reconnects at once, stop stays down and drops the tools', async () => {
    const { connection, opened } = inMemory('basic');
    await connection.start();
    await connection.restart();
    expect(opened()).toBe(2);
    expect(connection.state.status).toBe('connected');
    const tools: number[] = [];
    connection.onDidChangeTools((t) => tools.push(t.length));
    await connection.stop();
    expect(connection.state).toMatchObject({ status: 'disabled', toolCount: 0 });
    expect(tools).toEqual([0]);
    await connection.start();
    expect(connection.state.status).toBe('connected');
  });
});

describe('ServerConnection.update', () => {
  it('reconnects only when how it connects changed', async () => {
    const { connection, opened } = inMemory('basic');
    await connection.start();
    await connection.update({ ...config, name: 'Renamed', trusted: true });
    expect(opened()).toBe(1);
    await connection.update({ ...config, env: { LEVEL: 'debug' } });
    expect(opened()).toBe(2);
    await connection.update({ ...config, enabled: false });
    expect(connection.state.status).toBe('disabled');
    await expect(connection.update({ ...config, id: 'other' })).rejects.toThrow(/keeps its id/);
  });
});

describe('ServerConnection tools', () => {
  it('re-lists on notifications/tools/list_changed and reports the new list', async () => {
    const { connection } = inMemory('dynamic');
    await connection.start();
    const seen: string[][] = [];
    connection.onDidChangeTools((tools) => seen.push(tools.map((t) => t.name)));
    await connection.callTool('add_tool', { name: 'fresh' });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual(['echo', 'add_tool', 'fresh']);
    expect(connection.state.toolCount).toBe(3);
  });
});

describe('ServerConnection.callTool', () => {
  it("returns the server's result untouched", async () => {
    const { connection } = inMemory('basic');
    await connection.start();
    expect(await connection.callTool('rich', {})).toEqual({
      content: [{ type: 'text', text: 'rich' }],
      structuredContent: { answer: 42 },
      _meta: { 'fixture/trace': 'abc' },
      extraField: { kept: true },
    });
  });

  it('issue #14: progress starts the call timeout again, up to the maximum (on a fake clock)', async () => {
    const { connection } = inMemory('client-features', { callTimeoutMs: 1_500, maxCallTimeoutMs: 4_000 });
    await connection.start();
    // The SDK's request timers and the fixture server's steps both run on it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const settle = (args: Record<string, unknown>) =>
        connection.callTool('progress', args).then(textOf, (error: unknown) => error as Error);
      // One step 1.6 s away: silent past the 1.5 s timeout.
      const silent = settle({ steps: 1, delayMs: 1_600 });
      await vi.advanceTimersByTimeAsync(1_600);
      expect(String(await silent)).toContain('did not answer within 1.5 s');
      // 4 × 700 ms = 2.8 s in all, longer than the timeout but never 1.5 s without progress.
      const steady = settle({ steps: 4, delayMs: 700 });
      await vi.advanceTimersByTimeAsync(4 * 700);
      expect(await steady).toBe('done 4');
      // 10 × 700 ms keeps reporting past the 4 s maximum.
      const endless = settle({ steps: 10, delayMs: 700 });
      await vi.advanceTimersByTimeAsync(10 * 700);
      const capped = await endless;
      expect(ToolbridgeError.is(capped, 'TIMEOUT')).toBe(true);
      expect(String(capped)).toContain('kept reporting progress but did not finish within 4 s');
    } finally {
      vi.useRealTimers();
    }
  });

  it('rethrows the server’s own JSON-RPC error as is', async () => {
    const { connection } = inMemory('basic');
    await connection.start();
    const error = await connection.callTool('missing', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('Unknown tool: missing');
  });

  it('times out a hung tool with TIMEOUT, and the server hears the cancel', async () => {
    const { connection, state } = inMemory('hanging');
    await connection.start();
    const error = await connection.callTool('hang', {}, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'TIMEOUT')).toBe(true);
    expect((error as Error).message).toBe(
      'Tool "hang" on server "fx" did not answer within 0.1 s; the server may be hung. Try again, raise the call timeout, or restart the server in Servers.',
    );
    await expect.poll(() => state.cancellations).toBe(1);
  });

  it('passes an abort through: CANCELLED here, notifications/cancelled there', async () => {
    const { connection, state } = inMemory('hanging');
    await connection.start();
    const controller = new AbortController();
    const call = connection.callTool('hang', {}, { signal: controller.signal });
    // Abort once the server holds the call: an abort before the request left cancels nothing there.
    await expect.poll(() => state.hanging).toBe(1);
    controller.abort();
    const error = await call.catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'CANCELLED')).toBe(true);
    await expect.poll(() => state.cancellations).toBe(1);
  });

  it('fails a call in flight with SERVER_UNAVAILABLE when the server goes away', async () => {
    const { connection, serverSides, state } = inMemory('hanging');
    await connection.start();
    const call = connection.callTool('hang', {});
    await expect.poll(() => state.hanging).toBe(1);
    await serverSides[0]!.close();
    const error = await call.catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'SERVER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('Server "fx" stopped while running tool "hang"');
  });

  it('waits for a server that is still starting, within the call budget', async () => {
    const { connection } = inMemory('basic');
    const starting = connection.start();
    const result = await connection.callTool('echo', { message: 'early' });
    await starting;
    expect(textOf(result)).toBe('early');
  });
});

describe('ServerConnection secrets', () => {
  it('masks resolved secret values in stderr and errors', async () => {
    const stored: ServerConfig = { ...config, env: { API_TOKEN: '${secret:fx:env.API_TOKEN}' } };
    const { connection } = inMemory(
      'basic',
      {
        resolveConfig: (c) => ({ ...c, env: { API_TOKEN: 'tok-canary-123' } }) as ServerConfig,
        redact: (text) => text.replace(/user-\d+/g, 'user-#'),
        createTransport: (_config, hooks) => {
          hooks.onStderr('using tok-canary-123 for user-42\npartial tok-canary-123');
          throw new Error('bad token tok-canary-123');
        },
      },
      stored,
    );
    await connection.start();
    expect(connection.stderrTail).toEqual(['using •••• for user-#', 'partial ••••']);
    expect(connection.state.lastError).toBe('Could not connect to server "fx": bad token ••••');
  });
});

describe('ServerConnection.close', () => {
  it('closes the session and emits nothing afterwards', async () => {
    const { connection, serverSides } = inMemory('basic');
    await connection.start();
    let serverClosed = false;
    serverSides[0]!.onclose = () => {
      serverClosed = true;
    };
    const states: ServerState[] = recordStates(connection);
    await connection.close();
    expect(serverClosed).toBe(true);
    expect(states).toEqual([]);
    await connection.start();
    expect(states).toEqual([]);
  });
});
