import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.js';
import { assertBuilt, ROOT } from './e2e-kit.js';

const binary = findElectronBinary();
if ('reason' in binary) {
  process.stdout.write(`electron e2e: skipped, ${binary.reason}\n`);
}

describe('desktop app (Electron)', () => {
  it.skipIf('reason' in binary)(
    'opens one sandboxed window on app:// with the typed bridge and no Node',
    async () => {
      if (!('path' in binary)) return;
      assertBuilt();
      const userData = await mkdtemp(join(tmpdir(), 'toolbridge-electron-'));
      const app = await electron.launch({
        executablePath: binary.path,
        args: [ROOT, `--user-data-dir=${userData}`],
        env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
      });
      try {
        const page = await app.firstWindow();
        await page.getByTestId('nav-servers').waitFor();
        expect(page.url()).toBe('app://bundle/index.html');
        const exposed = await page.evaluate(() => ({
          keys: Object.keys((window as unknown as { toolbridge: object }).toolbridge).sort(),
          node: typeof (globalThis as { require?: unknown }).require,
          process: typeof (globalThis as { process?: unknown }).process,
        }));
        expect(exposed.keys).toContain('listServers');
        expect(exposed.keys).toContain('on');
        expect(exposed.node).toBe('undefined');
        expect(exposed.process).toBe('undefined');
        const servers = await page.evaluate(() =>
          (
            window as unknown as { toolbridge: { listServers(): Promise<unknown[]> } }
          ).toolbridge.listServers(),
        );
        expect(Array.isArray(servers)).toBe(true);
        // Navigation away from app:// is blocked: the main process hears the attempt, and the
        // window's handler (added before this listener) has prevented it. Electron versions differ
        // in which of the two events comes first; a navigation let through ends in did-navigate or
        // did-fail-load (no network here).
        await app.evaluate(({ BrowserWindow }) => {
          const contents = BrowserWindow.getAllWindows()[0]!.webContents;
          (globalThis as { navigationBlocked?: Promise<boolean> }).navigationBlocked = new Promise(
            (resolve) => {
              const heard = (event: { defaultPrevented: boolean }) => {
                if (event.defaultPrevented) resolve(true);
              };
              contents.on('will-navigate', heard);
              contents.on('will-frame-navigate', heard);
              contents.on('did-navigate', () => resolve(false));
              contents.on('did-fail-load', () => resolve(false));
            },
          );
        });
        await page.evaluate(() => {
          window.location.href = 'https://evil.example/';
        });
        expect(
          await app.evaluate(
            () => (globalThis as { navigationBlocked?: Promise<boolean> }).navigationBlocked,
          ),
        ).toBe(true);
        expect(page.url()).toBe('app://bundle/index.html');
      } finally {
        await app.close();
        await rm(userData, { recursive: true, force: true });
      }
    },
  );
});
