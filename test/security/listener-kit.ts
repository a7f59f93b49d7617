/** Attacker tools for the listener tests: a real `toolbridge serve` child, raw sockets, a real SDK agent. */
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Host, HostOptions } from '../../src/host/host.js';
import { fixtureServer, startHost } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';
import { alive, buildPrivateCli, childPids, killGroups, lines } from '../integration/host/process-kit.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export { buildPrivateCli as buildCli };

export interface ServeChild {
  child: ChildProcess;
  port: number;
  endpoint: string;
  token: string;
  /** The one-time launch secret from the `ui:` line. */
  uiSecret: string;
  stderr: string[];
  stop(): Promise<void>;
}

/** A real `toolbridge serve` on a free port with one fixture server, policy allow. */
export async function startServe(
  main: string,
  token = 'security-test-token-0123456789',
): Promise<ServeChild> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-sec-'));
  await fs.writeFile(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({
      version: 2,
      servers: [BASIC_SERVER],
    }),
    { mode: 0o600 },
  );
  const child = spawn(
    process.execPath,
    [main, 'serve', '--data-dir', dataDir, '--port', '0', '--agent-token', token, '--policy', 'allow'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out = lines(child.stdout!);
  const stderr = lines(child.stderr!);
  await waitUntil(
    () => out.some((line) => line.startsWith('ui: ')) || child.exitCode !== null,
    () => `serve to start (stderr: ${stderr.join(' | ')})`,
    45_000,
  );
  const endpoint = out.find((line) => line.startsWith('agent endpoint: '))?.slice('agent endpoint: '.length);
  if (endpoint === undefined) throw new Error(`serve did not start: ${stderr.join(' | ')}`);
  return {
    child,
    port: Number(new URL(endpoint).port),
    endpoint,
    token,
    uiSecret: out.find((line) => line.startsWith('ui: '))!.split('#secret=')[1]!,
    stderr,
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        const pids = childPids(child.pid);
        child.kill('SIGTERM');
        await waitUntil(() => child.exitCode !== null, 'serve to stop', 15_000).catch(() => {
          killGroups(pids);
          child.kill('SIGKILL');
        });
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function isAlive(serve: ServeChild): boolean {
  return serve.child.exitCode === null && serve.child.pid !== undefined && alive(serve.child.pid);
}

/** The SDK's real client as an agent with `token`. */
export async function connectAgent(endpoint: string, token: string, name = 'agent'): Promise<Client> {
  const agent = new Client({ name, version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return agent;
}

/**
 * Writes raw bytes to the port and returns everything the server sent until it closed the
 * connection, or until `timeoutMs` (then the socket is destroyed and what arrived is returned).
 */
export function rawExchange(port: number, bytes: string | Buffer, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => socket.write(bytes));
  });
}

/** The status code of the first response in raw bytes, or 0 when there was none. */
export function statusOf(response: string): number {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(response);
  return match === null ? 0 : Number(match[1]);
}

/** The header block of the first response, lower-cased names. */
export function headersOf(response: string): Map<string, string> {
  const head = response.split('\r\n\r\n')[0] ?? '';
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Trades a launch secret for the UI session cookie (`name=value`), as the page does. */
export async function exchangeLaunchSecret(base: string, secret: string): Promise<string> {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Toolbridge-CSRF': '1', Origin: base },
    body: JSON.stringify({ secret }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  if (response.status !== 200 || !cookie.includes('='))
    throw new Error(`session exchange failed: ${response.status}`);
  return cookie;
}

/** The serve child's UI session cookie, split. */
export async function uiSessionCookie(serve: ServeChild): Promise<{ name: string; value: string }> {
  const cookie = await exchangeLaunchSecret(`http://127.0.0.1:${serve.port}`, serve.uiSecret);
  const eq = cookie.indexOf('=');
  return { name: cookie.slice(0, eq), value: cookie.slice(eq + 1) };
}

/** The fixture server with the basic tools (echo, rich, pid, …), as a settings entry. */
export const BASIC_SERVER = fixtureServer('basic', 'basic');

export interface TestHost {
  host: Host;
  dataDir: string;
  close(): Promise<void>;
}

/** A real host in-process on a free loopback port, in a temp data folder that close() removes. */
export async function startTestHost(
  policy: 'allow' | 'ask' | 'deny',
  options: Partial<HostOptions> = {},
  servers: unknown[] = [BASIC_SERVER],
): Promise<TestHost> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-sec-host-'));
  const host = await startHost(dataDir, { servers, policies: { default: policy } }, options);
  return {
    host,
    dataDir,
    async close() {
      await host.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
