import type { BrowserWindowConstructorOptions, WebContents } from 'electron';
import { openExternalUrl } from './open-url.js';

/** The renderer's origin: served by our `app://` protocol, never from `file://`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Whether a URL is one of our own pages (compared as parsed URL parts, never as a prefix). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/** The window's options, with every web preference security checklist §5 asks for spelled out. */
export function buildWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1240,
    height: 840,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Toolbridge',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

export interface HardenOptions {
  openExternal: (url: string) => Promise<void>;
  /** How recent a click or key press must be for a link to open. @defaultValue 1000 */
  userActivationMs?: number;
  now?: () => number;
}

/**
 * Keeps the window on our pages (E12–E14): navigation and redirects elsewhere are blocked, new
 * windows are always denied, and a link opens in the system browser only right after the user
 * clicked or pressed a key, and only through the URL helper.
 */
export function hardenWebContents(contents: WebContents, options: HardenOptions): void {
  const now = options.now ?? Date.now;
  const window = options.userActivationMs ?? 1000;
  let lastInputAt = Number.NEGATIVE_INFINITY;
  contents.on('input-event', (_event, input) => {
    if (input.type === 'mouseDown' || input.type === 'mouseUp' || input.type === 'keyDown')
      lastInputAt = now();
  });
  const blockForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', blockForeign);
  contents.on('will-redirect', blockForeign);
  contents.on('will-frame-navigate', (event) => blockForeign(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (now() - lastInputAt <= window) void openExternalUrl(url, options.openExternal);
    return { action: 'deny' };
  });
}
