import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { EVENT_CHANNEL, methodChannel, registerIpc } from '../../../main/ipc.js';
import { UI_METHODS, type UiReply } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createFakeApi } from '../web/fake-api.js';
import { SAMPLE_PARAMS } from '../web/sample-params.js';

type Handler = (event: IpcMainInvokeEvent, ...params: unknown[]) => Promise<UiReply> | UiReply;

function setup() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  };
  const sent: unknown[][] = [];
  const mainFrame = { url: 'app://bundle/index.html', parent: null, processId: 4, routingId: 1 };
  const webContents = {
    mainFrame,
    isDestroyed: () => false,
    send: (...args: unknown[]) => sent.push(args),
  } as unknown as WebContents;
  const impl = Object.fromEntries(
    UI_METHODS.map((method) => [method, async (...params: unknown[]) => ({ method, params })]),
  );
  const fake = createFakeApi({
    ...impl,
    removeServer: async () => {
      throw new ToolbridgeError('NOT_FOUND', 'Server "x" does not exist.');
    },
  });
  const registration = registerIpc({
    ipcMain: ipcMain as never,
    api: fake.api,
    window: () => ({ webContents }),
    log: () => {},
  });
  const invoke = (channel: string, frame: unknown, ...params: unknown[]) => {
    const handler = handlers.get(channel);
    if (handler === undefined) throw new Error(`no handler for ${channel}`);
    return handler({ senderFrame: frame } as IpcMainInvokeEvent, ...params);
  };
  return { handlers, fake, mainFrame, sent, registration, invoke };
}

describe('registerIpc', () => {
  it('wires every UI method to the API under toolbridge:<method>, and nothing else', async () => {
    const { handlers, fake, mainFrame, invoke } = setup();
    expect([...handlers.keys()].sort()).toEqual(UI_METHODS.map(methodChannel).sort());
    for (const method of UI_METHODS.filter((m) => m !== 'removeServer')) {
      expect(await invoke(methodChannel(method), mainFrame, ...SAMPLE_PARAMS[method])).toEqual({
        ok: true,
        value: { method, params: SAMPLE_PARAMS[method] },
      });
    }
    expect(fake.calls).toHaveLength(UI_METHODS.length - 1);
  });

  it('replies with the error as data: code and message survive, the class does not need to', async () => {
    const { mainFrame, invoke } = setup();
    expect(await invoke('toolbridge:removeServer', mainFrame, 'x')).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Server "x" does not exist.' },
    });
  });

  it('accepts a second wrapper of our main frame (same process and routing id)', async () => {
    const { invoke } = setup();
    const sameFrame = { url: 'app://bundle/index.html', parent: null, processId: 4, routingId: 1 };
    expect(await invoke('toolbridge:listServers', sameFrame)).toMatchObject({ ok: true });
  });

  it.each([
    [
      'a frame from https://evil.example',
      { url: 'https://evil.example/', parent: null, processId: 4, routingId: 1 },
    ],
    [
      'a subframe showing our page',
      { url: 'app://bundle/index.html', parent: {}, processId: 4, routingId: 1 },
    ],
    [
      'another window showing our page',
      { url: 'app://bundle/index.html', parent: null, processId: 9, routingId: 1 },
    ],
    ['no frame at all', null],
  ])('refuses %s (E17) without calling the API', async (_label, frame) => {
    const { fake, invoke } = setup();
    expect(await invoke('toolbridge:listServers', frame)).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORIZED' },
    });
    expect(fake.calls).toHaveLength(0);
  });

  it('refuses our own main frame once it shows another page', async () => {
    const { fake, mainFrame, invoke } = setup();
    mainFrame.url = 'https://evil.example/';
    expect(await invoke('toolbridge:listServers', mainFrame)).toMatchObject({ ok: false });
    expect(fake.calls).toHaveLength(0);
  });

  it('sends every host event to the window with only its name and payload, and undoes it all', () => {
    const { fake, sent, registration, handlers } = setup();
    fake.emit('cardResolved', { id: 'c1', outcome: 'approved' });
    expect(sent).toEqual([[EVENT_CHANNEL, 'cardResolved', { id: 'c1', outcome: 'approved' }]]);
    registration.dispose();
    expect(handlers.size).toBe(0);
    expect(fake.listenerCount()).toBe(0);
  });
});
