import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardNotice, waitingCount } from '../../../src/api/card-notice.js';
import { UI_METHODS } from '../../../src/api/ui-api.js';
import { approvalCardView } from '../../fixtures/card-views.js';
import { createFakeApi } from '../web/fake-api.js';

/** Just enough of Electron for main/index.ts, recording what it is asked to do. */
const m = vi.hoisted(() => {
  const state = {
    order: [] as string[],
    lock: true,
    ready: undefined as undefined | (() => void),
    userData: '',
    windows: [] as Array<{
      options: unknown;
      loaded: string[];
      visible: boolean;
      emit: (e: string, ...a: unknown[]) => void;
    }>,
    handlers: new Map<string, unknown>(),
    notifications: [] as Array<{ title: string; body: string }>,
    permissionRequest: undefined as undefined | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
    permissionCheck: undefined as undefined | ((c: unknown, p: string) => boolean),
    trayTooltips: [] as string[],
  };
  return { state };
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const { state } = m;
  const app = Object.assign(new Emitter(), {
    enableSandbox: () => state.order.push('enableSandbox'),
    requestSingleInstanceLock: () => state.lock,
    quit: vi.fn(() => app.emit('before-quit', { preventDefault: () => state.order.push('quit-held') })),
    whenReady: () =>
      new Promise<void>((resolve) => {
        state.ready = resolve;
      }),
    isReady: () => state.ready === undefined,
    getPath: () => state.userData,
  });
  class BrowserWindow extends Emitter {
    webContents = Object.assign(new Emitter(), {
      mainFrame: { url: 'app://bundle/index.html' },
      isDestroyed: () => false,
      send: vi.fn(),
      setWindowOpenHandler: vi.fn(),
    });
    record: (typeof state.windows)[number];
    constructor(options: unknown) {
      super();
      this.record = { options, loaded: [], visible: false, emit: (e, ...a) => this.emit(e, ...a) };
      state.windows.push(this.record);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
    show() {
      this.record.visible = true;
    }
    hide() {
      this.record.visible = false;
    }
    focus() {}
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
  }
  class Notification {
    static isSupported = () => true;
    constructor(private readonly options: { title: string; body: string }) {}
    on() {}
    show() {
      state.notifications.push(this.options);
    }
  }
  class Tray {
    on() {}
    setToolTip(text: string) {
      state.trayTooltips.push(text);
    }
    setTitle() {}
    setContextMenu() {}
  }
  return {
    app,
    BrowserWindow,
    Notification,
    Tray,
    dialog: { showErrorBox: vi.fn() },
    ipcMain: {
      handle: (channel: string, handler: unknown) => state.handlers.set(channel, handler),
      removeHandler: (channel: string) => state.handlers.delete(channel),
    },
    Menu: { buildFromTemplate: () => ({}) },
    nativeImage: { createFromDataURL: () => ({ setTemplateImage: () => {} }) },
    protocol: {
      registerSchemesAsPrivileged: () => state.order.push('registerScheme'),
      handle: () => state.order.push('protocol.handle'),
    },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => false,
      getSelectedStorageBackend: () => 'basic_text',
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof state.permissionRequest) => {
          state.permissionRequest = handler;
        },
        setPermissionCheckHandler: (handler: typeof state.permissionCheck) => {
          state.permissionCheck = handler;
        },
      },
    },
    shell: { openExternal: vi.fn() },
  };
});

const host = vi.hoisted(() => ({
  close: vi.fn(async () => {}),
  api: undefined as unknown,
  created: 0,
  port: undefined as number | undefined,
  attachedUis: 0,
}));
vi.mock('../../../src/host/host.js', () => ({
  DEFAULT_HOST_PORT: 7345,
  createHost: async (options: { dataDir: string; secretStore: { kind: string }; port?: number }) => {
    host.created++;
    host.port = options.port;
    m.state.order.push(`createHost:${options.secretStore.kind}`);
    return host;
  },
}));

