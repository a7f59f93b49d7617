import type { ToolbridgeApi } from '../src/api/ui-api.js';

declare global {
  interface Window {
    /** The UI API, exposed by the preload script in the desktop app; absent in web mode. */
    toolbridge?: ToolbridgeApi;
  }
}
