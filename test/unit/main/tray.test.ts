import type { MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { OpenCards } from '../../../main/notifications.js';
import { createAppTray, trayLabel } from '../../../main/tray.js';

describe('tray', () => {
  it('shows the number of waiting cards in its tooltip, title and menu', () => {
    const tray = { on: vi.fn(), setToolTip: vi.fn(), setTitle: vi.fn(), setContextMenu: vi.fn() };
    const menus: MenuItemConstructorOptions[][] = [];
    const onQuit = vi.fn();
    const { update } = createAppTray({
      createTray: () => tray as unknown as Tray,
      createIcon: () => ({ setTemplateImage: vi.fn() }) as unknown as NativeImage,
      buildMenu: (template) => {
        menus.push(template);
        return {} as never;
      },
      onOpen: vi.fn(),
      onQuit,
    });
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Toolbridge: nothing waiting');
    update(3);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Toolbridge: 3 calls wait for you');
    expect(tray.setTitle).toHaveBeenLastCalledWith('3');
    const menu = menus.at(-1) ?? [];
    expect(menu.map((item) => item.label ?? item.type)).toEqual([
      'Open Toolbridge',
      '3 waiting: review in Cards…',
      'separator',
      'Quit Toolbridge',
    ]);
    (menu[3]!.click as () => void)();
    expect(onQuit).toHaveBeenCalled();
    expect(trayLabel(1)).toBe('Toolbridge: 1 call waits for you');
  });
});

describe('notifications', () => {
  it('counts open cards from opened and resolved events', () => {
    const cards = new OpenCards();
    expect(cards.reset(['a'])).toBe(1);
    expect(cards.opened('b')).toBe(2);
    expect(cards.opened('b')).toBe(2);
    expect(cards.closed('a')).toBe(1);
  });
});
