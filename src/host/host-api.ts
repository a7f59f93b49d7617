import type { ToolbridgeApi } from '../api/ui-api.js';
import type { Disposable } from '../base/lifecycle.js';
import type { HostParts } from './host-parts.js';
import { activitySlice } from './ui-api/activity-slice.js';
import { agentsSlice } from './ui-api/agents-slice.js';
import { cardsSlice } from './ui-api/cards-slice.js';
import { connectionsSlice } from './ui-api/connections-slice.js';
import { connectorsSlice } from './ui-api/connectors-slice.js';
import { playgroundSlice } from './ui-api/playground-slice.js';
import { policiesSlice } from './ui-api/policies-slice.js';
import { serversSlice } from './ui-api/servers-slice.js';
import { settingsSlice } from './ui-api/settings-slice.js';
import { toolReviewsSlice } from './ui-api/tool-reviews-slice.js';
import { toolsSlice } from './ui-api/tools-slice.js';

/**
 * The UI API (src/api/ui-api.ts) over the running host, plus what only the transports use: both
 * (Electron IPC, the web UI's WebSocket) call this one object by method name.
 */
export interface HostApi extends ToolbridgeApi {
  /** Not a UI method: a transport calls it while a page or window is open (see UiPresence). */
  attachUi(): Disposable;
  /** Not a UI method: the dispatcher masks error messages with it before they leave the host. */
  redactText(text: string): string;
}

/**
 * One object from one slice per domain (the zustand slices pattern, host side): each slice is a
 * factory over the parts it needs and answers its domain's UI methods; they are only spread here.
 */
export function createHostApi(parts: HostParts): HostApi {
  return {
    ...serversSlice(parts),
    ...toolsSlice(parts),
    ...toolReviewsSlice(parts),
    ...policiesSlice(parts),
    ...playgroundSlice(parts),
    ...cardsSlice(parts),
    ...activitySlice(parts),
    ...agentsSlice(parts),
    ...settingsSlice(parts),
    ...connectorsSlice(parts),
    ...connectionsSlice(parts),
    on: (event, listener) => parts.events.on(event, listener),
    attachUi: () => parts.uiPresence.attach(),
    redactText: (text) => parts.redact(text),
  };
}
