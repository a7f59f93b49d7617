/**
 * Fixture servers over real stdio: paging, list_changed, hung tools, crashes, and shutdown of
 * whole process groups (grandchildren included, SIGTERM trapped).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { ServerConnection, type ServerConnectionOptions } from '../../../src/servers/server-connection.js';
import type { ServerConfig } from '../../../src/servers/types.js';
import { waitUntil } from '../../helpers/wait.js';
import { FIXTURE_SERVER, fixtureConfig, isAlive, STUBBORN_PRELOAD, scenarioPath, textOf } from './helpers.js';

const connections: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

async function connect(
  config: ServerConfig,
  options: ServerConnectionOptions = {},
): Promise<ServerConnection> {
  const connection = new ServerConnection(config, { stopGraceMs: 500, ...options });
  connections.push(connection);
  await connection.start();
  return connection;
}

describe('stdio fixture servers', () => {
  it('reads every page of a paged tool list', async () => {
    const connection = await connect(fixtureConfig('paging', 'paging'));
    expect(connection.state).toMatchObject({ status: 'connected', toolCount: 11 });
    expect(connection.tools.at(-1)?.name).toBe('tool_010');
  });

  it('re-lists when the server announces a new tool', async () => {
    const connection = await connect(fixtureConfig('dynamic', 'dynamic'));
    const changes: string[][] = [];
    connection.onDidChangeTools((tools) => changes.push(tools.map((t) => t.name)));
    await connection.callTool('add_tool', { name: 'late_tool' });
    await waitUntil(() => changes.length > 0, 'tools/list_changed', 5_000);
    expect(changes[0]).toEqual(['echo', 'add_tool', 'late_tool']);
    expect(textOf(await connection.callTool('late_tool', { message: 'new' }))).toBe('new');
  });

  it('gives TIMEOUT after its call timeout for a hung tool and cancels it on the server', async () => {
    const connection = await connect(fixtureConfig('hanging', 'hanging'), { callTimeoutMs: 300 });
    const error = await connection.callTool('hang', {}).catch((e: unknown) => e);
    // The message names the connection's own 0.3 s: no other timer ended the call.
    expect(ToolbridgeError.is(error, 'TIMEOUT')).toBe(true);
    expect((error as Error).message).toContain('Tool "hang" on server "hanging" did not answer within 0.3 s');
    // The server heard notifications/cancelled and is still serving.
    await expect.poll(async () => textOf(await connection.callTool('cancellations', {}))).toBe('1');
  });

  it('reports a crash with its exit code and stderr, then reconnects', async () => {
    const connection = await connect(fixtureConfig('crashy', 'basic'));
    const firstPid = connection.state.pid;
    const statuses: string[] = [];
    connection.onDidChangeState((state) => statuses.push(state.status));
    await connection.callTool('crash', {});
    await waitUntil(() => statuses.includes('connected'), 'reconnect');
    expect(statuses.slice(0, 3)).toEqual(['error', 'starting', 'connected']);
    const tail = connection.stderrTail.join('\n');
    expect(tail).toContain('fixture: crashing on purpose');
    expect(tail).toContain('server stopped unexpectedly (exited with code 3)');
    expect(connection.state.pid).not.toBe(firstPid);
    expect(connection.state.toolCount).toBe(7);
  });

  it('says clearly when the command does not exist, and retries with backoff', async () => {
    const connection = await connect({
      id: 'ghost',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
      enabled: true,
    });
    expect(connection.state.status).toBe('error');
    expect(connection.state.lastError).toMatch(
      /^Could not connect to server "ghost": Could not start "\/nonexistent\/mcp-server": spawn .*ENOENT/,
    );
    expect(connection.state.nextRetryAt).toBeDefined();
    const error = await connection.callTool('x', {}, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'SERVER_UNAVAILABLE')).toBe(true);
  });
});

describe('stdio shutdown leaves no process behind', () => {
  it("ends the server's own children with it", async () => {
    const connection = await connect(fixtureConfig('parent', 'basic'));
    const serverPid = connection.state.pid!;
    const grandchild = Number(textOf(await connection.callTool('grandchild', {})));
    expect(isAlive(serverPid) && isAlive(grandchild)).toBe(true);
    await connection.close();
    await waitUntil(
      () => !isAlive(serverPid) && !isAlive(grandchild),
      'server and grandchild to exit',
      5_000,
    );
  });

  it.runIf(process.platform !== 'win32')(
    "ends a shell wrapper's background job (sh -c 'sleep & exec node …')",
    async () => {
      const script = `sleep 1000 & echo "bg=$!" >&2; exec "${process.execPath}" "${FIXTURE_SERVER}" "${scenarioPath('basic')}"`;
      const connection = await connect({
        id: 'wrapped',
        transport: 'stdio',
        command: '/bin/sh',
        args: ['-c', script],
        enabled: true,
      });
      expect(connection.state.status).toBe('connected');
      const line = connection.stderrTail.find((l) => l.startsWith('bg='));
      const sleepPid = Number(line?.slice(3));
      expect(isAlive(sleepPid)).toBe(true);
      await connection.close();
      await waitUntil(() => !isAlive(sleepPid), 'background sleep to exit', 5_000);
    },
  );

  it('kills a server that ignores stdin EOF and traps SIGTERM, within the grace period', async () => {
    const config: ServerConfig = {
      id: 'stubborn',
      transport: 'stdio',
      command: process.execPath,
      args: ['-r', STUBBORN_PRELOAD, FIXTURE_SERVER, scenarioPath('basic')],
      enabled: true,
    };
    const connection = await connect(config, { stopGraceMs: 300 });
    const pid = connection.state.pid!;
    // It never exits by itself, so a close that only asked would hang the test; when close()
    // resolves, the SIGKILL has landed.
    await connection.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('a crashed server leaves no children behind either', async () => {
    const connection = await connect(fixtureConfig('crash-parent', 'basic'), { stopGraceMs: 300 });
    const grandchild = Number(textOf(await connection.callTool('grandchild', {})));
    await connection.callTool('crash', {});
    await waitUntil(() => !isAlive(grandchild), 'orphaned grandchild to be reaped', 5_000);
  });
});

describe('stdio stderr', () => {
  it('drains a 20 MB stderr flood into a bounded tail and keeps serving', async () => {
    const connection = await connect(fixtureConfig('noisy', 'basic'), { callTimeoutMs: 30_000 });
    expect(textOf(await connection.callTool('flood', { megabytes: 20 }))).toBe('flooded');
    await waitUntil(() => connection.stderrTail.at(-1) === 'flood done', 'the last stderr line', 5_000);
    const tail = connection.stderrTail;
    expect(tail.length).toBeLessThanOrEqual(200);
    expect(tail.join('').length).toBeLessThanOrEqual(64 * 1024);
    expect(textOf(await connection.callTool('echo', { message: 'still here' }))).toBe('still here');
  });
});

describe('stdio faults', () => {
  it('notes a stdout line that is not JSON-RPC and keeps the session', async () => {
    const connection = await connect(fixtureConfig('garbage', 'faulty'));
    expect(textOf(await connection.callTool('garbage', {}))).toBe('after garbage');
    expect(connection.stderrTail.some((line) => line.startsWith('[toolbridge] protocol error'))).toBe(true);
    expect(connection.state.status).toBe('connected');
  });

  it('issue #12: an answer over 10 MiB fails only its call, naming the size; the server stays connected', async () => {
    const connection = await connect(fixtureConfig('huge', 'faulty'), { callTimeoutMs: 20_000 });
    const pid = connection.state.pid;
    const error = await connection.callTool('big_result', { megabytes: 11 }).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'RESULT_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toMatch(
      /Tool "big_result" on server "huge" answered with too much: The server's answer was 11\.0 MiB \(\d+ bytes\), over the 10\.0 MiB limit/,
    );
    const echo = await connection.callTool('echo', { message: 'still here' });
    expect(echo.content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(connection.state).toMatchObject({ status: 'connected', pid });
  });

  it('issue #12: a stdout line over 10 MiB that answers nothing is skipped and noted; the call still gets its answer', async () => {
    const connection = await connect(fixtureConfig('huge', 'faulty'), { callTimeoutMs: 20_000 });
    const pid = connection.state.pid;
    const result = await connection.callTool('huge_line', { megabytes: 11 });
    expect(result.content).toEqual([{ type: 'text', text: 'after huge line' }]);
    expect(connection.state).toMatchObject({ status: 'connected', pid });
    expect(connection.stderrTail.join('\n')).toMatch(/skipped a stdout line of 11\.0 MiB/);
  });
});
