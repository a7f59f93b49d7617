import type { ToolAnnotations } from '../catalog/types.js';
import type { Policy } from '../host/api.js';
import { nameSkeleton, type ToolKey } from './tool-key.js';

/** One explicit rule. Rules are judged deny → ask → allow; the first match wins whatever its scope. */
export interface PolicyRule {
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
}

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
  servers?: Record<string, ServerPolicy>;
  rules?: readonly PolicyRule[];
}

export const DEFAULT_POLICY: Policy = 'ask';

/** The tool being judged: its canonical key, plus what its server says about it. */
export interface PolicySubject extends ToolKey {
  definitionHash?: string;
  annotations?: ToolAnnotations;
}

export interface PolicyDecision {
  policy: Policy;
  /** What decided: an explicit rule, the server's fallback, a trusted read-only hint, or the default. */
  source: 'rule' | 'server' | 'read-only' | 'default';
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
  const rules = (config.rules ?? []).filter((rule) => ruleMatches(rule, subject));
  const server = config.servers?.[subject.serverId];
  const redactOutbound =
    server?.redactOutbound === true || rules.some((rule) => rule.redactOutbound === true);
  for (const policy of EVALUATION_ORDER) {
    const rule = rules.find((candidate) => candidate.policy === policy);
    if (rule !== undefined) return { policy, source: 'rule', rule, redactOutbound };
  }
  const fallback = server?.policy;
  const policy = fallback ?? config.defaultPolicy;
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
  if (rule.serverId !== subject.serverId) return false;
  if (rule.toolName === undefined) return true;
  if (rule.policy === 'allow') {
    // Allow is exact: a look-alike name or a changed definition is a tool the user never allowed.
    if (rule.toolName !== subject.toolName) return false;
    return rule.definitionHash === undefined || rule.definitionHash === subject.definitionHash;
  }
  // Deny and ask also cover look-alikes on the same server (`Delete_File` beside `delete_file`),
  // so a server cannot step around a rule by offering the same name spelled differently.
  return rule.toolName === subject.toolName || nameSkeleton(rule.toolName) === nameSkeleton(subject.toolName);
}
