import { useState } from 'react';
import type { ConnectorAppView } from '../../src/api/ui-api.js';
import { AppLogo } from '../components/app-logo.js';
import { ErrorText, ExternalLink } from '../components/common.js';
import { DetailsToggle, ItemTitle } from '../components/item-head.js';
import {
  appStateLabel,
  type ConnectAction,
  useAliasDraft,
  useConnectAction,
} from '../drafts/connection-draft.js';
import { useAppStore } from '../store/store-context.js';
import { AccountRow, AliasForm } from './connector-account.js';
import { ConnectorTools } from './connector-tools.js';

/** One app: its logo, name and state, Connect or Reconnect, its accounts and (on request) its tools. */
export function ConnectorApp(props: { app: ConnectorAppView }) {
  const { app } = props;
  const id = app.connector;
  const connectApp = useAppStore((s) => s.connectApp);
  const action = useConnectAction(connectApp, id);
  const [toolsOpen, setToolsOpen] = useState(false);
  const aliases = app.accounts.map((account) => account.alias);
  const adding = useAliasDraft(aliases, (alias) => action.connect({ alias }));
  return (
    <section className="panel" data-testid={`connection-${id}`}>
      <div className="server-head">
        <AppLogo app={app.app} name={id} size={22} />
        <div className="grow">
          <ItemTitle name={app.app.title} id={id} showId={app.app.title.toLowerCase() !== id} />
        </div>
        <span className={`badge ${app.connected ? 'ok' : 'warn'}`} data-testid={`connection-state-${id}`}>
          {appStateLabel(app)}
        </span>
        <div className="server-controls">
          <button
            type="button"
            className={`small${app.connected ? '' : ' primary'}`}
            disabled={action.busy}
            data-testid={`connection-connect-${id}`}
            onClick={() => void action.connect(app.connected ? { reconnect: true } : {})}
          >
            {app.connected ? 'Reconnect' : 'Connect'}
          </button>
          <button
            type="button"
            className="small"
            data-testid={`connection-add-account-${id}`}
            onClick={adding.start}
          >
            Add account
          </button>
          <DetailsToggle
            open={toolsOpen}
            onToggle={() => setToolsOpen(!toolsOpen)}
            openLabel="Hide tools"
            closedLabel="Tools & approval"
            testId={`connection-tools-toggle-${id}`}
          />
        </div>
      </div>
      <ConnectNotice action={action} id={id} />
      {app.accounts.length > 0 && (
        <ul className="account-list" data-testid={`connection-accounts-${id}`}>
          {app.accounts.map((account) => (
            <AccountRow
              key={account.alias}
              connector={id}
              account={account}
              aliases={aliases}
              action={action}
            />
          ))}
        </ul>
      )}
      {adding.editing && (
        <AliasForm
          draft={adding}
          label="New account's alias"
          submit="Connect"
          testId={`connection-new-alias-${id}`}
        />
      )}
      {toolsOpen && <ConnectorTools app={app} />}
    </section>
  );
}

/** The page the gateway opened, kept in case the tab was blocked, or why linking failed. */
function ConnectNotice(props: { action: ConnectAction; id: string }) {
  const { action } = props;
  if (action.error !== undefined)
    return (
      <div className="server-error">
        <ErrorText testId={`connection-error-${props.id}`}>{action.error}</ErrorText>
      </div>
    );
  if (action.link === undefined) return null;
  return (
    <p className="server-error small muted" data-testid={`connection-link-${props.id}`}>
      Allow access on the gateway's page (<ExternalLink href={action.link}>open it again</ExternalLink>); this
      list updates once you have.
    </p>
  );
}
