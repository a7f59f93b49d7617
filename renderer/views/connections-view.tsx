import { useEffect } from 'react';
import type { ConnectionsView as Connections, ServerView } from '../../src/api/ui-api.js';
import { EmptyState, ViewHeader } from '../components/common.js';
import { ServerSignIn } from '../components/sign-in-needed.js';
import { selectServerList } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { ConnectorApp } from './connector-app.js';

/**
 * Connector apps and their accounts from the gateway, with Connect, rename and per-tool
 * approval; MCP servers that need sign-in are listed here too. Lists again on every
 * `connectionsChanged` (a card's Connect or Skip, a link allowed in the browser).
 */
export function ConnectionsView() {
  const { connections, load } = useAppStoreShallow((s) => ({
    connections: s.appConnections,
    load: s.loadConnections,
  }));
  const signIn = useAppStoreShallow((s) =>
    selectServerList(s).filter((server) => server.status === 'needs-auth'),
  );
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="view">
      <ViewHeader
        title="Connections"
        lede="Apps you link on your connector gateway, their accounts and what agents may do with their tools; and MCP servers waiting for you to sign in."
        actions={
          <button
            type="button"
            className="small"
            data-testid="connections-refresh"
            onClick={() => void load()}
          >
            Refresh
          </button>
        }
      />
      {signIn.length > 0 && <SignInServers servers={signIn} />}
      <h3 className="section-title">Connector apps</h3>
      {connections === undefined ? (
        <p className="muted">Loading…</p>
      ) : connections.state !== 'ready' ? (
        <GatewayState view={connections} />
      ) : connections.apps.length === 0 ? (
        <EmptyState title="No apps on the gateway yet" testId="connections-no-apps">
          The connector gateway lists no apps for your sign-in. Add the apps you want on the gateway itself,
          then press Refresh; agents can also ask for one with manage_connections.
        </EmptyState>
      ) : (
        <div className="stack" data-testid="connections-apps">
          {connections.apps.map((app) => (
            <ConnectorApp key={app.connector} app={app} />
          ))}
        </div>
      )}
    </div>
  );
}

const GATEWAY_TITLES: Record<Exclude<Connections['state'], 'ready'>, string> = {
  not_configured: 'No connector gateway yet',
  disabled: 'Connectors are switched off',
  signed_out: 'Sign in to the connector gateway',
  sign_in_expired: 'Sign in to the connector gateway again',
  unreachable: 'The connector gateway is not answering',
};

/** Why there is no list, and the one thing to do about it. */
function GatewayState(props: { view: Connections }) {
  const { view } = props;
  const setView = useAppStore((s) => s.setView);
  const load = useAppStore((s) => s.loadConnections);
  if (view.state === 'ready') return null;
  const toSettings = view.state !== 'unreachable';
  return (
    <EmptyState
      title={GATEWAY_TITLES[view.state]}
      testId={`connections-state-${view.state}`}
      actions={
        toSettings ? (
          <button
            type="button"
            className="primary"
            data-testid="connections-to-settings"
            onClick={() => setView('settings')}
          >
            {view.state === 'not_configured'
              ? 'Add your connector gateway in Settings → Connectors'
              : 'Open Settings → Connectors'}
          </button>
        ) : (
          <button type="button" data-testid="connections-retry" onClick={() => void load()}>
            Try again
          </button>
        )
      }
    >
      {view.message}
    </EmptyState>
  );
}

function SignInServers(props: { servers: ServerView[] }) {
  return (
    <>
      <h3 className="section-title">MCP servers that need you to sign in</h3>
      <div className="stack" data-testid="connections-sign-in">
        {props.servers.map((server) => (
          <section
            key={server.id}
            className="panel panel-body"
            data-testid={`connections-server-${server.id}`}
          >
            <h2 className="small">{server.name}</h2>
            <ServerSignIn server={server} />
          </section>
        ))}
      </div>
    </>
  );
}
