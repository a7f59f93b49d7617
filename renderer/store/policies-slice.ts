import type { PolicyRuleView, ToolbridgeApi } from '../../src/api/ui-api.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

/** The saved approval rules (`policies.rules`); per-server and per-tool policies live on their views. */
export interface PoliciesSlice {
  policyRules: PolicyRuleView[];
  policyRulesLoaded: boolean;
  loadPolicyRules(): Promise<Outcome<PolicyRuleView[]>>;
  removePolicyRule(id: string): Promise<Outcome<PolicyRuleView[]>>;
}

export const createPoliciesSlice =
  (api: ToolbridgeApi): Slice<PoliciesSlice> =>
  (set) => {
    // A rule saved from a card and a removal can race; only the newest answer may land.
    let request = 0;
    const keep = async (call: () => Promise<PolicyRuleView[]>): Promise<Outcome<PolicyRuleView[]>> => {
      const mine = ++request;
      const outcome = await attempt(call);
      if (outcome.ok && mine === request) set({ policyRules: outcome.value, policyRulesLoaded: true });
      return outcome;
    };
    return {
      policyRules: [],
      policyRulesLoaded: false,
      loadPolicyRules: () => keep(() => api.listPolicyRules()),
      removePolicyRule: (id) => keep(() => api.removePolicyRule(id)),
    };
  };
