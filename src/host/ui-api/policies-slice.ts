import type { Policy, PolicyRuleView } from '../../api/ui-api.js';
import { approvalHash, connectorApprovalHash } from '../../approvals/definition-hash.js';
import type { PolicyKey, PolicyRule } from '../../approvals/policy.js';
import { policyRuleId, policyRuleViews, type RuleTarget } from '../../approvals/policy-view.js';
import { agentFacingName } from '../../approvals/tool-key.js';
import { POLICIES } from '../../approvals/types.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { JsonObject } from '../../base/json.js';
import type { HostCatalog } from '../host-catalog.js';
import type { HostParts, UiApiSlice } from '../host-parts.js';
import { serverView } from '../servers-service.js';
import { requireTool, type ToolViewParts, toolView } from './tool-view.js';

/** Policies: per server, per tool, and the saved rules ("always allow" and the like), each change audited. */
export const policiesSlice: UiApiSlice<
  keyof ToolViewParts | 'serverService' | 'servers',
  'setServerPolicy' | 'setToolPolicy' | 'listPolicyRules' | 'removePolicyRule'
> = (parts) => {
  const { catalog, settings, approvals } = parts;

  const listPolicyRules = async (): Promise<PolicyRuleView[]> =>
    policyRuleViews(settings.current.policies.rules, (key) => ruleTarget(catalog, key));

  return {
    setServerPolicy: async (serverId, policy) => {
      const value = policyArgument(policy);
      parts.serverService.requireServer(serverId);
      await setPolicy(parts, 'server', serverId, value, serverId);
      return serverView(parts, serverId);
    },

    setToolPolicy: async (name, policy) => {
      const value = policyArgument(policy);
      const entry = requireTool(catalog, name);
      await setPolicy(parts, 'tool', name, value, entry.serverId);
      return toolView(parts, name);
    },

    listPolicyRules,

    removePolicyRule: async (id) => {
      if (typeof id !== 'string' || id === '') {
        throw new ToolbridgeError('INVALID_ARGUMENT', 'Send the id of a rule from listPolicyRules.');
      }
      const rule = settings.current.policies.rules.find((held) => policyRuleId(held) === id);
      if (rule === undefined) {
        throw new ToolbridgeError(
          'NOT_FOUND',
          `No saved rule has the id "${id}"; it may have been removed already. Reload the list of rules.`,
        );
      }
      const [view] = policyRuleViews([rule], (key) => ruleTarget(catalog, key));
      await settings.update((draft) => {
        draft.policies.rules = draft.policies.rules.filter((held) => policyRuleId(held) !== id);
        return draft;
      });
      // The gate's copy of an "always allow" from this session must go too, or it would still allow.
      if (rule.policy === 'allow' && rule.toolName !== undefined) {
        approvals.forgetAlwaysAllow({
          toolKind: rule.toolKind,
          serverId: rule.serverId,
          toolName: rule.toolName,
          ...(rule.account === undefined ? {} : { account: rule.account }),
        });
      }
      await approvals.recordPolicyChange({
        serverId: rule.serverId,
        toolName: view?.name ?? '',
        change: { setting: 'rule', removed: ruleData(rule) },
        message: `Removed a saved rule: ${view?.description ?? ''}`,
      });
      return listPolicyRules();
    },
  };
};

/** Sets or clears one entry of `policies.servers` or `policies.tools` and audits it; a no-op writes nothing. */
export async function setPolicy(
  parts: Pick<HostParts, 'settings' | 'approvals'>,
  setting: 'server' | 'tool',
  key: string,
  value: Policy | null,
  serverId: string,
): Promise<void> {
  const map = setting === 'server' ? 'servers' : 'tools';
  const previous = parts.settings.current.policies[map][key];
  if (previous === (value ?? undefined)) return;
  await parts.settings.update((draft) => {
    if (value === null) delete draft.policies[map][key];
    else draft.policies[map][key] = value;
    return draft;
  });
  const what = setting === 'server' ? `server "${key}"` : key;
  const then = setting === 'server' ? 'its tools follow the default' : 'it follows its server or the default';
  await parts.approvals.recordPolicyChange({
    serverId,
    toolName: setting === 'server' ? '' : key,
    change: { setting, policy: value ?? 'inherit', previous: previous ?? 'inherit' },
    message:
      value === null
        ? `Cleared the policy of ${what} (was ${previous}); ${then}.`
        : `Set the policy of ${what} to ${value} (was ${previous ?? 'inherit'}).`,
  });
}

/**
 * The tool a rule is about, as it is listed now, with the hash an approval binds to. Connector
 * tools live on the gateway, not in the catalog, and their approvals bind to the name alone, so a
 * connector rule holding that name's hash is about that connector tool.
 */
function ruleTarget(
  catalog: Pick<HostCatalog, 'entry' | 'definitionHash'>,
  rule: PolicyKey & Pick<PolicyRule, 'definitionHash'>,
): RuleTarget | undefined {
  const name = agentFacingName(rule.toolKind, rule);
  const entry = catalog.entry(name);
  if (entry !== undefined && entry.serverId === rule.serverId && entry.toolName === rule.toolName)
    return { name, definitionHash: approvalHash(entry, (held) => catalog.definitionHash(held)) };
  if (rule.toolKind !== 'connectors') return undefined;
  const hash = connectorApprovalHash(name);
  return rule.definitionHash === hash ? { name, definitionHash: hash } : undefined;
}

const POLICY_VALUES: readonly unknown[] = POLICIES;

/** A policy sent by the UI: one of the three, or null to clear the setting. */
export function policyArgument(value: unknown): Policy | null {
  if (value === null || POLICY_VALUES.includes(value)) return value as Policy | null;
  throw new ToolbridgeError(
    'INVALID_ARGUMENT',
    `A policy must be "allow", "ask" or "deny", or null to inherit; got ${JSON.stringify(value) ?? String(value)}.`,
  );
}

/** A rule as JSON data for the audit log. */
function ruleData(rule: PolicyRule): JsonObject {
  return JSON.parse(JSON.stringify(rule)) as JsonObject;
}
