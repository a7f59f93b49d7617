import { useEffect, useState } from 'react';
import type {
  Policy,
  PolicyRuleView,
  SettingsView as Settings,
  ToolSearchSettings,
} from '../../src/api/ui-api.js';
import { ErrorText, ViewHeader } from '../components/common.js';
import { POLICY_BADGE } from '../components/policy-controls.js';
import { accountPhrase, formatTime } from '../lib/format.js';
import { useAppStoreShallow } from '../store/store-context.js';

const SECRET_STORE_TEXT: Record<Settings['secretStoreKind'], { badge: string; text: string }> = {
  'os-encrypted': {
    badge: 'ok',
    text: "Secrets (API keys, headers, tokens) are encrypted with your operating system's keychain and never written to the settings file or logs.",
  },
  'file-0600': {
    badge: 'warn',
    text: 'Secrets are kept in a separate file in the data folder that only your user account can read (permissions 0600). The file is not encrypted: any program running as you can read it.',
  },
  memory: {
    badge: 'bad',
    text: 'Secrets are kept in memory only: they are lost when Toolbridge stops, and servers that need them will fail after a restart.',
  },
};

const TRI_STATE = ['auto', 'on', 'off'] as const;
const POLICIES: Array<{ value: Policy; label: string }> = [
  { value: 'ask', label: 'Ask me (a card opens)' },
  { value: 'allow', label: 'Allow without asking' },
  { value: 'deny', label: 'Deny' },
];

interface Draft {
  toolSearch: ToolSearchSettings;
  defaultPolicy: Policy;
  cardTimeoutSeconds: string;
  callTimeoutSeconds: string;
  maxResultKib: string;
  redactionPatterns: string;
}

function toDraft(settings: Settings): Draft {
  return {
    toolSearch: settings.toolSearch,
    defaultPolicy: settings.defaultPolicy,
    cardTimeoutSeconds: String(settings.cardTimeoutMs / 1000),
    callTimeoutSeconds: String(settings.callTimeoutMs / 1000),
    maxResultKib: String(settings.maxResultBytes / 1024),
    redactionPatterns: settings.redactionPatterns.join('\n'),
  };
}

