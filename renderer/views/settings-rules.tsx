import { useState } from 'react';
import type { PolicyRuleView } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import { POLICY_BADGE } from '../components/policy-controls.js';
import { accountPhrase, formatTime } from '../lib/format.js';
import { useAppStoreShallow } from '../store/store-context.js';

const DEFINITION_TEXT: Record<NonNullable<PolicyRuleView['definition']>, { badge: string; text: string }> = {
  current: { badge: 'ok', text: 'matches the tool' },
  changed: { badge: 'warn', text: 'tool changed: not applied' },
  unknown: { badge: 'plain', text: 'tool not listed now' },
};

/** The saved rules (`policies.rules`), e.g. "Always allow" from cards, each with a Remove button. */
export function ApprovalRulesSection() {
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
                <RuleRow
                  key={rule.id}
                  rule={rule}
                  busy={busy === rule.id}
                  onRemove={() => void remove(rule.id)}
                />
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

function RuleRow(props: { rule: PolicyRuleView; busy: boolean; onRemove: () => void }) {
  const { rule } = props;
  return (
    <tr data-testid={`policy-rule-${rule.id}`} data-name={rule.name ?? ''}>
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
          disabled={props.busy}
          data-testid={`policy-rule-remove-${rule.id}`}
          aria-label={`Remove the rule for ${rule.name ?? rule.toolName ?? rule.serverId}`}
          onClick={props.onRemove}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}
