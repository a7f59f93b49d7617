import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type SocketLike, WsClient } from '../../../renderer/api/ws-client.js';
import { UI_METHODS, type UiMethod } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createFakeApi } from '../web/fake-api.js';
import { SAMPLE_PARAMS } from '../web/sample-params.js';
import { signIn, startUi, type UiUnderTest } from '../web/web-test-kit.js';

let ui: UiUnderTest | undefined;
let client: WsClient | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  await ui?.close();
  ui = undefined;
});

/** A client talking to a real WebUi, with the cookie and Origin a browser would send. */
async function connectedClient(fake = createFakeApi(), onState?: (state: string) => void): Promise<WsClient> {
  ui = await startUi(fake);
  const cookie = await signIn(ui);
  const origin = ui.origin;
  const created = new WsClient({
    url: `ws://127.0.0.1:${ui.port}/api/ws`,
    createSocket: (url) =>
      new WebSocket(url, { headers: { Origin: origin, Cookie: cookie } }) as unknown as SocketLike,
    ...(onState === undefined ? {} : { onConnectionChange: onState }),
  });
  client = created;
  created.connect();
  return created;
}

describe('WsClient against the real web UI', () => {
  it('implements every UI method, forwarding parameters and returning the value', async () => {
    const impl = Object.fromEntries(
      UI_METHODS.map((method) => [method, async (...params: unknown[]) => ({ method, params })]),
    );
    const api = (await connectedClient(createFakeApi(impl))).api;
    // Called at once: calls made before the socket opened are sent once it does.
    const replies = UI_METHODS.map((method) =>
      (api[method] as (...args: unknown[]) => Promise<unknown>)(...SAMPLE_PARAMS[method]),
    );
    for (const [index, method] of UI_METHODS.entries()) {
      await expect(replies[index]).resolves.toEqual({ method, params: SAMPLE_PARAMS[method] });
    }
    // Optional trailing parameters left out do not cross as null.
    await expect(api.search(['read a file'])).resolves.toEqual({
      method: 'search',
      params: [['read a file']],
    });
    await expect(api.listTools()).resolves.toEqual({ method: 'listTools', params: [] });
    expect(new Set(Object.keys(api))).toEqual(new Set<string>([...UI_METHODS, 'on']));
  });

  it('rebuilds a ToolbridgeError with its code, message and data', async () => {
    const api = (
      await connectedClient(
        createFakeApi({
          restartServer: async () => {
            throw new ToolbridgeError('SERVER_UNAVAILABLE', 'Server "x" is not running.', {
              data: { id: 'x' },
            });
          },
        }),
      )
    ).api;
    const error = await api.restartServer('x').catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'SERVER_UNAVAILABLE')).toBe(true);
    expect(error).toBeInstanceOf(ToolbridgeError);
    expect(error).toMatchObject({ message: 'Server "x" is not running.', data: { id: 'x' } });
  });

  it('delivers host events to listeners until they unsubscribe', async () => {
    const fake = createFakeApi({ listCards: async () => [] });
    const api = (await connectedClient(fake)).api;
    await api.listCards();
    const seen: string[] = [];
    const off = api.on('cardResolved', (payload) => seen.push(payload.id));
    fake.emit('cardResolved', { id: 'one', outcome: 'approved' });
    await vi.waitFor(() => expect(seen).toEqual(['one']));
    off();
    fake.emit('cardResolved', { id: 'two', outcome: 'approved' });
    await api.listCards();
    expect(seen).toEqual(['one']);
  });

  it('signs out when the host rotates its secret: waiting and later calls fail with UNAUTHORIZED', async () => {
    const states: string[] = [];
    const api = (
      await connectedClient(
        createFakeApi({ listServers: async () => [], call: () => new Promise(() => {}) }),
        (s) => states.push(s),
      )
    ).api;
    await api.listServers();
    const blocked = api.call('mcp__x__y', {});
    ui?.webUi.rotate(ui.base);
    await expect(blocked).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    await vi.waitFor(() => expect(states).toContain('signed-out'));
    await expect(api.listServers()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

/** A socket the test drives by hand, for reconnect timing. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  reply(id: number, value: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type: 'reply', id, reply: { ok: true, value } }) });
  }
}

describe('WsClient reconnecting', () => {
  it('fails calls in flight, keeps unsent ones, and reconnects after the configured delays', async () => {
    vi.useFakeTimers();
    try {
      const sockets: FakeSocket[] = [];
      const states: string[] = [];
      const local = new WsClient({
        url: 'ws://127.0.0.1:1/api/ws',
        createSocket: () => {
          const socket = new FakeSocket();
          sockets.push(socket);
          return socket;
        },
        onConnectionChange: (state) => states.push(state),
        reconnectDelaysMs: [100, 1000],
      });
      local.connect();
      sockets[0]!.open();
      const inFlight = local.api.listServers();
      expect(sockets[0]!.sent).toHaveLength(1);
      sockets[0]!.drop();
      await expect(inFlight).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
      const queued = local.api.listAgents();
      await vi.advanceTimersByTimeAsync(99);
      expect(sockets).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(2);
      sockets[1]!.drop();
      await vi.advanceTimersByTimeAsync(999);
      expect(sockets).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      sockets[2]!.open();
      const frame = JSON.parse(sockets[2]!.sent[0]!) as { id: number; method: UiMethod };
      expect(frame.method).toBe('listAgents');
      sockets[2]!.reply(frame.id, []);
      await expect(queued).resolves.toEqual([]);
      expect(states).toEqual(['open', 'reconnecting', 'open']);
      local.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops and signs out when the session check says the cookie is gone', async () => {
    const socket = new FakeSocket();
    const states: string[] = [];
    const local = new WsClient({
      url: 'ws://127.0.0.1:1/api/ws',
      createSocket: () => socket,
      onConnectionChange: (state) => states.push(state),
      isStillSignedIn: async () => false,
    });
    local.connect();
    socket.open();
    socket.drop();
    await vi.waitFor(() => expect(states.at(-1)).toBe('signed-out'));
    await expect(local.api.listServers()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
