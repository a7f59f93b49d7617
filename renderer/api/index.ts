/// <reference path="../../preload/index.d.ts" />
import { type ToolbridgeApi, UI_METHODS } from '../../src/api/ui-api.js';
import { rebuildUnknown } from './rebuild-error.js';
import { hasSession, signIn, takeLaunchSecret } from './web-session.js';
import { type ConnectionState, WsClient } from './ws-client.js';

export type { ConnectionState } from './ws-client.js';

export interface Connection {
  api: ToolbridgeApi;
  /** Where the page runs: the desktop app (preload bridge) or a browser (web mode). */
  mode: 'electron' | 'web';
  /** The initial state; changes arrive through `onConnectionChange`. */
  state: ConnectionState;
}

/**
 * Picks the transport once at startup: the preload bridge in the desktop app, else the web
 * UI's WebSocket after signing in. No component ever knows which one it got.
 */
export async function connect(onConnectionChange: (state: ConnectionState) => void): Promise<Connection> {
  if (window.toolbridge !== undefined) {
    return { api: withRebuiltErrors(window.toolbridge), mode: 'electron', state: 'open' };
  }

  const secret = takeLaunchSecret();
  const signedIn = (secret !== undefined && (await signIn(secret))) || (await hasSession());
  const client = new WsClient({
    url: `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/ws`,
    onConnectionChange,
    isStillSignedIn: hasSession,
  });
  if (!signedIn) {
    client.close();
    return { api: client.api, mode: 'web', state: 'signed-out' };
  }
  client.connect();
  return { api: client.api, mode: 'web', state: client.state };
}

/** The preload rejects with plain data (an Error's fields do not cross the bridge); make it a ToolbridgeError again. */
export function withRebuiltErrors(bridge: ToolbridgeApi): ToolbridgeApi {
  const methods = Object.fromEntries(
    UI_METHODS.map((method) => [
      method,
      (...params: unknown[]) =>
        (bridge[method] as (...args: unknown[]) => Promise<unknown>)(...params).catch((error: unknown) => {
          throw rebuildUnknown(error);
        }),
    ]),
  );
  return { ...methods, on: bridge.on } as ToolbridgeApi;
}
