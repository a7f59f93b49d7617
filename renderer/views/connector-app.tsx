import { useState } from 'react';
import type { AccountStatus, ConnectorAppView } from '../../src/api/ui-api.js';
import { AppLogo } from '../components/app-logo.js';
import { ErrorText, ExternalLink } from '../components/common.js';
import {
  type AliasDraft,
  accountStateLabel,
  appStateLabel,
  type ConnectAction,
  useAliasDraft,
  useConnectAction,
} from '../drafts/connection-draft.js';
import { useAppStore } from '../store/store-context.js';
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
        <h2 className="grow">
          {app.app.title}
          {app.app.title.toLowerCase() !== id && <span className="faint small"> · {id}</span>}
        </h2>
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
          <button
            type="button"
            className="small"
            aria-expanded={toolsOpen}
            data-testid={`connection-tools-toggle-${id}`}
            onClick={() => setToolsOpen(!toolsOpen)}
          >
            {toolsOpen ? 'Hide tools' : 'Tools & approval'}
          </button>
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

function AccountRow(props: {
  connector: string;
  account: AccountStatus;
  aliases: string[];
  action: ConnectAction;
}) {
  const { account, connector, action } = props;
  const renameConnectorAccount = useAppStore((s) => s.renameConnectorAccount);
  const rename = useAliasDraft(
    props.aliases,
    (to) => renameConnectorAccount(connector, account.alias, to),
    account.alias,
  );
  const testId = `connection-account-${connector}-${account.alias}`;
  // The default account is linked without an alias, as a held call for it waits.
  const target = account.default ? {} : { alias: account.alias };
  return (
    <li className="account-row" data-testid={testId}>
      {rename.editing ? (
        <AliasForm
          draft={rename}
          label={`Rename ${account.alias}`}
          submit="Rename"
          testId={`${testId}-rename`}
        />
      ) : (
        <div className="row">
          <strong className="mono">{account.alias}</strong>
          {account.default && <span className="badge plain">default</span>}
          <span className={`badge ${account.connected ? 'ok' : 'warn'}`} data-testid={`${testId}-state`}>
            {accountStateLabel(account)}
          </span>
          <span className="grow" />
          <button
            type="button"
            className="small ghost"
            data-testid={`${testId}-rename-start`}
            onClick={rename.start}
          >
            Rename
          </button>
          <button
            type="button"
            className="small"
            disabled={action.busy}
            data-testid={`${testId}-connect`}
            onClick={() => void action.connect({ ...target, reconnect: account.connected })}
          >
            {account.connected ? 'Reconnect' : 'Connect'}
          </button>
        </div>
      )}
    </li>
  );
}

/** Inline alias field: checked as typed rules go, saved on Enter, Esc cancels. */
function AliasForm(props: { draft: AliasDraft; label: string; submit: string; testId: string }) {
  const { draft } = props;
  return (
    <form
      className="inline-form account-form"
      data-testid={props.testId}
      onSubmit={(event) => {
        event.preventDefault();
        void draft.save();
      }}
    >
      <label className="field">
        {props.label}
        <input
          value={draft.value}
          aria-invalid={draft.error !== undefined}
          data-testid={`${props.testId}-input`}
          onChange={(event) => draft.edit(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') draft.cancel();
          }}
        />
      </label>
      <button
        type="submit"
        className="small primary"
        disabled={draft.busy}
        data-testid={`${props.testId}-save`}
      >
        {props.submit}
      </button>
      <button type="button" className="small" onClick={draft.cancel}>
        Cancel
      </button>
      {draft.error !== undefined && <ErrorText testId={`${props.testId}-error`}>{draft.error}</ErrorText>}
    </form>
  );
}
