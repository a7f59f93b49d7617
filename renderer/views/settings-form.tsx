import type { Policy, ToolSearchSettings } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import { Field } from '../components/field.js';
import type { SettingsDraftState } from '../drafts/settings-draft.js';

const TRI_STATE = ['auto', 'on', 'off'] as const;
const POLICIES: Array<{ value: Policy; label: string }> = [
  { value: 'ask', label: 'Ask me (a card opens)' },
  { value: 'allow', label: 'Allow without asking' },
  { value: 'deny', label: 'Deny' },
];

/** Tool search, approvals and redaction: one form, one Save. */
export function SettingsForm(props: { form: SettingsDraftState }) {
  const { form } = props;
  return (
    <form
      data-testid="settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
      onChange={form.status.touch}
    >
      <ToolSearchFields form={form} />
      <ApprovalFields form={form} />
      <RedactionField form={form} />
      <div className="form-actions">
        <button type="submit" className="primary" data-testid="settings-save">
          Save settings
        </button>
        <button type="button" onClick={form.reset}>
          Undo changes
        </button>
        {form.status.saved && <span className="badge ok">Saved</span>}
        {form.status.error !== undefined && (
          <ErrorText testId="settings-error">{form.status.error}</ErrorText>
        )}
      </div>
    </form>
  );
}

function ToolSearchFields(props: { form: SettingsDraftState }) {
  const { draft, editSearch } = props.form;
  return (
    <>
      <h3 className="section-title">Tool search</h3>
      <section className="panel panel-body form-grid">
        <Field label="Search bridge" hint="auto: on whenever at least one tool is deferred">
          <select
            data-testid="settings-search-enabled"
            value={draft.toolSearch.enabled}
            onChange={(e) => editSearch({ enabled: e.target.value as ToolSearchSettings['enabled'] })}
          >
            {TRI_STATE.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </Field>
        <Field label="Listing in the description" hint="off: the agent must search for every name">
          <select
            value={draft.toolSearch.listing}
            onChange={(e) => editSearch({ listing: e.target.value as ToolSearchSettings['listing'] })}
          >
            {TRI_STATE.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </Field>
        <NumberField
          label="Listing budget, % of context"
          hint="0–100; the listing may use this share of the agent's context"
          value={draft.toolSearch.thresholdPct}
          step={0.5}
          onChange={(thresholdPct) => editSearch({ thresholdPct })}
        />
        <NumberField
          label="Listing budget cap, tokens"
          hint="200–60,000"
          value={draft.toolSearch.listingMaxTokens}
          onChange={(listingMaxTokens) => editSearch({ listingMaxTokens })}
        />
        <NumberField
          label="Results per query, default"
          value={draft.toolSearch.searchDefaultLimit}
          onChange={(searchDefaultLimit) => editSearch({ searchDefaultLimit })}
        />
        <NumberField
          label="Results per query, most an agent may ask for"
          hint="1–50"
          value={draft.toolSearch.maxSearchLimit}
          onChange={(maxSearchLimit) => editSearch({ maxSearchLimit })}
        />
      </section>
    </>
  );
}

function ApprovalFields(props: { form: SettingsDraftState }) {
  const { draft, edit } = props.form;
  return (
    <>
      <h3 className="section-title">Approvals</h3>
      <section className="panel panel-body form-grid">
        <Field
          label="Default policy"
          hint="For tools and servers without their own policy; set those in Servers."
        >
          <select
            data-testid="settings-default-policy"
            value={draft.defaultPolicy}
            onChange={(e) => edit({ defaultPolicy: e.target.value as Policy })}
          >
            {POLICIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Card timeout, seconds" hint="An unanswered card fails the call with a clear error">
          <input
            type="number"
            min={1}
            value={draft.cardTimeoutSeconds}
            onChange={(e) => edit({ cardTimeoutSeconds: e.target.value })}
          />
        </Field>
        <Field label="Call timeout, seconds" hint="Longest a server may take to answer one call">
          <input
            type="number"
            min={1}
            value={draft.callTimeoutSeconds}
            onChange={(e) => edit({ callTimeoutSeconds: e.target.value })}
          />
        </Field>
        <Field
          label="Result size limit, KiB"
          hint="Most one tool result may send the agent; more is cut with a note saying what was left out"
        >
          <input
            type="number"
            min={4}
            max={10240}
            value={draft.maxResultKib}
            onChange={(e) => edit({ maxResultKib: e.target.value })}
          />
        </Field>
      </section>
    </>
  );
}

function RedactionField(props: { form: SettingsDraftState }) {
  const { draft, edit } = props.form;
  return (
    <>
      <h3 className="section-title">Redaction</h3>
      <section className="panel panel-body">
        <Field
          label="Extra patterns to hide in logs and activity"
          hint="One regular expression per line. Known secret shapes (API keys, bearer tokens) are always hidden."
        >
          <textarea
            rows={4}
            data-testid="settings-redaction"
            value={draft.redactionPatterns}
            onChange={(e) => edit({ redactionPatterns: e.target.value })}
          />
        </Field>
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
    <Field label={props.label} hint={props.hint}>
      <input
        type="number"
        step={props.step ?? 1}
        value={Number.isFinite(props.value) ? props.value : ''}
        onChange={(e) => props.onChange(e.target.valueAsNumber)}
      />
    </Field>
  );
}
