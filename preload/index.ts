import { contextBridge, ipcRenderer } from 'electron';
import {
  type ToolbridgeApi,
  UI_EVENTS,
  UI_METHODS,
  type UiEventMap,
  type UiMethod,
  type UiReply,
} from '../src/api/ui-api.js';

// Channel names as main/ipc.ts declares them; the preload is bundled alone, so they are repeated here.
const EVENT_CHANNEL = 'toolbridge:event';

/**
 * One function per UI method. A failure rejects with plain data `{ name, code, message, data }`:
 * an Error's fields would not cross the context bridge, and the renderer rebuilds a
 * ToolbridgeError from this (renderer/api/index.ts).
 */
function method(name: UiMethod) {
  return async (...params: unknown[]): Promise<unknown> => {
    const reply = (await ipcRenderer.invoke(`toolbridge:${name}`, ...params)) as UiReply;
    if (reply.ok) return reply.value;
    throw { name: 'ToolbridgeError', ...reply.error };
  };
}

const listeners = new Map<string, Set<(payload: unknown) => void>>();
ipcRenderer.on(EVENT_CHANNEL, (_event, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return;
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

function on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void {
  if (!(UI_EVENTS as readonly string[]).includes(event))
    throw new Error(`Unknown Toolbridge event "${event}".`);
  const set = listeners.get(event) ?? new Set();
  listeners.set(event, set);
  // Only the payload reaches the page: never the IPC event or its sender.
  const wrapped = (payload: unknown) => listener(payload as UiEventMap[E]);
  set.add(wrapped);
  return () => {
    set.delete(wrapped);
  };
}

const api = {
  ...(Object.fromEntries(UI_METHODS.map((name) => [name, method(name)])) as Omit<ToolbridgeApi, 'on'>),
  on,
} satisfies ToolbridgeApi;

contextBridge.exposeInMainWorld('toolbridge', api);
