/**
 * The approvals' part of settings.json: `policies` (default, per server, per tool, and the rules
 * the gate reads), `redactionPatterns` and `cardTimeoutMs`, with their defaults and validation.
 * Pure; host/settings-document.ts composes it with the other domains' sections.
 */
import { isPlainObject } from '../base/json.js';
import { describeValue, type SettingsChecker, type SettingsSection } from '../base/settings-check.js';
import { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE } from '../catalog/connector-names.js';
import { DEFAULT_CARD_TIMEOUT_MS } from './approval-queue.js';
import { type PolicyRule, sameRuleAccount } from './policy.js';
import { rawMcpServerIds, ruleToolKinds, serverPolicyKinds } from './policy-namespaces.js';
import { checkRedactionPatterns } from './redaction.js';
import type { ToolKind } from './tool-key.js';
import { POLICIES, type Policy } from './types.js';

export interface PolicySettings {
  /** Used when neither the tool nor its server has a policy. */
  default: Policy;
  /** MCP server id → policy. */
  servers: Record<string, Policy>;
  /** Connector app id → policy: apps are their own namespace, apart from a server of the same id. */
  connectors: Record<string, Policy>;
  /** Agent-facing tool name (`mcp__server__tool`) → policy. */
  tools: Record<string, Policy>;
  /**
   * Rules keyed by (server or connector id, tool name), as the approvals gate reads them: "always
   * allow" rules bound to a definition hash, whole-server rules, and rules with `redactOutbound`.
   */
  rules: PolicyRule[];
}

export interface ApprovalsSection {
  policies: PolicySettings;
  /** Regular expression sources; matches are replaced before anything is logged or shown. */
  redactionPatterns: string[];
  /** How long an approval or connection card waits for the user. */
  cardTimeoutMs: number;
  /**
   * A server's elicitation opens a card while a Toolbridge window is open even when the agent
   * could answer it itself.
   */
  preferElicitationCards: boolean;
}

export const APPROVALS_SECTION: SettingsSection<ApprovalsSection> = {
  defaults: () => ({
    policies: { default: 'ask', servers: {}, connectors: {}, tools: {}, rules: [] },
    redactionPatterns: [],
    cardTimeoutMs: DEFAULT_CARD_TIMEOUT_MS,
    preferElicitationCards: false,
  }),
  check(c, raw) {
    const base = APPROVALS_SECTION.defaults();
    return {
      policies: c.field(raw, 'policies', base.policies, (value) =>
        checkPolicies(c, value, rawMcpServerIds(raw)),
      ),
      redactionPatterns: c.field(raw, 'redactionPatterns', base.redactionPatterns, (value) =>
        checkPatterns(c, value),
      ),
      cardTimeoutMs: c.durationMs(raw, 'cardTimeoutMs', base.cardTimeoutMs, 'e.g. 300000 for 5 minutes'),
      preferElicitationCards: c.field(raw, 'preferElicitationCards', base.preferElicitationCards, (value) =>
        c.boolean(value, 'preferElicitationCards'),
      ),
    };
  },
};

/**
 * `rules` with an "always allow" rule saved (see ApprovalsOptions.onAlwaysAllow). An earlier allow
 * rule for the same tool and account is replaced, since its definition hash is stale; its
 * `redactOutbound` carries over so saving again never quietly stops outbound redaction. Rules for
 * the tool's other accounts, and one for every account, stay as they are.
 */
export function withAlwaysAllowRule(rules: readonly PolicyRule[], rule: PolicyRule): PolicyRule[] {
  const same = (held: PolicyRule): boolean =>
    held.policy === 'allow' &&
    held.toolKind === rule.toolKind &&
    held.serverId === rule.serverId &&
    held.toolName === rule.toolName &&
    sameRuleAccount(held.account, rule.account);
  const redact =
    rule.redactOutbound === true || rules.some((held) => same(held) && held.redactOutbound === true);
  return [...rules.filter((held) => !same(held)), { ...rule, ...(redact ? { redactOutbound: true } : {}) }];
}

const RULE_KEYS = [
  'toolKind',
  'serverId',
  'toolName',
  'policy',
  'definitionHash',
  'redactOutbound',
  'savedAt',
  'savedFrom',
  'account',
];
const RULE_EXAMPLE =
  '{"toolKind": "mcp", "serverId": "github", "toolName": "create_issue", "policy": "allow"}';
