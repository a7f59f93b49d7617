import { beforeAll, describe, expect, it, vi } from 'vitest';
import { withRebuiltErrors } from '../../../renderer/api/index.js';
import { type ToolbridgeApi, UI_METHODS } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { SAMPLE_PARAMS } from '../web/sample-params.js';

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: vi.fn(),
  listeners: new Map<string, (...args: unknown[]) => void>(),
}));

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value),
  },
  ipcRenderer: {
    invoke: electron.invoke,
    on: (channel: string, listener: (...args: unknown[]) => void) =>
      electron.listeners.set(channel, listener),
  },
}));

let api: ToolbridgeApi;
beforeAll(async () => {
  await import('../../../preload/index.js');
  api = electron.exposed.get('toolbridge') as ToolbridgeApi;
});

describe('preload', () => {
  it('exposes only window.toolbridge: one function per UI method plus on (E20)', () => {
    expect([...electron.exposed.keys()]).toEqual(['toolbridge']);
    expect(Object.keys(api).sort()).toEqual([...UI_METHODS, 'on'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('invokes toolbridge:<method> with the parameters and unwraps the reply', async () => {
    for (const method of UI_METHODS) {
      electron.invoke.mockResolvedValueOnce({ ok: true, value: method });
      const call = api[method] as (...params: unknown[]) => Promise<unknown>;
      await expect(call(...SAMPLE_PARAMS[method])).resolves.toBe(method);
      expect(electron.invoke).toHaveBeenLastCalledWith(`toolbridge:${method}`, ...SAMPLE_PARAMS[method]);
    }
  });

  it('rejects with plain data the renderer turns back into a ToolbridgeError', async () => {
    electron.invoke.mockResolvedValueOnce({
      ok: false,
      error: { code: 'DENIED', message: 'No.', data: { n: 1 } },
    });
    const rejection = await api.listServers().catch((e: unknown) => e);
    expect(rejection).toEqual({ name: 'ToolbridgeError', code: 'DENIED', message: 'No.', data: { n: 1 } });

    electron.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'DENIED', message: 'No.' } });
    const rebuilt = await withRebuiltErrors(api)
      .listServers()
      .catch((e: unknown) => e);
    expect(rebuilt).toBeInstanceOf(ToolbridgeError);
    expect(ToolbridgeError.is(rebuilt, 'DENIED')).toBe(true);
  });

  it('calls event listeners with the payload only, until unsubscribed', () => {
    const ipcListener = electron.listeners.get('toolbridge:event');
    const listener = vi.fn();
    const off = api.on('cardOpened', listener);
    ipcListener?.({ sender: 'secret-ipc-event' }, 'cardOpened', { id: 'c1' });
    ipcListener?.({}, 'cardResolved', { id: 'c1' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([{ id: 'c1' }]);
    off();
    ipcListener?.({}, 'cardOpened', { id: 'c2' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('throws for an event that does not exist instead of never calling back', () => {
    expect(() => api.on('nope' as 'cardOpened', () => {})).toThrow('Unknown Toolbridge event "nope"');
  });
});