let fake: ReturnType<typeof createFakeApi>;
beforeEach(async () => {
  vi.resetModules();
  Object.assign(m.state, {
    order: [],
    lock: true,
    ready: undefined,
    windows: [],
    handlers: new Map(),
    notifications: [],
    trayTooltips: [],
    userData: await mkdtemp(join(tmpdir(), 'toolbridge-main-')),
  });
  fake = createFakeApi({ listCards: async () => [] });
  host.api = {
    ...fake.api,
    attachUi: () => {
      host.attachedUis++;
      return { dispose() {} };
    },
  };
  host.close.mockClear();
  host.created = 0;
  host.attachedUis = 0;
});
afterEach(() => {
  vi.clearAllMocks();
});

async function startApp() {
  const electron = await import('electron');
  await import('../../../main/index.js');
  m.state.ready?.();
  m.state.ready = undefined;
  await vi.waitFor(() => expect(m.state.windows).toHaveLength(1));
  return electron;
}

describe('main/index.ts', () => {
  it('enables the sandbox and registers app:// before ready, then opens one hardened window', async () => {
    await startApp();
    expect(m.state.order.slice(0, 2)).toEqual(['enableSandbox', 'registerScheme']);
    expect(m.state.order).toContain('createHost:file-0600');
    // A fixed port keeps agents' configs valid; the app counts as a UI so connection cards can hold calls.
    expect(host.port).toBe(7345);
    expect(host.attachedUis).toBe(1);
    const window = m.state.windows[0]!;
    expect(window.loaded).toEqual(['app://bundle/index.html']);
    expect(window.options).toMatchObject({ webPreferences: { sandbox: true, contextIsolation: true } });
    expect([...m.state.handlers.keys()].sort()).toEqual(UI_METHODS.map((x) => `toolbridge:${x}`).sort());
  });

  it('denies permission requests and checks (E5)', async () => {
    await startApp();
    for (const permission of ['media', 'geolocation', 'notifications']) {
      const callback = vi.fn();
      m.state.permissionRequest?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(m.state.permissionCheck?.({}, permission)).toBe(false);
    }
  });

  it('quits at once when another instance holds the lock', async () => {
    m.state.lock = false;
    const { app } = await import('electron');
    await import('../../../main/index.js');
    expect(app.quit).toHaveBeenCalled();
    expect(m.state.ready).toBeUndefined();
  });

  it('keeps the host running when the window closes, and stops it on quit', async () => {
    const { app } = await startApp();
    const window = m.state.windows[0]!;
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
    const close = { preventDefault: vi.fn() };
    window.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(window.visible).toBe(false);
    expect(host.close).not.toHaveBeenCalled();

    const quit = { preventDefault: vi.fn() };
    app.emit('before-quit', quit);
    expect(quit.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
    expect(host.close).toHaveBeenCalledTimes(1);
    const closeWhileQuitting = { preventDefault: vi.fn() };
    window.emit('close', closeWhileQuitting);
    expect(closeWhileQuitting.preventDefault).not.toHaveBeenCalled();
  });

  // The words are src/api/card-notice.ts's (test/unit/api/card-notice.test.ts); main shows them.
  it('shows a notification and the tray count when a card opens', async () => {
    await startApp();
    await vi.waitFor(() => expect(m.state.trayTooltips.at(-1)).toBe(`Toolbridge: ${waitingCount(0)}`));
    const card = approvalCardView({ id: 'c1' });
    fake.emit('cardOpened', card);
    expect(m.state.notifications).toEqual([cardNotice(card)]);
    expect(m.state.trayTooltips.at(-1)).toBe(`Toolbridge: ${waitingCount(1)}`);
    fake.emit('cardResolved', { id: 'c1', outcome: 'approved' });
    expect(m.state.trayTooltips.at(-1)).toBe(`Toolbridge: ${waitingCount(0)}`);
  });

  it('reopens the window from a second launch', async () => {
    const { app } = await startApp();
    const window = m.state.windows[0]!;
    window.emit('close', { preventDefault: () => {} });
    app.emit('second-instance');
    expect(window.visible).toBe(true);
    expect(m.state.windows).toHaveLength(1);
  });
});
