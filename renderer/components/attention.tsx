import { useEffect, useRef, useState } from 'react';
import { cardNotice, waitingLine } from '../../src/api/card-notice.js';
import type { CardView } from '../../src/api/ui-api.js';
import { selectCardsNewestFirst } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

/** localStorage key: the person turned browser notifications on here. */
const NOTIFY_KEY = 'toolbridge.notifications';
const FAVICON = './favicon.svg';
const FAVICON_WAITING = './favicon-waiting.svg';

/**
 * Never miss a card: the tab title counts what waits and the favicon carries a badge. In web
 * mode, new cards also raise a browser notification (agent and tool) once the person opted in,
 * unless they are looking at the page. The desktop app does both through the tray and the OS.
 */
export function useAttention(mode: 'electron' | 'web'): void {
  const cards = useAppStoreShallow(selectCardsNewestFirst);
  const loaded = useAppStore((s) => s.cardsLoaded);
  const count = cards.length;
  useEffect(() => {
    document.title = count > 0 ? `(${count}) Toolbridge · waiting for you` : 'Toolbridge';
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon !== null) icon.href = count > 0 ? FAVICON_WAITING : FAVICON;
  }, [count]);

  // Cards already open when the page loaded are on screen; only new ones notify.
  const known = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!loaded) return;
    const ids = new Set(cards.map((card) => card.id));
    const before = known.current;
    known.current = ids;
    if (before === undefined || mode !== 'web' || !notificationsOn()) return;
    const looking = document.visibilityState === 'visible' && document.hasFocus();
    if (looking) return;
    for (const card of cards) if (!before.has(card.id)) notify(card);
  }, [cards, loaded, mode]);
}

function notify(card: CardView): void {
  const { title, body } = cardNotice(card);
  try {
    const note = new Notification(`Toolbridge: ${title}`, { body, tag: card.id });
    note.onclick = () => window.focus();
  } catch {
    // Some browsers only notify from a service worker; the banner and title still show it.
  }
}

function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

function notificationsOn(): boolean {
  return (
    notificationsSupported() &&
    Notification.permission === 'granted' &&
    localStorage.getItem(NOTIFY_KEY) === 'on'
  );
}

/** Shown on every view while anything waits: who asks for what, a way to it, and the notification opt-in. */
export function WaitingBanner(props: { mode: 'electron' | 'web' }) {
  const cards = useAppStoreShallow(selectCardsNewestFirst);
  const { view, setView } = useAppStoreShallow((s) => ({ view: s.view, setView: s.setView }));
  const [on, setOn] = useState(notificationsOn);
  if (cards.length === 0) return null;
  const offerNotifications =
    props.mode === 'web' && notificationsSupported() && !on && Notification.permission !== 'denied';
  const turnOn = async () => {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return setOn(false);
    localStorage.setItem(NOTIFY_KEY, 'on');
    setOn(true);
  };
  return (
    <div className="banner waiting" role="status" data-testid="waiting-banner">
      <span className="grow" data-testid="waiting-banner-text">
        {waitingLine(cards)}.
      </span>
      {view !== 'cards' && (
        <button
          type="button"
          className="small primary"
          data-testid="waiting-banner-review"
          onClick={() => setView('cards')}
        >
          Review in Cards
        </button>
      )}
      {offerNotifications && (
        <button
          type="button"
          className="small"
          data-testid="waiting-banner-notify"
          onClick={() => void turnOn()}
        >
          Notify me in this browser
        </button>
      )}
      {props.mode === 'web' && on && (
        <button
          type="button"
          className="small ghost"
          data-testid="waiting-banner-notify-off"
          onClick={() => {
            localStorage.removeItem(NOTIFY_KEY);
            setOn(false);
          }}
        >
          Stop notifications
        </button>
      )}
    </div>
  );
}
