import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { APP_URL, buildWindowOptions, hardenWebContents, isAppUrl } from '../../../main/window.js';

describe('buildWindowOptions (security checklist E2–E11)', () => {
  it('isolates and sandboxes the renderer and turns off everything it does not need', () => {
    const options = buildWindowOptions('/app/out/preload/index.cjs');
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
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
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.show).toBe(false);
  });
});

describe('isAppUrl', () => {
  it.each([
    [APP_URL, true],
    ['app://bundle/assets/index.js', true],
    ['app://bundle.evil.example/index.html', false],
    ['app://other/index.html', false],
    ['https://bundle/index.html', false],
    ['file:///app/out/renderer/index.html', false],
    ['https://evil.example/?app://bundle/', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAppUrl(url)).toBe(expected);
  });
});

/** Enough of WebContents for the hardening: events, the window-open handler. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  navigate(event: string, url: string) {
    const result = {
      url,
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    if (event === 'will-frame-navigate') this.emit(event, result);
    else this.emit(event, result, url);
    return result.defaultPrevented;
  }
}

function harden(now: () => number) {
  const contents = new FakeContents();
  const openExternal = vi.fn(async () => {});
  hardenWebContents(contents as unknown as WebContents, { openExternal, now, userActivationMs: 1000 });
  return { contents, openExternal };
}

describe('hardenWebContents', () => {
  it('blocks navigation and redirects away from our pages (E13)', () => {
    const { contents } = harden(() => 0);
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      expect(contents.navigate(event, 'https://evil.example/')).toBe(true);
      expect(contents.navigate(event, 'file:///etc/passwd')).toBe(true);
      expect(contents.navigate(event, 'app://bundle/index.html')).toBe(false);
    }
  });

  it('prevents attaching a webview (E12)', () => {
    const { contents } = harden(() => 0);
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event);
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('denies every new window, opening a safe link outside only right after a user click (E14)', async () => {
    let time = 10_000;
    const { contents, openExternal } = harden(() => time);
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();

    contents.emit('input-event', {}, { type: 'mouseDown' });
    time += 500;
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    // The handler opens it before it returns: a late open could not be told from none.
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/');

    time += 2000;
    contents.openHandler?.({ url: 'https://example.com/later' });
    contents.emit('input-event', {}, { type: 'mouseMove' });
    contents.openHandler?.({ url: 'https://example.com/moved' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});
