/**
 * Policies as the UI shows them: where a tool's effective policy comes from, and the saved rules
 * in words. Pure; the host hands in the decision and what the catalog holds now.
 */

import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './definition-hash.js';
import type { PolicyDecision, PolicyKey, PolicyRule, RuleAccount } from './policy.js';
import type { Policy, PolicyRuleView, ToolPolicyView } from './types.js';

const VERBS: Record<Policy, string> = { allow: 'allows', ask: 'asks before', deny: 'denies' };

/**
 * Explains a decision for one tool. `setting` is the tool's own entry in `policies.tools`; a rule
 * that says the same as it is reported as that setting, since removing it is what the user can do.
 */
export function toolPolicyView(
  key: PolicyKey,
  decision: PolicyDecision,
  setting: Policy | undefined,
  defaultFromRun = false,
): ToolPolicyView {
  const view = (source: ToolPolicyView['source'], reason: string): ToolPolicyView => ({
    ...(setting === undefined ? {} : { setting }),
    effective: decision.policy,
    source,
    reason,
  });
  const { rule } = decision;
  switch (decision.source) {
    case 'server':
      return view('server', `Set for its ${ownerWord(key)} "${key.serverId}".`);
    case 'default':
      return view(
        'default',
        defaultFromRun ? 'The default policy for this run (--policy).' : 'The default policy.',
      );
    case 'suspicious':
      return view(
        'suspicious',
        'Its description hides text, so it asks before every call until you read it and set this tool’s own policy.',
      );
    case 'read-only':
      return view(
        'read-only',
        'Its server is trusted and the tool says it only reads, so it runs without a card.',
      );
    case 'rule':
      if (rule === undefined) return view('rule', 'A saved rule.');
      if (isAlwaysAllow(rule)) return view('always-allow', `${alwaysAllowText(rule)}.`);
      if (rule.toolName === undefined) {
        return view(
          'rule',
          `A saved rule ${VERBS[rule.policy]} every tool of ${ownerWord(key)} "${key.serverId}".`,
        );
      }
      if (setting === rule.policy && rule.toolName === key.toolName)
        return view('tool', 'Set for this tool.');
      return view(
        'rule',
        rule.toolName === key.toolName
          ? `A saved rule ${VERBS[rule.policy]} this tool.`
          : `A saved rule for "${rule.toolName}" ${VERBS[rule.policy]} look-alike names such as this one.`,
      );
  }
}

/** The id the UI names a rule by: a digest of its content, so it needs no stored id. */
export function policyRuleId(rule: PolicyRule): string {
  return sha256Hex(canonicalJson(rule)).slice(0, 16);
}

/** What the catalog holds now for a rule's tool: its agent-facing name and definition hash. */
export interface RuleTarget {
  name: string;
  definitionHash: string;
}

/**
 * The saved rules in words, in their stored order; identical rules are listed once. `lookup` gets
 * the rule's key and hash, since a tool the catalog does not hold (a connector's) may be known by
 * the hash its approvals bind to.
 */
export function policyRuleViews(
  rules: readonly PolicyRule[],
  lookup: (key: PolicyKey & Pick<PolicyRule, 'definitionHash'>) => RuleTarget | undefined,
): PolicyRuleView[] {
  const views = new Map<string, PolicyRuleView>();
  for (const rule of rules) {
    const id = policyRuleId(rule);
    if (views.has(id)) continue;
    const target = rule.toolName === undefined ? undefined : lookup({ ...rule, toolName: rule.toolName });
    const view: PolicyRuleView = {
      id,
      toolKind: rule.toolKind,
      serverId: rule.serverId,
      policy: rule.policy,
      kind: isAlwaysAllow(rule) ? 'always-allow' : 'rule',
      redactOutbound: rule.redactOutbound === true,
      description: '',
    };
    if (rule.toolName !== undefined) view.toolName = rule.toolName;
    if (target !== undefined) view.name = target.name;
    if (rule.savedAt !== undefined) view.savedAt = rule.savedAt;
    if (rule.savedFrom !== undefined) view.savedFrom = rule.savedFrom;
    if (rule.account !== undefined) view.account = rule.account;
    if (isAlwaysAllow(rule)) {
      view.definition =
        target === undefined
          ? 'unknown'
          : target.definitionHash === rule.definitionHash
            ? 'current'
            : 'changed';
    }
    view.description = describeRule(rule, view.definition);
    views.set(id, view);
  }
  return [...views.values()];
}

/** An allow rule bound to one tool's definition: what "Always allow" saves. */
/** An allow rule bound to a definition: what "Always allow" on a card saves. */
export function isAlwaysAllow(rule: PolicyRule): boolean {
  return rule.policy === 'allow' && rule.toolName !== undefined && rule.definitionHash !== undefined;
}

function alwaysAllowText(rule: PolicyRule): string {
  const from = rule.savedFrom === 'card' ? ', saved from an approval card' : '';
  return `Always allow${asAccount(rule.account)}${from}${savedOn(rule)}`;
}

/** What a key's `serverId` names: an MCP server or a connector app (they may share an id). */
function ownerWord(key: Pick<PolicyKey, 'toolKind'>): string {
  return key.toolKind === 'connectors' ? 'app' : 'server';
}

/** " as account work", " as the default account", or nothing for a rule that holds for every account. */
function asAccount(account: RuleAccount | undefined): string {
  if (account === undefined) return '';
  return 'alias' in account ? ` as account ${account.alias}` : ' as the default account';
}

function savedOn(rule: PolicyRule): string {
  const time = rule.savedAt === undefined ? Number.NaN : Date.parse(rule.savedAt);
  return Number.isNaN(time) ? '' : ` on ${new Date(time).toISOString().slice(0, 10)}`;
}

function describeRule(rule: PolicyRule, definition: PolicyRuleView['definition']): string {
  const parts: string[] = [];
  if (isAlwaysAllow(rule)) {
    parts.push(`${alwaysAllowText(rule)}.`);
    if (definition === 'current') parts.push("It matches the tool's current definition.");
    if (definition === 'changed')
      parts.push("The tool's definition has changed since: the rule no longer applies.");
    if (definition === 'unknown') parts.push('The tool is not listed now (its server may be off or down).');
  } else {
    const owner = `${ownerWord(rule)} "${rule.serverId}"`;
    const target = rule.toolName === undefined ? `every tool of ${owner}` : `"${rule.toolName}" on ${owner}`;
    // Deny and ask rules also hold for look-alike names (see ruleMatches in policy.ts).
    const alike =
      rule.toolName !== undefined && rule.policy !== 'allow' ? ' and names that look like it' : '';
    const verb = VERBS[rule.policy];
    parts.push(`${verb[0]!.toUpperCase()}${verb.slice(1)} ${target}${asAccount(rule.account)}${alike}.`);
    const saved = savedOn(rule);
    if (saved !== '') parts.push(`Saved${saved}.`);
  }
  if (rule.redactOutbound === true) parts.push('The server gets the arguments with secrets replaced.');
  return parts.join(' ');
}
