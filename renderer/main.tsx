import { createRoot } from 'react-dom/client';
import { type ConnectionState, connect } from './api/index.js';
import { App } from './app.js';
import { bindHost, loadAll } from './store/bind-host.js';
import { type AppStore, createAppStore } from './store/index.js';
import { StoreProvider } from './store/store-context.js';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

function Message(props: { title: string; children: React.ReactNode }) {
  return (
    <div className="boot">
      <div className="panel panel-body boot-card" data-testid="boot-message">
        <h1>{props.title}</h1>
        <p className="muted mt-m">{props.children}</p>
      </div>
    </div>
  );
}

async function start(): Promise<void> {
  let store: AppStore | undefined;
  let previous: ConnectionState | undefined;
  const onConnectionChange = (state: ConnectionState) => {
    store?.getState().setConnection(state);
    // Events sent while the socket was down are lost: reload everything once it is back.
    if (state === 'open' && previous === 'reconnecting' && store !== undefined) void loadAll(store);
    previous = state;
  };
  const connection = await connect(onConnectionChange);
  if (connection.state === 'signed-out') {
    root.render(
      <Message title="Open the link from toolbridge serve">
        This page needs the one-time link that <code>toolbridge serve</code> prints (the line starting with
        ui:). Each link works once; restart <code>toolbridge serve</code> for a fresh one.
      </Message>,
    );
    return;
  }
  store = createAppStore(connection.api, connection.state, window.localStorage);
  bindHost(connection.api, store);
  void loadAll(store);
  root.render(
    <StoreProvider store={store}>
      <App mode={connection.mode} />
    </StoreProvider>,
  );
}

root.render(<Message title="Connecting to Toolbridge…">Starting up.</Message>);
start().catch((error: unknown) => {
  root.render(
    <Message title="Toolbridge could not start the UI">
      {error instanceof Error ? error.message : String(error)}. Reload the page; if it keeps failing, check
      that Toolbridge is running.
    </Message>,
  );
});
