import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  nativeImage,
  protocol,
  safeStorage,
  session,
  shell,
  Tray,
} from 'electron';
import { cardNotice } from '../src/api/card-notice.js';
import { errorMessage } from '../src/base/errors.js';
import { createHost, DEFAULT_HOST_PORT, type Host } from '../src/host/host.js';
import { handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { registerIpc } from './ipc.js';
import { OpenCards } from './notifications.js';
import { openExternalUrl } from './open-url.js';
import { SafeStorageSecretStore } from './safe-storage-secret-store.js';
import { createAppTray } from './tray.js';
import { APP_URL, buildWindowOptions, hardenWebContents } from './window.js';

// Thin over the host: windows, tray, IPC and the keychain. Everything else lives in src/.
const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');

let host: Host | undefined;
let window: BrowserWindow | undefined;
let quitting = false;
let hostClosed = false;

app.enableSandbox();
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { openExternal: (url) => shell.openExternal(url) }),
  );
  // Closing the window keeps the host running in the tray; only Quit stops it.
  app.on('window-all-closed', () => {});
  app.on('before-quit', (event) => {
    quitting = true;
    if (host === undefined || hostClosed) return;
    event.preventDefault();
    void host.close().finally(() => {
      hostClosed = true;
      app.quit();
    });
  });
  app.whenReady().then(start).catch(fail);
}

async function start(): Promise<void> {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  handleAppProtocol(protocol, rendererDir);

  const dataDir = app.getPath('userData');
  const secrets = await SafeStorageSecretStore.open(safeStorage, dataDir);
  for (const warning of secrets.warnings) console.warn(`toolbridge: ${warning}`);
  host = await createHost({
    dataDir,
    secretStore: secrets.store,
    port: DEFAULT_HOST_PORT,
    openUrl: (url) => void openExternalUrl(url, (vetted) => shell.openExternal(vetted)),
  });
  const api = host.api;
  // The app's window and tray are a UI for its whole life (closing the window keeps the tray), so
  // connection cards can hold calls instead of failing them at once.
  api.attachUi();
  registerIpc({ ipcMain, api, window: () => window });

  const openCards = new OpenCards();
  const tray = createAppTray({
    createTray: (icon) => new Tray(icon),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    createIcon: (dataUrl) => nativeImage.createFromDataURL(dataUrl),
    onOpen: showWindow,
    onQuit: () => app.quit(),
  });
  api.on('cardOpened', (card) => {
    tray.update(openCards.opened(card.id));
    if (!Notification.isSupported()) return;
    const notification = new Notification(cardNotice(card));
    notification.on('click', showWindow);
    notification.show();
  });
  api.on('cardResolved', ({ id }) => tray.update(openCards.closed(id)));
  tray.update(openCards.reset((await api.listCards()).map((card) => card.id)));

  app.on('activate', showWindow);
  showWindow();
}

function showWindow(): void {
  if (!app.isReady() || host === undefined) return;
  if (window === undefined || window.isDestroyed()) {
    const created = new BrowserWindow(buildWindowOptions(preloadPath));
    window = created;
    created.once('ready-to-show', () => created.show());
    created.on('close', (event) => {
      if (quitting) return;
      event.preventDefault();
      created.hide();
    });
    void created.loadURL(APP_URL);
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

function fail(error: unknown): void {
  dialog.showErrorBox('Toolbridge could not start', errorMessage(error));
  void (host?.close() ?? Promise.resolve()).finally(() => {
    hostClosed = true;
    app.quit();
  });
}
