import type { SettingsView } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import { Field } from '../components/field.js';
import { canSignIn, useGatewayDraft } from '../drafts/gateway-draft.js';
import { useAppStoreShallow } from '../store/store-context.js';

/** Its own form: the gateway is saved, signed in and out apart from the other settings. */
export function ConnectorsSection(props: { settings: SettingsView }) {
  const { connectors } = props.settings;
  const actions = useAppStoreShallow((s) => ({
    save: s.updateSettings,
    signIn: s.signInConnectorGateway,
    signOut: s.signOutConnectorGateway,
  }));
  const gateway = useGatewayDraft(connectors, actions);
  return (
    <>
      <h3 className="section-title">Connectors</h3>
      <section className="panel panel-body" data-testid="settings-connectors">
        <p className="muted small">
          Remote apps (GitHub, Slack, …) reached through a connector gateway. Agents see them as{' '}
          <span className="mono">connectors__app__tool</span> and get{' '}
          <span className="mono">manage_connections</span> while a gateway is set and switched on.
        </p>
        <GatewayForm gateway={gateway} />
        <div className="mt-m" data-testid="settings-gateway-sign-in">
          <span className={`badge ${connectors.signedIn ? 'ok' : 'warn'}`}>
            {connectors.signedIn ? 'signed in' : 'not signed in'}
          </span>
          {connectors.signedIn ? (
            <button
              type="button"
              className="small"
              data-testid="settings-gateway-sign-out"
              onClick={() => void gateway.signOut()}
            >
              Sign out
            </button>
          ) : (
            <GatewaySignIn gateway={gateway} />
          )}
        </div>
        {gateway.status.saved && <span className="badge ok mt-s">Saved</span>}
        {gateway.status.error !== undefined && (
          <ErrorText testId="settings-connectors-error">{gateway.status.error}</ErrorText>
        )}
      </section>
    </>
  );
}

type Gateway = ReturnType<typeof useGatewayDraft>;

function GatewayForm(props: { gateway: Gateway }) {
  const { draft, edit } = props.gateway;
  return (
    <form
      className="form-grid mt-m"
      onSubmit={(event) => {
        event.preventDefault();
        void props.gateway.save();
      }}
      onChange={props.gateway.status.touch}
    >
      <Field label="Gateway URL" hint="Empty turns connectors off">
        <input
          data-testid="settings-gateway-url"
          type="url"
          placeholder="https://gateway.example"
          value={draft.url}
          onChange={(e) => edit({ url: e.target.value })}
        />
      </Field>
      <Field label="Connectors" hint="Off keeps the URL but hides connectors from agents">
        <select
          data-testid="settings-connectors-enabled"
          value={draft.enabled ? 'on' : 'off'}
          onChange={(e) => edit({ enabled: e.target.value === 'on' })}
        >
          <option>on</option>
          <option>off</option>
        </select>
      </Field>
      <div className="form-actions">
        <button type="submit" data-testid="settings-connectors-save">
          Save gateway
        </button>
      </div>
    </form>
  );
}

function GatewaySignIn(props: { gateway: Gateway }) {
  const { draft, edit } = props.gateway;
  return (
    <form
      className="inline-form mt-s"
      onSubmit={(event) => {
        event.preventDefault();
        void props.gateway.signIn();
      }}
    >
      <input
        data-testid="settings-gateway-token"
        type="password"
        autoComplete="off"
        placeholder="Gateway token"
        value={draft.token}
        onChange={(e) => edit({ token: e.target.value })}
      />
      <button type="submit" className="small primary" disabled={!canSignIn(draft)}>
        Sign in
      </button>
    </form>
  );
}