const TOOL_KINDS: readonly ToolKind[] = ['mcp', 'connectors'];

function checkPolicies(c: SettingsChecker, raw: unknown, mcpServerIds: ReadonlySet<string>): PolicySettings {
  const policies: PolicySettings = { default: 'ask', servers: {}, connectors: {}, tools: {}, rules: [] };
  if (!isPlainObject(raw)) {
    c.issue(
      'policies',
      `must be an object like {"default": "ask", "servers": {}, "connectors": {}, "tools": {}, "rules": []}; got ${describeValue(raw)}.`,
    );
    return policies;
  }
  c.knownKeys(raw, 'policies', ['default', 'servers', 'connectors', 'tools', 'rules']);
  if (raw.rules !== undefined) policies.rules = checkRules(c, raw.rules, mcpServerIds);
  if (raw.default !== undefined) policies.default = c.oneOf(raw.default, 'policies.default', POLICIES, 'ask');
  for (const key of ['servers', 'connectors', 'tools'] as const) {
    const map = raw[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) {
      c.issue(
        `policies.${key}`,
        `must be an object mapping names to "allow", "ask" or "deny"; got ${describeValue(map)}.`,
      );
      continue;
    }
    for (const [name, value] of Object.entries(map)) {
      policies[key][name] = c.oneOf(value, `policies.${key}[${JSON.stringify(name)}]`, POLICIES, 'ask');
    }
  }
  // Written before apps had their own map: an entry for an id no MCP server has held for both.
  if (raw.connectors === undefined) {
    for (const [id, policy] of Object.entries(policies.servers))
      if (serverPolicyKinds(id, mcpServerIds).includes('connectors')) policies.connectors[id] = policy;
  }
  return policies;
}

function checkRules(c: SettingsChecker, raw: unknown, mcpServerIds: ReadonlySet<string>): PolicyRule[] {
  if (!Array.isArray(raw)) {
    c.issue('policies.rules', `must be a list of rules like ${RULE_EXAMPLE}; got ${describeValue(raw)}.`);
    return [];
  }
  const rules: PolicyRule[] = [];
  raw.forEach((item, index) => {
    const path = `policies.rules[${index}]`;
    if (!isPlainObject(item)) {
      c.issue(path, `must be an object like ${RULE_EXAMPLE}; got ${describeValue(item)}.`);
      return;
    }
    c.knownKeys(item, path, RULE_KEYS);
    const serverId = c.trimmedString(
      item.serverId,
      `${path}.serverId`,
      'the server or connector id, e.g. "github"',
    );
    const policyValid = POLICIES.includes(item.policy as Policy);
    const rule: PolicyRule = {
      toolKind: 'mcp',
      serverId: serverId ?? '',
      policy: c.oneOf(item.policy, `${path}.policy`, POLICIES, 'ask'),
    };
    if (item.toolKind !== undefined)
      rule.toolKind = c.oneOf(item.toolKind, `${path}.toolKind`, TOOL_KINDS, 'mcp');
    if (item.toolName !== undefined) {
      const toolName = c.trimmedString(
        item.toolName,
        `${path}.toolName`,
        `the tool's own name on its server, e.g. "create_issue"; leave it out for every tool of the server`,
      );
      const own =
        serverId === undefined || toolName === undefined ? undefined : ownToolName(serverId, toolName);
      if (own !== undefined) {
        c.issue(
          `${path}.toolName`,
          `is the agent-facing name; rules use the tool's own name on its server: send "${own}".`,
        );
      }
      rule.toolName = toolName ?? '';
    }
    if (item.definitionHash !== undefined) {
      const hash = c.string(item.definitionHash, `${path}.definitionHash`, "the tool definition's hash");
      if (hash !== undefined && rule.toolName === undefined) {
        c.issue(
          `${path}.definitionHash`,
          "needs a toolName: the hash binds one tool's definition, and a rule for every tool of a server would ignore it. Add toolName or remove definitionHash.",
        );
      } else if (hash !== undefined && policyValid && rule.policy !== 'allow') {
        c.issue(
          `${path}.definitionHash`,
          `is only for allow rules; a ${rule.policy} rule holds whatever the tool's definition. Remove definitionHash.`,
        );
      }
      rule.definitionHash = hash ?? '';
    }
    if (item.redactOutbound !== undefined) {
      rule.redactOutbound = c.boolean(item.redactOutbound, `${path}.redactOutbound`);
    }
    if (item.savedAt !== undefined) {
      const savedAt = c.string(item.savedAt, `${path}.savedAt`, 'an ISO date and time');
      if (savedAt !== undefined && Number.isNaN(Date.parse(savedAt))) {
        c.issue(
          `${path}.savedAt`,
          `must be an ISO date and time like "2026-09-01T10:00:00.000Z"; got ${describeValue(savedAt)}. Fix it or remove savedAt.`,
        );
      }
      if (savedAt !== undefined) rule.savedAt = savedAt;
    }
    if (item.savedFrom !== undefined) {
      if (item.savedFrom === 'card') rule.savedFrom = 'card';
      else
        c.issue(`${path}.savedFrom`, `can only be "card"; got ${describeValue(item.savedFrom)}. Remove it.`);
    }
    if (item.account !== undefined) checkRuleAccount(c, item.account, `${path}.account`, rule, policyValid);
    if (item.toolKind !== undefined) rules.push(rule);
    // Written before servers and apps were apart: read it as policy-namespaces.ts says.
    else for (const toolKind of ruleToolKinds(rule, mcpServerIds)) rules.push({ ...rule, toolKind });
  });
  return rules;
}

