/**
 * The records approvals owns: policies, the account a call runs under, approval cards and their
 * decisions, the audit line as it is kept on disk (`ActivityEntry`). The UI contract re-exports them.
 */
import type { JsonObject, JsonValue } from '../base/json.js';
import type { ToolKind } from './tool-key.js';

/** Where a tool's effective policy comes from. */
export type PolicySource =
  | 'tool'
  | 'server'
  | 'default'
  | 'always-allow'
  | 'rule'
  | 'read-only'
  | 'suspicious';

export interface ToolPolicyView {
  /** The tool's own setting (`policies.tools`); absent: it inherits from its server or the default. */
  setting?: Policy;
  /** What a call of it gets now. */
  effective: Policy;
  source: PolicySource;
  /** The source in words, e.g. "Set for its server \"files\"." */
  reason: string;
}

/** A saved rule (`policies.rules`) as the UI lists it. */
export interface PolicyRuleView {
  /** Derived from the rule's content; pass it to `removePolicyRule`. */
  id: string;
  /** An MCP server's tools (`mcp`) or a connector app's (`connectors`): `serverId` names one of them. */
  toolKind: ToolKind;
  serverId: string;
  /** The tool's own name on its server; absent for a rule about every tool of the server. */
  toolName?: string;
  /** The agent-facing name, when the catalog holds the tool now. */
  name?: string;
  policy: Policy;
  /** `always-allow`: an allow rule bound to the tool's definition ("Always allow" on a card). */
  kind: 'always-allow' | 'rule';
  /** ISO 8601, when the rule records it. */
  savedAt?: string;
  savedFrom?: 'card';
  /**
   * Connector tools: the one account the rule holds for (`{alias}`, or `{default: true}` for a
   * call that named none); absent for every account.
   */
  account?: CallAccount;
  redactOutbound: boolean;
  /**
   * Rules bound to a definition: `current` while the tool's definition is the one approved,
   * `changed` once it differs (the rule no longer applies; the tool asks again), `unknown` when
   * the tool is not listed now.
   */
  definition?: 'current' | 'changed' | 'unknown';
  /** What the rule does and why it is there, in words. */
  description: string;
}

/** The three policies, in the order the UI offers them. */
export const POLICIES = ['allow', 'ask', 'deny'] as const;
export type Policy = (typeof POLICIES)[number];

/** The parts of a tool definition the person reviews (as its server lists them). */
export interface ToolDefinitionView {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
}

/**
 * A tool whose definition changed since the person last reviewed it: held from agents (out of
 * search, describe, listings and pins; calls refused) until they accept the change.
 */
export interface ToolChangeView {
  reviewed: ToolDefinitionView;
  /** ISO 8601: when the reviewed definition was first seen or accepted. */
  reviewedAt: string;
  current: ToolDefinitionView;
}

/**
 * The connector account a call runs under (`connectors__` tools only): the alias the entry named,
 * or the app's default account. Before the call the default account's alias is unknown (the host
 * keeps no copy of the account list); the audit line of a call that ran names the alias the
 * gateway reported.
 */
export type CallAccount = { alias: string; default?: true } | { default: true };

/** A secret-looking value inside a call's arguments. */
export interface ArgumentSecret {
  /** Keys and array indexes from the arguments' root to the value. */
  path: Array<string | number>;
  /** What it looks like, in words: "a private key (PEM)", "the value of a key named \"password\"", … */
  kinds: string[];
}

export interface ApprovalCardView {
  kind: 'approval';
  id: string;
  agentId: string;
  serverId: string;
  /** The real tool name (`mcp__server__tool` or `connectors__…`), never a bridge name. */
  toolName: string;
  /** Connector calls: the account the call runs under (the approval is bound to it). */
  account?: CallAccount;
  /** Exactly the arguments that will be sent, every key included: the card never hides one. */
  arguments: JsonObject;
  /**
   * Values in `arguments` that look secret (a key named like a password, a token's shape, a
   * secret Toolbridge holds). The card masks each behind a Reveal toggle and warns that it is
   * about to be sent.
   */
  secrets: ArgumentSecret[];
  /**
   * The bridge's argument check. `notEnforced` lists schema patterns the linear-time engine cannot
   * run (lookarounds, backreferences): the arguments were not checked against them.
   */
  validation: { ok: true; notEnforced?: string[] } | { ok: false; message: string; path?: string };
  /** The tool_call and entry it decides (see `CallView`): the UI shows it inside that call's card. */
  call?: CallEntryRef;
  /** What the tool says of itself (its server's words and hints, unchecked), for the person to weigh. */
  tool?: ApprovalToolFacts;
  createdAt: string;
  expiresAt: string;
}

