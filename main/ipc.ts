import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { type ToolbridgeApi, UI_EVENTS, UI_METHODS, type UiReply } from '../src/api/ui-api.js';
import { errorSummary } from '../src/base/errors.js';
import type { Disposable } from '../src/base/lifecycle.js';
import { dispatchUiCall } from '../src/host/ui-dispatcher.js';
import { isAppUrl } from './window.js';

/** IPC channel names: `toolbridge:<method>` for calls, one channel for every event. */
export const methodChannel = (method: string): string => `toolbridge:${method}`;
export const EVENT_CHANNEL = 'toolbridge:event';

export interface IpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  api: ToolbridgeApi;
  /** The window whose main frame may call us; undefined while there is none. */
  window: () => { webContents: WebContents } | undefined;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Every frame that calls must be our window's main frame showing our `app://` page (E17):
 * not a subframe, not another window, not a page that navigated elsewhere.
 */
export function isTrustedSender(
  frame: WebFrameMain | null | undefined,
  window: { webContents: WebContents } | undefined,
): boolean {
  if (frame == null || window === undefined) return false;
  const main = window.webContents.mainFrame;
  // Same frame by identity, or by its ids should Electron hand out a second wrapper for it.
  const isMainFrame =
    frame === main ||
    (frame.parent === null && frame.processId === main.processId && frame.routingId === main.routingId);
  return isMainFrame && isAppUrl(frame.url);
}

/** One checked handler; nothing registers a bare `ipcMain.handle`. */
function secureHandle(
  options: IpcOptions,
  channel: string,
  handler: (event: IpcMainInvokeEvent, params: unknown[]) => Promise<UiReply>,
): void {
  options.ipcMain.handle(channel, (event, ...params: unknown[]) => {
    if (!isTrustedSender(event.senderFrame, options.window())) {
      return {
        ok: false,
        error: { code: 'UNAUTHORIZED', message: 'This frame may not use the Toolbridge API.' },
      };
    }
    return handler(event, params);
  });
}

/**
 * Serves the UI API over IPC: one channel per `UI_METHODS` entry, each going to the same
 * `ToolbridgeApi`, and every `UI_EVENTS` event sent to the window. Returns the undo.
 */
export function registerIpc(options: IpcOptions): Disposable {
  const log =
    options.log ??
    ((message, error) =>
      console.error(`toolbridge: ${message}${error === undefined ? '' : ` (${errorSummary(error)})`}`));
  for (const method of UI_METHODS) {
    secureHandle(options, methodChannel(method), (_event, params) =>
      dispatchUiCall(options.api, method, params, log),
    );
  }
  const unsubscribes = UI_EVENTS.map((event) =>
    options.api.on(event, (payload) => {
      const contents = options.window()?.webContents;
      if (contents !== undefined && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event, payload);
    }),
  );
  return {
    dispose() {
      for (const method of UI_METHODS) options.ipcMain.removeHandler(methodChannel(method));
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