/**
 * A rule's `account`: `{"alias": "work"}` or `{"default": true}`, on an allow rule for one tool
 * (like the definition hash, it narrows what an allow covers; a deny or ask rule holds for every
 * account).
 */
function checkRuleAccount(
  c: SettingsChecker,
  raw: unknown,
  path: string,
  rule: PolicyRule,
  policyValid: boolean,
): void {
  const keys = isPlainObject(raw) ? Object.keys(raw) : [];
  if (isPlainObject(raw) && keys.length === 1 && typeof raw.alias === 'string') {
    if (ACCOUNT_ALIAS.test(raw.alias)) rule.account = { alias: raw.alias };
    else
      c.issue(
        `${path}.alias`,
        `must be an account alias (${ACCOUNT_ALIAS_RULE}); got ${describeValue(raw.alias)}.`,
      );
  } else if (isPlainObject(raw) && keys.length === 1 && raw.default === true) {
    rule.account = { default: true };
  } else {
    c.issue(
      path,
      `must be {"alias": "work"} for one account or {"default": true} for the app's default account; got ${describeValue(raw)}. Remove it for every account.`,
    );
  }
  if (rule.toolName === undefined) {
    c.issue(
      path,
      'needs a toolName: an account narrows an allow rule for one connector tool. Add toolName or remove account.',
    );
  } else if (policyValid && rule.policy !== 'allow') {
    c.issue(path, `is only for allow rules; a ${rule.policy} rule holds for every account. Remove account.`);
  }
}

/** The tool's own name when `toolName` is an agent-facing name of that server or connector. */
function ownToolName(serverId: string, toolName: string): string | undefined {
  for (const prefix of [`mcp__${serverId}__`, `connectors__${serverId}__`]) {
    if (toolName.startsWith(prefix) && toolName.length > prefix.length) return toolName.slice(prefix.length);
  }
  return undefined;
}

function checkPatterns(c: SettingsChecker, raw: unknown): string[] {
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) {
    // Never quote what was sent: people paste real secrets as literal patterns.
    const got = Array.isArray(raw)
      ? 'a list with an entry that is not a string'
      : typeof raw === 'string'
        ? 'a single string'
        : describeValue(raw);
    c.issue(
      'redactionPatterns',
      `must be a list of regular expressions like ["sk-[A-Za-z0-9]{20,}"]; got ${got}.`,
    );
    return [];
  }
  // The redactor's own check, so a saved pattern always compiles there; it names the pattern by
  // position only, never by its text.
  for (const problem of checkRedactionPatterns(raw)) {
    c.issue(`redactionPatterns[${problem.index}]`, `is refused: ${problem.message}`);
  }
  return raw;
}
