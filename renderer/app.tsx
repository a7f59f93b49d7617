import { useAttention, WaitingBanner } from './components/attention.js';
import { Icon } from './components/icons.js';
import { selectHostLost, selectPendingCardCount, selectServerCounts } from './store/selectors.js';
import { useAppStore, useAppStoreShallow } from './store/store-context.js';
import { VIEWS, type ViewId } from './store/ui-slice.js';
import { ActivityView } from './views/activity-view.js';
import { AgentsView } from './views/agents-view.js';
import { CardsView } from './views/cards-view.js';
import { ConnectionsView } from './views/connections-view.js';
import { PlaygroundView } from './views/playground-view.js';
import { ServersView } from './views/servers-view.js';
import { SettingsView } from './views/settings-view.js';
import { TiersView } from './views/tiers-view.js';

const LABELS: Record<ViewId, string> = {
  servers: 'Servers',
  connections: 'Connections',
  tiers: 'Tiers',
  cards: 'Cards',
  playground: 'Playground',
  activity: 'Activity',
  agents: 'Agents',
  settings: 'Settings',
};

const VIEW_COMPONENTS: Record<ViewId, () => React.JSX.Element> = {
  servers: ServersView,
  connections: ConnectionsView,
  tiers: TiersView,
  cards: CardsView,
  playground: PlaygroundView,
  activity: ActivityView,
  agents: AgentsView,
  settings: SettingsView,
};

export function App(props: { mode: 'electron' | 'web' }) {
  const { view, setView, connection } = useAppStoreShallow((s) => ({
    view: s.view,
    setView: s.setView,
    connection: s.connection,
  }));
  const pending = useAppStore(selectPendingCardCount);
  const servers = useAppStoreShallow(selectServerCounts);
  const hostLost = useAppStore(selectHostLost);
  const Current = VIEW_COMPONENTS[view];

  useAttention(props.mode);

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Views">
        <div className="brand">
          <span className="brand-mark">
            <Icon name="brand" size={16} />
          </span>
          Toolbridge
        </div>
        {VIEWS.map((id) => (
          <button
            key={id}
            type="button"
            className="nav-item"
            aria-current={view === id ? 'page' : undefined}
            data-testid={`nav-${id}`}
            onClick={() => setView(id)}
          >
            <Icon name={id} />
            {LABELS[id]}
            {id === 'cards' && pending > 0 && (
              <span className="nav-count" data-testid="nav-cards-count">
                {pending}
              </span>
            )}
            {id === 'servers' && servers.failing > 0 && (
              <span className="nav-count bad" title={`${servers.failing} failing`}>
                {servers.failing}
              </span>
            )}
          </button>
        ))}
        <div className="sidebar-foot" data-testid="sidebar-servers">
          {hostLost ? (
            <span className="bad-text">Toolbridge is not reachable: server states unknown</span>
          ) : (
            `${servers.connected}/${servers.total} servers connected`
          )}
          <br />
          {props.mode === 'web' ? 'Web mode · 127.0.0.1 only' : 'Desktop app'}
        </div>
      </nav>
      <main className="main">
        {connection === 'reconnecting' && (
          <div className="banner warn" data-testid="connection-banner">
            Lost the connection to Toolbridge. Reconnecting… (is `toolbridge serve` still running?)
          </div>
        )}
        {connection === 'signed-out' && (
          <div className="banner bad" data-testid="connection-banner">
            This page was signed out. Open the newest ui: link that `toolbridge serve` printed.
          </div>
        )}
        <WaitingBanner mode={props.mode} />
        {/* A disabled fieldset disables every control in the view while the host is gone. */}
        <fieldset className="view-frame" disabled={hostLost} data-testid="view-frame">
          <Current />
        </fieldset>
      </main>
      <Notices />
    </div>
  );
}

function Notices() {
  const { notices, dismiss } = useAppStoreShallow((s) => ({ notices: s.notices, dismiss: s.dismissNotice }));
  if (notices.length === 0) return null;
  return (
    <div className="notices" aria-live="polite">
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`notice ${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          <p>{notice.text}</p>
          <button
            type="button"
            className="small ghost"
            aria-label="Dismiss"
            onClick={() => dismiss(notice.id)}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
