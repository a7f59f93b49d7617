import type { AccountStatus } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import {
  type AliasDraft,
  accountStateLabel,
  type ConnectAction,
  useAliasDraft,
} from '../drafts/connection-draft.js';
import { useAppStore } from '../store/store-context.js';

/** One account of an app: alias, default mark, state, Rename in place and its own Connect. */
export function AccountRow(props: {
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
export function AliasForm(props: { draft: AliasDraft; label: string; submit: string; testId: string }) {
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
