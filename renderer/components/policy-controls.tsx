import type { Policy, ToolPolicyView } from '../../src/api/ui-api.js';

const INHERIT = 'inherit';
const CHOICES: Array<{ value: Policy; label: string }> = [
  { value: 'allow', label: 'Allow' },
  { value: 'ask', label: 'Ask' },
  { value: 'deny', label: 'Deny' },
];
/** The badge colour of each policy, as the Activity view colours decisions. */
export const POLICY_BADGE: Record<Policy, string> = { allow: 'ok', ask: 'accent', deny: 'bad' };
const EFFECT_TEXT: Record<Policy, string> = { allow: 'Runs', ask: 'Asks', deny: 'Denied' };

/** A server's or tool's own approval policy; the first choice clears it (inherit). */
export function PolicySelect(props: {
  label: string;
  value: Policy | undefined;
  /** What the first choice says, e.g. "Default (ask)". */
  inheritLabel: string;
  onChange: (policy: Policy | null) => void;
  disabled?: boolean;
  testId: string;
}) {
  return (
    <label className="inline-select">
      {props.label}
      <select
        data-testid={props.testId}
        value={props.value ?? INHERIT}
        disabled={props.disabled}
        onChange={(event) =>
          props.onChange(event.target.value === INHERIT ? null : (event.target.value as Policy))
        }
      >
        <option value={INHERIT}>{props.inheritLabel}</option>
        {CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a call of the tool gets now, and why. */
export function EffectivePolicy(props: { policy: ToolPolicyView; testId: string }) {
  const { policy } = props;
  return (
    <p
      className="small muted mt-s"
      data-testid={props.testId}
      data-effective={policy.effective}
      data-source={policy.source}
    >
      <span className={`badge ${POLICY_BADGE[policy.effective]}`}>{EFFECT_TEXT[policy.effective]}</span>{' '}
      {policy.reason}
    </p>
  );
}