/**
 * A tool's description, title and behaviour hints as its server declared them: claims, not facts,
 * unless the person marked the server trusted.
 */
export interface ApprovalToolFacts {
  title?: string;
  description?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One entry of one tool_call: the call's record id and the entry's input index. */
export interface CallEntryRef {
  id: string;
  index: number;
}

/**
 * A person's answer to a card. Approval cards take approve, always, deny or stop; a sampling
 * card approve or deny; an elicitation card accept (with the form's `content`; none for a URL),
 * decline or cancel (dismissed without a choice).
 */
export type CardDecision =
  | { action: 'approve' }
  | { action: 'always' }
  | { action: 'deny'; message?: string }
  | { action: 'stop' }
  | { action: 'accept'; content?: JsonObject }
  | { action: 'decline' }
  | { action: 'cancel' };

/** The tool call a server's request came with: the one in flight on that connection. */
export interface RequestCallView {
  agentId: string;
  /** The agent-facing tool name, `mcp__<server>__<tool>`. */
  toolName: string;
}

/**
 * A server asks the person for input (MCP elicitation): a form built from `requestedSchema`, or
 * a URL to open, its host name shown before it opens. The tool call waits for the answer.
 */
export interface ElicitationCardView {
  kind: 'elicitation';
  id: string;
  serverId: string;
  /** The tool call it came with; absent when none was in flight (the server asked on its own). */
  origin?: RequestCallView;
  mode: 'form' | 'url';
  /** The server's words, shown exactly as text. */
  message: string;
  /** Form mode: a flat object schema of strings, numbers, booleans and enums. */
  requestedSchema?: JsonObject;
  /** URL mode: the page the server wants opened, and its host name as the URL parser reads it. */
  url?: string;
  urlHost?: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * A server asks for a reply of the agent's model (MCP sampling), which spends the user's model:
 * the card shows the prompt exactly and the requesting server; approve relays it to the agent.
 */
export interface SamplingCardView {
  kind: 'sampling';
  id: string;
  serverId: string;
  /** The tool call it came with. */
  origin?: RequestCallView;
  /** The agent whose model would answer. */
  agentId: string;
  /** The conversation to send, each message's content as the server sent it. */
  messages: Array<{ role: string; content: JsonValue }>;
  systemPrompt?: string;
  maxTokens: number;
  /** Context the server asks the agent to add (`thisServer`, `allServers`), if any. */
  includeContext?: string;
  /** Model hints and priorities, as sent. */
  modelPreferences?: JsonObject;
  createdAt: string;
  expiresAt: string;
}

/**
 * What became of a call, as the audit line says (the only list of them): a policy's answer, a
 * Stop, a card that timed out, or `policy-change` when a person changed a policy in the UI (no
 * call was made).
 */
export const AUDIT_DECISIONS = [...POLICIES, 'interrupted', 'timeout', 'policy-change'] as const;
export type AuditDecision = (typeof AUDIT_DECISIONS)[number];

export interface ActivityEntry {
  id: string;
  time: string;
  agentId: string;
  toolName: string;
  serverId: string;
  /** Connector calls: the account it ran (or would have run) under. Absent on older lines. */
  account?: CallAccount;
  arguments: JsonValue;
  /** `policy-change`: a person changed a policy or removed a rule in the UI (no call was made). */
  decision: AuditDecision;
  decidedBy: 'policy' | 'user' | 'hook' | 'system';
  /**
   * `decidedBy: 'policy'`: which setting decided (an "Always allow" rule, another saved rule, the
   * server's policy, the default, a trusted read-only hint). Absent on older lines.
   */
  policySource?: Exclude<PolicySource, 'tool'>;
  durationMs: number;
  resultBytes: number;
  isError: boolean;
  message?: string;
  /**
   * The tool_call entry it was, with `shown` once a card of that call had been shown to the person:
   * Cards → Recent is rebuilt from these after a restart. Absent on older lines.
   */
  call?: AuditCallRef;
}

/** An audit line's tool_call entry; `shown`: the person had been shown the call by the time it ended. */
export interface AuditCallRef extends CallEntryRef {
  shown?: true;
}

export interface ActivityQuery {
  toolName?: string;
  serverId?: string;
  agentId?: string;
  decision?: ActivityEntry['decision'];
  since?: string;
  until?: string;
  /** Words that must all appear (any case) in the tool, server, agent, decision, account, message or arguments. */
  text?: string;
  /** Opaque cursor from the previous page. */
  cursor?: string;
  limit?: number;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  nextCursor?: string;
}
