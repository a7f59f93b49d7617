/**
 * Issue #12: the main-process IPC path did not validate parameters the way the WebSocket path
 * did. Both now go through one dispatcher: the same bad call gets the same structured error on
 * either, against one real host. (IPC runs through main/ipc.ts with a stand-in for Electron's
 * ipcMain; the socket is the real web UI socket.)
 */
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { methodChannel, registerIpc } from '../../main/ipc.js';
import type { UiReply } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { WebUi } from '../../src/web/web-ui.js';
import { exchangeLaunchSecret, startTestHost, type TestHost } from './listener-kit.js';

let running: TestHost;
let host: Host;
let webUi: WebUi;
let socket: WebSocket;
const handlers = new Map<
  string,
  (event: IpcMainInvokeEvent, ...params: unknown[]) => Promise<UiReply> | UiReply
>();
const mainFrame = { url: 'app://bundle/index.html', parent: null, processId: 1, routingId: 1 };

beforeAll(async () => {
  running = await startTestHost('deny', {}, []);
  host = running.host;
  registerIpc({
    ipcMain: {
      handle: (channel: string, handler: never) => handlers.set(channel, handler),
      removeHandler: (channel: string) => handlers.delete(channel),
    } as never,
    api: host.api,
    window: () => ({
      webContents: { mainFrame, isDestroyed: () => false, send: () => undefined } as unknown as WebContents,
    }),
    log: () => undefined,
  });
  webUi = new WebUi({ api: host.api, rendererDir: running.dataDir });
  webUi.mount(host.http!);
  const base = host.http!.url;
  const cookie = await exchangeLaunchSecret(
    base,
    new URL(webUi.launchUrl(base)).hash.replace('#secret=', ''),
  );
  socket = new WebSocket(`${base.replace('http:', 'ws:')}/api/ws`, {
    headers: { Cookie: cookie, Origin: base },
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
});

afterAll(async () => {
  socket?.close();
  await webUi?.close();
  await running?.close();
});

let nextId = 1;
function overSocket(method: string, params: unknown[]): Promise<UiReply> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: number; reply?: UiReply };
      if (message.type === 'reply' && message.id === id) {
        socket.off('message', onMessage);
        resolve(message.reply!);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

async function overIpc(method: string, params: unknown[]): Promise<UiReply> {
  return handlers.get(methodChannel(method))!(
    { senderFrame: mainFrame } as unknown as IpcMainInvokeEvent,
    ...params,
  );
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('issue #12: one dispatcher for IPC and the UI socket', () => {
  const badCalls: Array<[string, unknown[], RegExp]> = [
    [
      'setToolPolicy',
      ['mcp__x__y', 'maybe'],
      /Bad parameters for setToolPolicy: \/1 must be equal to one of the allowed values/,
    ],
    ['setServerPolicy', ['x'], /must NOT have fewer than 2 items/],
    ['removePolicyRule', [''], /must NOT have fewer than 1 characters/],
    ['listPolicyRules', ['extra'], /must NOT have more than 0 items/],
    ['resolveCard', ['card', { action: 'approve', extra: true }], /must NOT have additional properties/],
    ['search', [[]], /must NOT have fewer than 1 items/],
    ['call', ['mcp__x__y', [1, 2]], /\/1 must be object/],
    ['call', ['mcp__x__y', nested(2000)], /nests more than 64 levels deep/],
    ['updateSettings', [nested(500)], /nests more than 64 levels deep/],
    ['createAgent', [42], /\/0 must be string/],
  ];

  it.each(badCalls)(
    'issue #12: %s with bad parameters gets the same INVALID_ARGUMENT over IPC as over the socket',
    async (method, params, words) => {
      const [viaIpc, viaSocket] = [await overIpc(method, params), await overSocket(method, params)];
      expect(viaIpc).toEqual(viaSocket);
      expect(viaIpc).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
      expect(viaIpc.ok ? '' : viaIpc.error.message).toMatch(words);
    },
  );

  it('issue #12: a good call answers the same on both', async () => {
    const [viaIpc, viaSocket] = [
      await overIpc('listPolicyRules', []),
      await overSocket('listPolicyRules', []),
    ];
    expect(viaIpc).toEqual(viaSocket);
    expect(viaIpc.ok).toBe(true);
  });
});
