import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { LoopbackServer } from '../../../src/agents/loopback-server.js';
import type { UiSocketMessage } from '../../../src/api/ui-api.js';
import { WebUi, type WebUiOptions } from '../../../src/web/web-ui.js';
import { createFakeApi, type FakeApi } from './fake-api.js';

export interface UiUnderTest {
  port: number;
  base: string;
  origin: string;
  webUi: WebUi;
  fake: FakeApi;
  /** A launch secret issued at start. */
  secret: string;
  close(): Promise<void>;
}

/** A real listener with the web UI mounted, serving a tiny renderer build from a temp folder. */
export async function startUi(
  fake: FakeApi = createFakeApi(),
  socket: WebUiOptions['socket'] = {},
): Promise<UiUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'toolbridge-web-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Toolbridge</title>');
  await writeFile(join(rendererDir, 'assets', 'app-abc123.js'), 'console.log(1);');
  await writeFile(join(dir, 'secret.txt'), 'TOP SECRET');
  await symlink(join(dir, 'secret.txt'), join(rendererDir, 'leak.txt'));
  const server = new LoopbackServer();
  const webUi = new WebUi({ api: fake.api, rendererDir, socket });
  webUi.mount(server);
  await server.listen();
  const secret = new URL(webUi.launchUrl(server.url)).hash.replace('#secret=', '');
  return {
    port: server.port,
    base: server.url,
    origin: `http://127.0.0.1:${server.port}`,
    webUi,
    fake,
    secret,
    async close() {
      await webUi.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with the path sent byte for byte (fetch would normalise `..`). */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Trades the launch secret for a session cookie the way the page does; returns the Cookie header value. */
export async function signIn(ui: UiUnderTest, secret = ui.secret): Promise<string> {
  const res = await rawRequest(ui.port, {
    method: 'POST',
    path: '/api/session',
    headers: { 'Content-Type': 'application/json', 'X-Toolbridge-CSRF': '1', Origin: ui.origin },
    body: JSON.stringify({ secret }),
  });
  const setCookie = res.headers['set-cookie']?.[0];
  if (res.status !== 200 || setCookie === undefined) throw new Error(`sign-in failed: ${res.status}`);
  return setCookie.split(';')[0]!;
}

/** Opens a socket; resolves with it once open, or with the HTTP status that refused it. */
export function openSocket(
  ui: UiUnderTest,
  headers: Record<string, string>,
  options: WebSocket.ClientOptions = {},
): Promise<{ ws: WebSocket } | { status: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${ui.port}/api/ws`, { headers, ...options });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

export async function openSignedInSocket(
  ui: UiUnderTest,
  options: WebSocket.ClientOptions = {},
): Promise<WebSocket> {
  const cookie = await signIn(ui);
  const result = await openSocket(ui, { Origin: ui.origin, Cookie: cookie }, options);
  if (!('ws' in result)) throw new Error(`socket refused: ${result.status}`);
  return result.ws;
}

/** Collects frames from a socket; `next(predicate)` waits for the first one that matches. */
export function frames(ws: WebSocket) {
  const received: UiSocketMessage[] = [];
  const waiters: Array<{ match: (m: UiSocketMessage) => boolean; resolve: (m: UiSocketMessage) => void }> =
    [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as UiSocketMessage;
    received.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  return {
    received,
    next(match: (m: UiSocketMessage) => boolean): Promise<UiSocketMessage> {
      const found = received.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    reply(id: number): Promise<UiSocketMessage> {
      return this.next((m) => m.type === 'reply' && m.id === id);
    },
  };
}

export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
}