export function SettingsView() {
  const { settings, updateSettings } = useAppStoreShallow((s) => ({
    settings: s.settings,
    updateSettings: s.updateSettings,
  }));
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings !== undefined) setDraft(toDraft(settings));
  }, [settings]);

  if (settings === undefined || draft === undefined) {
    return (
      <div className="view">
        <ViewHeader title="Settings" lede="Loading…" />
      </div>
    );
  }
  const setSearch = (patch: Partial<ToolSearchSettings>) =>
    setDraft({ ...draft, toolSearch: { ...draft.toolSearch, ...patch } });
  const store = SECRET_STORE_TEXT[settings.secretStoreKind];

  return (
    <div className="view">
      <ViewHeader
        title="Settings"
        lede="How tool search behaves, what needs your approval, and where things are kept."
      />
      <h3 className="section-title">Where things are kept</h3>
      <section className="panel panel-body">
        <dl className="kv">
          <dt>Data folder</dt>
          <dd className="mono" data-testid="settings-data-dir">
            {settings.dataDir}
          </dd>
          <dt>Secrets</dt>
          <dd data-testid="settings-secret-store">
            <span className={`badge ${store.badge}`}>{settings.secretStoreKind}</span>
            <p className="mt-s">{store.text}</p>
          </dd>
        </dl>
      </section>
      <ConnectorsSection settings={settings} />
      <form
        data-testid="settings-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const cardTimeout = Number(draft.cardTimeoutSeconds);
          const callTimeout = Number(draft.callTimeoutSeconds);
          if (!(cardTimeout > 0) || !(callTimeout > 0)) {
            setError('Timeouts must be positive numbers of seconds.');
            return;
          }
          const maxResultKib = Number(draft.maxResultKib);
          if (!(maxResultKib > 0)) {
            setError('The result size limit must be a positive number of KiB.');
            return;
          }
          const outcome = await updateSettings({
            toolSearch: draft.toolSearch,
            defaultPolicy: draft.defaultPolicy,
            cardTimeoutMs: Math.round(cardTimeout * 1000),
            callTimeoutMs: Math.round(callTimeout * 1000),
            maxResultBytes: Math.round(maxResultKib * 1024),
            redactionPatterns: draft.redactionPatterns
              .split('\n')
              .map((p) => p.trim())
              .filter((p) => p !== ''),
          });
          setError(outcome.ok ? undefined : outcome.error.message);
          setSaved(outcome.ok);
        }}
        onChange={() => setSaved(false)}
      >
        <h3 className="section-title">Tool search</h3>
        <section className="panel panel-body form-grid">
          <label className="field">
            Search bridge
            <span className="hint">auto: on whenever at least one tool is deferred</span>
            <select
              data-testid="settings-search-enabled"
              value={draft.toolSearch.enabled}
              onChange={(e) => setSearch({ enabled: e.target.value as ToolSearchSettings['enabled'] })}
            >
              {TRI_STATE.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
          </label>
          <label className="field">
            Listing in the description
            <span className="hint">off: the agent must search for every name</span>
            <select
              value={draft.toolSearch.listing}
              onChange={(e) => setSearch({ listing: e.target.value as ToolSearchSettings['listing'] })}
            >
              {TRI_STATE.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
          </label>
          <NumberField
            label="Listing budget, % of context"
            hint="0–100; the listing may use this share of the agent's context"
            value={draft.toolSearch.thresholdPct}
            step={0.5}
            onChange={(thresholdPct) => setSearch({ thresholdPct })}
          />
          <NumberField
            label="Listing budget cap, tokens"
            hint="200–60,000"
            value={draft.toolSearch.listingMaxTokens}
            onChange={(listingMaxTokens) => setSearch({ listingMaxTokens })}
          />
          <NumberField
            label="Results per query, default"
            value={draft.toolSearch.searchDefaultLimit}
            onChange={(searchDefaultLimit) => setSearch({ searchDefaultLimit })}
          />
          <NumberField
            label="Results per query, most an agent may ask for"
            hint="1–50"
            value={draft.toolSearch.maxSearchLimit}
            onChange={(maxSearchLimit) => setSearch({ maxSearchLimit })}
          />
        </section>

        <h3 className="section-title">Approvals</h3>
        <section className="panel panel-body form-grid">
          <label className="field">
            Default policy
            <span className="hint">
              For tools and servers without their own policy; set those in Servers.
            </span>
            <select
              data-testid="settings-default-policy"
              value={draft.defaultPolicy}
              onChange={(e) => setDraft({ ...draft, defaultPolicy: e.target.value as Policy })}
            >
              {POLICIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Card timeout, seconds
            <span className="hint">An unanswered card fails the call with a clear error</span>
            <input
              type="number"
              min={1}
              value={draft.cardTimeoutSeconds}
              onChange={(e) => setDraft({ ...draft, cardTimeoutSeconds: e.target.value })}
            />
          </label>
          <label className="field">
            Call timeout, seconds
            <span className="hint">Longest a server may take to answer one call</span>
            <input
              type="number"
              min={1}
              value={draft.callTimeoutSeconds}
              onChange={(e) => setDraft({ ...draft, callTimeoutSeconds: e.target.value })}
            />
          </label>
          <label className="field">
            Result size limit, KiB
            <span className="hint">
              Most one tool result may send the agent; more is cut with a note saying what was left out
            </span>
            <input
              type="number"
              min={4}
              max={10240}
              value={draft.maxResultKib}
              onChange={(e) => setDraft({ ...draft, maxResultKib: e.target.value })}
            />
          </label>
        </section>

        <h3 className="section-title">Redaction</h3>
        <section className="panel panel-body">
          <label className="field">
            Extra patterns to hide in logs and activity
            <span className="hint">
              One regular expression per line. Known secret shapes (API keys, bearer tokens) are always
              hidden.
            </span>
            <textarea
              rows={4}
              data-testid="settings-redaction"
              value={draft.redactionPatterns}
              onChange={(e) => setDraft({ ...draft, redactionPatterns: e.target.value })}
            />
          </label>
        </section>

        <div className="form-actions">
          <button type="submit" className="primary" data-testid="settings-save">
            Save settings
          </button>
          <button type="button" onClick={() => setDraft(toDraft(settings))}>
            Undo changes
          </button>
          {saved && <span className="badge ok">Saved</span>}
          {error !== undefined && <ErrorText testId="settings-error">{error}</ErrorText>}
        </div>
      </form>
      <ApprovalRulesSection />
    </div>
  );
}

const DEFINITION_TEXT: Record<NonNullable<PolicyRuleView['definition']>, { badge: string; text: string }> = {
  current: { badge: 'ok', text: 'matches the tool' },
  changed: { badge: 'warn', text: 'tool changed: not applied' },
  unknown: { badge: 'plain', text: 'tool not listed now' },
};

/** The saved rules (`policies.rules`), e.g. "Always allow" from cards, each with a Remove button. */
function ApprovalRulesSection() {
  const { rules, loaded, removeRule } = useAppStoreShallow((s) => ({
    rules: s.policyRules,
    loaded: s.policyRulesLoaded,
    removeRule: s.removePolicyRule,
  }));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const remove = async (id: string) => {
    setBusy(id);
    const outcome = await removeRule(id);
    setBusy(undefined);
    setError(outcome.ok ? undefined : outcome.error.message);
  };
  return (
    <>
      <h3 className="section-title">Approval rules</h3>
      <section className="panel" data-testid="policy-rules">
        <p className="panel-body muted small">
          Rules kept in the settings file. "Always allow" on a card adds one for that tool, tied to its
          current definition and, for a connector tool, to the account the call ran as. Removing a rule takes
          effect on the next call.
        </p>
        {loaded && rules.length === 0 ? (
          <p className="panel-body" data-testid="policy-rules-empty">
            No rules yet.
          </p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Rule</th>
                <th>Added</th>
                <th aria-label="Remove" />
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id} data-testid={`policy-rule-${rule.id}`} data-name={rule.name ?? ''}>
                  <td className="mono wrap-anywhere">
                    {rule.name ??
                      (rule.toolName === undefined
                        ? `${rule.serverId} (every tool)`
                        : `${rule.serverId} / ${rule.toolName}`)}
                  </td>
                  <td>
                    <div className="row">
                      <span className={`badge ${POLICY_BADGE[rule.policy]}`}>
                        {rule.kind === 'always-allow' ? 'always allow' : rule.policy}
                      </span>
                      {rule.account !== undefined && (
                        <span className="badge plain" data-testid="policy-rule-account">
                          as {accountPhrase(rule.account)}
                        </span>
                      )}
                      {rule.definition !== undefined && (
                        <span
                          className={`badge ${DEFINITION_TEXT[rule.definition].badge}`}
                          data-testid="policy-rule-definition"
                          data-definition={rule.definition}
                        >
                          {DEFINITION_TEXT[rule.definition].text}
                        </span>
                      )}
                    </div>
                    <p className="small muted mt-s" data-testid="policy-rule-description">
                      {rule.description}
                    </p>
                  </td>
                  <td className="small">{rule.savedAt === undefined ? '—' : formatTime(rule.savedAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      disabled={busy === rule.id}
                      data-testid={`policy-rule-remove-${rule.id}`}
                      aria-label={`Remove the rule for ${rule.name ?? rule.toolName ?? rule.serverId}`}
                      onClick={() => void remove(rule.id)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {error !== undefined && (
          <div className="panel-body">
            <ErrorText testId="policy-rules-error">{error}</ErrorText>
          </div>
        )}
      </section>
    </>
  );
}

/** Its own form: the gateway is saved, signed in and out apart from the other settings. */
function ConnectorsSection(props: { settings: Settings }) {
  const { connectors } = props.settings;
  const { updateSettings, signIn, signOut } = useAppStoreShallow((s) => ({
    updateSettings: s.updateSettings,
    signIn: s.signInConnectorGateway,
    signOut: s.signOutConnectorGateway,
  }));
  const [url, setUrl] = useState(connectors.gatewayUrl ?? '');
  const [enabled, setEnabled] = useState(connectors.enabled);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setUrl(connectors.gatewayUrl ?? '');
    setEnabled(connectors.enabled);
  }, [connectors.gatewayUrl, connectors.enabled]);
  const report = (outcome: { ok: true } | { ok: false; error: { message: string } }) => {
    setError(outcome.ok ? undefined : outcome.error.message);
    setSaved(outcome.ok);
  };
  return (
    <>
      <h3 className="section-title">Connectors</h3>
      <section className="panel panel-body" data-testid="settings-connectors">
        <p className="muted small">
          Remote apps (GitHub, Slack, …) reached through a connector gateway. Agents see them as{' '}
          <span className="mono">connectors__app__tool</span> and get{' '}
          <span className="mono">manage_connections</span> while a gateway is set and switched on.
        </p>
        <form
          className="form-grid mt-m"
          onSubmit={async (event) => {
            event.preventDefault();
            report(
              await updateSettings({
                connectors: { gatewayUrl: url.trim() === '' ? null : url.trim(), enabled },
              }),
            );
          }}
          onChange={() => setSaved(false)}
        >
          <label className="field">
            Gateway URL
            <span className="hint">Empty turns connectors off</span>
            <input
              data-testid="settings-gateway-url"
              type="url"
              placeholder="https://gateway.example"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </label>
          <label className="field">
            Connectors
            <span className="hint">Off keeps the URL but hides connectors from agents</span>
            <select
              data-testid="settings-connectors-enabled"
              value={enabled ? 'on' : 'off'}
              onChange={(e) => setEnabled(e.target.value === 'on')}
            >
              <option>on</option>
              <option>off</option>
            </select>
          </label>
          <div className="form-actions">
            <button type="submit" data-testid="settings-connectors-save">
              Save gateway
            </button>
          </div>
        </form>
        <div className="mt-m" data-testid="settings-gateway-sign-in">
          <span className={`badge ${connectors.signedIn ? 'ok' : 'warn'}`}>
            {connectors.signedIn ? 'signed in' : 'not signed in'}
          </span>
          {connectors.signedIn ? (
            <button
              type="button"
              className="small"
              data-testid="settings-gateway-sign-out"
              onClick={async () => report(await signOut())}
            >
              Sign out
            </button>
          ) : (
            <form
              className="inline-form mt-s"
              onSubmit={async (event) => {
                event.preventDefault();
                const outcome = await signIn(token);
                if (outcome.ok) setToken('');
                report(outcome);
              }}
            >
              <input
                data-testid="settings-gateway-token"
                type="password"
                autoComplete="off"
                placeholder="Gateway token"
                value={token}
                onChange={(e) => setToken(e.target.value)}
              />
              <button type="submit" className="small primary" disabled={token.trim() === ''}>
                Sign in
              </button>
            </form>
          )}
        </div>
        {saved && <span className="badge ok mt-s">Saved</span>}
        {error !== undefined && <ErrorText testId="settings-connectors-error">{error}</ErrorText>}
      </section>
    </>
  );
}

function NumberField(props: {
  label: string;
  hint?: string;
  value: number;
  step?: number;
  onChange: (value: number) => void;
}) {
  return (
    <label className="field">
      {props.label}
      {props.hint !== undefined && <span className="hint">{props.hint}</span>}
      <input
        type="number"
        step={props.step ?? 1}
        value={Number.isFinite(props.value) ? props.value : ''}
        onChange={(e) => props.onChange(e.target.valueAsNumber)}
      />
    </label>
  );
}
