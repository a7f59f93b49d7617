import type { ToolAnnotations } from '../catalog/types.js';
import { nameSkeleton, type ToolKey, type ToolKind } from './tool-key.js';
import type { CallAccount, Policy } from './types.js';

/** One explicit rule. Rules are judged deny → ask → allow; the first match wins whatever its scope. */
export interface PolicyRule {
  /**
   * Whose tools: an MCP server's (`mcp`, `serverId` is the server id) or a connector app's
   * (`connectors`, `serverId` is the app id). A server and an app may share an id; a rule covers
   * only its own kind.
   */
  toolKind: ToolKind;
  serverId: string;
  /** The tool's own name on its server; absent for a rule about every tool of the server. */
  toolName?: string;
  policy: Policy;
  /**
   * Allow rules only: the rule holds only while the tool's definition hash is this one, so a tool
   * whose definition changed asks again. "Always allow" sets it. Ignored on deny and ask rules: a
   * stricter rule must not lapse because a server rewrote its tool.
   */
  definitionHash?: string;
  /** Send the server redacted arguments (secrets replaced) instead of the originals. */
  redactOutbound?: boolean;
  /** When the rule was saved (ISO 8601); "Always allow" records it, so the UI can say when. */
  savedAt?: string;
  /** Where the rule came from: `card` for "Always allow" on an approval card. */
  savedFrom?: 'card';
  /**
   * Allow rules for a connector tool only: the rule holds only for calls under this account, as
   * "Always allow" on a card for that account saves it. Absent (rules saved before accounts were
   * recorded, hand-written ones): every account. Ignored on deny and ask rules, as the hash is.
   */
  account?: RuleAccount;
}

/**
 * The account a rule holds for, as the approval request named it: an alias, or the app's default
 * account when the call named none (its alias is not known before the call).
 */
export type RuleAccount = { alias: string } | { default: true };

/** Per-server settings that apply when no rule matches. */
export interface ServerPolicy {
  /** The fallback for this server's tools; the global default when absent. */
  policy?: Policy;
  /**
   * The user trusts this server's annotations ("trust read-only tools of this server"): a tool that
   * says `readOnlyHint: true` (and not `destructiveHint: true`) is allowed where the fallback would ask.
   */
  trusted?: boolean;
  redactOutbound?: boolean;
}

export interface PolicyConfig {
  /** For every tool no rule and no server setting covers. @defaultValue 'ask' */
  defaultPolicy: Policy;
  /** MCP server id → its settings. */
  servers?: Record<string, ServerPolicy>;
  /** Connector app id → its settings (an app of the same id as a server is another namespace). */
  connectors?: Record<string, ServerPolicy>;
  rules?: readonly PolicyRule[];
}

export const DEFAULT_POLICY: Policy = 'ask';

/**
 * A tool as policies key it: its canonical key and whose it is (an MCP server's or a connector
 * app's); rules and server settings of the other kind never apply.
 */
export interface PolicyKey extends ToolKey {
  toolKind: ToolKind;
}

/** The tool being judged: its policy key, plus what its server says about it. */
export interface PolicySubject extends PolicyKey {
  definitionHash?: string;
  annotations?: ToolAnnotations;
  /** Connector calls: the account the call runs under. */
  account?: CallAccount;
  /** Its description hides text (`base/suspicious-text.ts`): it asks until the person sets its own policy. */
  suspicious?: boolean;
}

export interface PolicyDecision {
  policy: Policy;
  /**
   * What decided: an explicit rule, the server's fallback, a trusted read-only hint, the default,
   * or a suspicious description overriding a fallback or server-wide allow.
   */
  source: 'rule' | 'server' | 'read-only' | 'default' | 'suspicious';
  rule?: PolicyRule;
  redactOutbound: boolean;
}

const EVALUATION_ORDER: readonly Policy[] = ['deny', 'ask', 'allow'];

/**
 * Decides one tool. Pure and deterministic: the same config and subject always give the same
 * decision. Rules: deny, then ask, then allow, first match wins (a server-wide deny beats a
 * tool allow). Then the server's fallback, else the default. Annotations can only relax an `ask`
 * fallback to `allow`, and only for a server the user marked trusted; they never touch a rule.
 */
export function decidePolicy(config: PolicyConfig, subject: PolicySubject): PolicyDecision {
  // A suspicious tool is reviewed only by a choice about it: a server-wide allow does not count.
  const rules = (config.rules ?? []).filter(
    (rule) =>
      ruleMatches(rule, subject) &&
      !(subject.suspicious === true && rule.policy === 'allow' && rule.toolName === undefined),
  );
  const server = (subject.toolKind === 'connectors' ? config.connectors : config.servers)?.[subject.serverId];
  const redactOutbound =
    server?.redactOutbound === true || rules.some((rule) => rule.redactOutbound === true);
  for (const policy of EVALUATION_ORDER) {
    const rule = rules.find((candidate) => candidate.policy === policy);
    if (rule !== undefined) return { policy, source: 'rule', rule, redactOutbound };
  }
  const fallback = server?.policy;
  const policy = fallback ?? config.defaultPolicy;
  if (subject.suspicious === true && policy !== 'deny')
    return { policy: 'ask', source: 'suspicious', redactOutbound };
  const hints = subject.annotations;
  if (
    policy === 'ask' &&
    server?.trusted === true &&
    hints?.readOnlyHint === true &&
    hints.destructiveHint !== true
  ) {
    return { policy: 'allow', source: 'read-only', redactOutbound };
  }
  return { policy, source: fallback === undefined ? 'default' : 'server', redactOutbound };
}

function ruleMatches(rule: PolicyRule, subject: PolicySubject): boolean {
  if (rule.toolKind !== subject.toolKind) return false;
  if (rule.policy === 'allow') {
    // Allow is exact: a look-alike name or a changed definition is a tool the user never allowed.
    if (rule.serverId !== subject.serverId) return false;
    if (rule.toolName === undefined) return true;
    if (rule.toolName !== subject.toolName) return false;
    if (!accountMatches(rule.account, subject.account)) return false;
    return rule.definitionHash === undefined || rule.definitionHash === subject.definitionHash;
  }
  // Deny and ask also cover look-alikes (`Delete_File` or a Cyrillic `dеlete_file` beside
  // `delete_file`, a connector `slаck` beside `slack`), so a server or a gateway cannot step
  // around a rule by offering the same name spelled differently.
  if (!looksAlike(rule.serverId, subject.serverId)) return false;
  return rule.toolName === undefined || looksAlike(rule.toolName, subject.toolName);
}

function looksAlike(a: string, b: string): boolean {
  return a === b || nameSkeleton(a) === nameSkeleton(b);
}

/** The rule's form of a call's account: the alias it named, else the default account. */
export function ruleAccount(account: CallAccount): RuleAccount {
  return 'alias' in account ? { alias: account.alias } : { default: true };
}

/** True when two rules hold for the same accounts: the same alias, both the default, or both every account. */
export function sameRuleAccount(a: RuleAccount | undefined, b: RuleAccount | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return 'alias' in a ? 'alias' in b && a.alias === b.alias : !('alias' in b);
}

/**
 * A rule without an account holds for every account (and for local tools). One with an account
 * holds only for a call under it; a call that named no account counts as the default account's,
 * never as a named alias's, since which alias is the default is not known before the call.
 */
function accountMatches(rule: RuleAccount | undefined, subject: CallAccount | undefined): boolean {
  if (rule === undefined) return true;
  if (subject === undefined) return false;
  return 'alias' in rule ? 'alias' in subject && subject.alias === rule.alias : subject.default === true;
}
