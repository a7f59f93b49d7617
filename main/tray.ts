import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import { waitingCount } from '../src/api/card-notice.js';

/** A 32×32 black bridge on transparent: a template image, so macOS tints it for light and dark bars. */
const TRAY_ICON_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAzUlEQVR42mNgGAWjgDIgAMV0A3pA3AbEx4D4NxD/h+LfULE2qBqqgulQvBHJQkJ4I5I+ioAQEJ9BM/wUEFcAsT1U7gyUXQGVQ1Z7BmoGWSAIiJ8gGbYViF3Q1MAcgAxcoGph+p5AzSIJdCAZ8BKLJfgcgCz3EsmcDmIszgLiHUiaViJZUo8FEyO3Esm8HVA7cFr+n044a1A6AOYI9KCEaaonEePSl0VKYkQ3iNb6Rh0w6oBRB4w6YNQBow7AW0Vn0UEfTsOy6KhvFNAXAAAB9t9xkXNKewAAAABJRU5ErkJggg==';

export interface TrayParts {
  createTray: (icon: NativeImage) => Tray;
  buildMenu: (template: MenuItemConstructorOptions[]) => Menu;
  createIcon: (dataUrl: string) => NativeImage;
  onOpen: () => void;
  onQuit: () => void;
}

/** What the tray says for a number of waiting cards: the web UI's banner words. */
export function trayLabel(pendingCards: number): string {
  return `Toolbridge: ${waitingCount(pendingCards)}`;
}

/**
 * The tray stays while the window is closed: it shows how many cards wait and reopens the window.
 * Returns the function that updates the count.
 */
export function createAppTray(parts: TrayParts): { update(pendingCards: number): void; tray: Tray } {
  const icon = parts.createIcon(`data:image/png;base64,${TRAY_ICON_PNG}`);
  icon.setTemplateImage(true);
  const tray = parts.createTray(icon);
  tray.on('click', parts.onOpen);
  const update = (pendingCards: number) => {
    tray.setToolTip(trayLabel(pendingCards));
    tray.setTitle(pendingCards > 0 ? String(pendingCards) : '');
    tray.setContextMenu(
      parts.buildMenu([
        { label: 'Open Toolbridge', click: parts.onOpen },
        {
          label: pendingCards > 0 ? `${pendingCards} waiting: review in Cards…` : 'No calls waiting',
          enabled: pendingCards > 0,
          click: parts.onOpen,
        },
        { type: 'separator' },
        { label: 'Quit Toolbridge', click: parts.onQuit },
      ]),
    );
  };
  update(0);
  return { update, tray };
}
