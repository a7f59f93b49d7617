import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ErrorCode, errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import { STOPPED_MESSAGE } from '../bridge/connector-batch.js';
import { heldToolMessage } from '../catalog/naming.js';
import type { ToolAnnotations } from '../catalog/types.js';
import { type Approval, type ApprovalQueue, type Clock, systemClock } from './approval-queue.js';
import type { AuditSink } from './audit-log.js';
import type { DefinitionReviews } from './definition-reviews.js';
import { createRedactionHook, type HookCall, type ToolCallHook, ToolCallHooks } from './hooks.js';
import {
  decidePolicy,
  type PolicyConfig,
  type PolicyDecision,
  type PolicyKey,
  type PolicyRule,
  type PolicySubject,
  type RuleAccount,
  ruleAccount,
  sameRuleAccount,
} from './policy.js';
import { isAlwaysAllow } from './policy-view.js';
import { createRedactor, type Redactor } from './redaction.js';
import { MCP_NAME_PREFIX, nameMatchesKey, toolKindOf } from './tool-key.js';
import type {
  ActivityEntry,
  ApprovalCardView,
  ApprovalToolFacts,
  AuditCallRef,
  CallAccount,
  CallEntryRef,
} from './types.js';

/** One real tool call, right before `tools/call` goes to its server (or the connector gateway). */
export interface GateRequest {
  agentId: string;
  /** The real agent-facing name: exactly `mcp__<serverId>__<toolName>` or `connectors__<serverId>__<toolName>`. */
  name: string;
  serverId: string;
  /** The tool's own name on its server. */
  toolName: string;
  /** Final arguments after coercion and defaults. */
  arguments: JsonObject;
  /** `definitionHash()` of the tool's current definition. */
  definitionHash: string;
  /**
   * The tool's definition hash right now, `undefined` once its server no longer lists it. Read
   * right before the call goes out (after any card): a tool changed or removed meanwhile is not run.
   */
  currentDefinitionHash?: () => string | undefined;
  annotations?: ToolAnnotations;
  /** The tool's description as its server gave it, shown on the card. */
  description?: string;
  /** Its description hides text: the call asks unless the person set this tool's own policy. */
  suspicious?: boolean;
  /** The bridge's argument check, shown on the card. @defaultValue `{ ok: true }` */
  validation?: ApprovalCardView['validation'];
  /** `connectors__` calls: the account it runs under, on the card, in the approval and the audit line. */
  account?: CallAccount;
  /**
   * Reads the alias a call ran under from its result (the gateway names it), so the audit line of
   * a call under the default account names that account too.
   */
  ranUnder?: (result: CallToolResult) => string | undefined;
  /** The agent's request; aborting it closes the card and nothing runs late. */
  signal?: AbortSignal;
  /** The tool_call entry this is, so its card shows inside that call's card. */
  call?: CallEntryRef;
  /**
   * The agent's current tool_call (shared by its entries; the bridge makes one per call). A Stop
   * on any card of this tool_call aborts it; the bridge then marks the entries not yet started
   * INTERRUPTED.
   */
  stop?: AbortController;
}

/** Sends the call to the server; gets the arguments the gate settled on. */
export type RunTool = (args: JsonObject) => Promise<CallToolResult>;

export interface ApprovalGateOptions {
  /** The current policy settings, read on every call so changes apply at once. */
  policy: () => PolicyConfig;
  queue: ApprovalQueue;
  /** User hooks, run in order before the built-in outbound redaction. */
  hooks?: ToolCallHooks;
  /** The current redactor (built from settings). @defaultValue built-in secret shapes only */
  redactor?: () => Redactor;
  audit?: AuditSink;
  /** Whether the person has been shown this tool_call (a card of it opened), for its audit lines. @defaultValue never */
  shownCall?: (callId: string) => boolean;
  clock?: Clock;
  /**
   * Persists an "always allow" rule (the gate already applies it for this session). The rule is
   * bound to the definition hash, so a changed tool asks again, and for a connector call to its
   * account, so another account of the app asks again.
   */
  onAlwaysAllow?: (rule: PolicyRule) => void | Promise<void>;
  /** The reviewed definitions of local tools: a tool changed since its review is refused, unasked. */
  reviews?: Pick<DefinitionReviews, 'heldAgainst'> & Partial<Pick<DefinitionReviews, 'acceptedByUser'>>;
}

type Decision = Pick<ActivityEntry, 'decision' | 'decidedBy' | 'policySource'>;

/** A stage's "no": the code and message the agent gets, and the decision the audit line records. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  decision: Decision;
  /** What the audit line says instead of `message` (the user's own words on a denied card). */
  auditMessage?: string;
}

/** One call as it passes the gate's stages; each stage reads what the earlier ones settled. */
interface GateCall {
  readonly request: GateRequest;
  readonly key: PolicyKey;
  /** The caller's arguments, copied (so later changes to its object change nothing), then as hooks rewrote them. */
  args: JsonObject;
  /** What the audit line records for a call that ran. */
  decision: Decision;
  /** The policy said ask: a card decides. */
  asks: boolean;
  /** The policy says the server must receive redacted arguments. */
  redactOutbound: boolean;
  approval?: Approval;
}

function gateCall(request: GateRequest): GateCall {
  return {
    request,
    // Precheck refuses a name of neither kind before any policy is read.
    key: {
      toolKind: toolKindOf(request.name) ?? 'mcp',
      serverId: request.serverId,
      toolName: request.toolName,
    },
    args: isPlainObject(request.arguments) ? structuredClone(request.arguments) : {},
    decision: { decision: 'allow', decidedBy: 'policy' },
    asks: false,
    redactOutbound: false,
  };
}

/** What the hooks see of a call, with a copy of its arguments as they stand. */
function hookCallOf(call: GateCall): HookCall {
  const { request } = call;
  return {
    agentId: request.agentId,
    name: request.name,
    serverId: request.serverId,
    toolName: request.toolName,
    arguments: structuredClone(call.args),
    redactOutbound: call.redactOutbound,
    ...(request.annotations === undefined ? {} : { annotations: request.annotations }),
  };
}

/** A refusal the system makes (not the person, not a policy): decision `deny`. */
function systemDenial(code: ErrorCode, message: string): Refusal {
  return { code, message, decision: { decision: 'deny', decidedBy: 'system' } };
}

/** An entry the user's Stop ended: INTERRUPTED, decided by the user (reference §3.5). */
const STOPPED: Refusal = {
  code: 'INTERRUPTED',
  message: STOPPED_MESSAGE,
  decision: { decision: 'interrupted', decidedBy: 'user' },
};

/** An `isError` result whose text is `{"code","message"}` JSON, as agents receive every refusal. */
export function toolErrorResult(code: ErrorCode, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ code, message }) }] };
}

/**
 * Reads back the `{code, message}` of a result made by `toolErrorResult` (for a batch that
 * reports entries by code); undefined for any other result.
 */
export function parseToolError(result: CallToolResult): { code: string; message: string } | undefined {
  if (result.isError !== true || result.content.length !== 1) return undefined;
  const [block] = result.content;
  if (block?.type !== 'text') return undefined;
  try {
    const value: unknown = JSON.parse(block.text);
    if (isPlainObject(value) && typeof value.code === 'string' && typeof value.message === 'string') {
      return { code: value.code, message: value.message };
    }
  } catch {
    // not one of ours
  }
  return undefined;
}

/**
 * The one decision point every real tool call passes (checklist A1): tool_call entries, pinned
 * tools, connector entries, the playground. Policy → pre-call hooks → card (for ask) → approval
 * re-checked → run → post-call hooks → audit. Never throws for an expected refusal: the agent
 * gets an `isError` result with a code (DENIED, APPROVAL_TIMEOUT, INTERRUPTED, CANCELLED,
 * NOT_FOUND, …).
 */
export class ApprovalGate {
  private readonly hooks: ToolCallHooks;
  private readonly redactor: () => Redactor;
  private readonly clock: Clock;
  private readonly redactionHook: ToolCallHook;
  private readonly sessionRules: PolicyRule[] = [];

  constructor(private readonly options: ApprovalGateOptions) {
    this.hooks = options.hooks ?? new ToolCallHooks();
    this.redactor = options.redactor ?? builtInRedactor();
    this.clock = options.clock ?? systemClock;
    this.redactionHook = createRedactionHook(this.redactor);
  }

  /** "Always allow" rules granted since start (they are also handed to `onAlwaysAllow`). */
  alwaysRules(): readonly PolicyRule[] {
    return [...this.sessionRules];
  }

  /**
   * Drops the "always allow" rules granted since start for one tool and account (no account: the
   * tool's rules for every account, as local tools and older rules have), so removing the saved
   * rule takes effect at once: without this the session's copy would go on allowing it.
   */
  forgetAlways(rule: PolicyKey & { account?: RuleAccount }): void {
    for (let index = this.sessionRules.length - 1; index >= 0; index--) {
      const held = this.sessionRules[index]!;
      if (
        held.toolKind === rule.toolKind &&
        held.serverId === rule.serverId &&
        held.toolName === rule.toolName &&
        sameRuleAccount(held.account, rule.account)
      )
        this.sessionRules.splice(index, 1);
    }
  }

  /** The policy a call of this tool gets now: the settings' rules plus this session's "always". */
  decide(subject: PolicySubject): PolicyDecision {
    const config = this.options.policy();
    // Accepting exactly this definition in the UI (the person read it) is its review too.
    const reviewed =
      subject.suspicious === true &&
      subject.definitionHash !== undefined &&
      this.options.reviews?.acceptedByUser?.(subject, subject.definitionHash) === true;
    return decidePolicy(
      { ...config, rules: [...(config.rules ?? []), ...this.sessionRules] },
      reviewed ? { ...subject, suspicious: false } : subject,
    );
  }

  /**
   * The stages, in order; each one either lets the call continue or refuses it with a code. A
   * refused call is audited and answered with that code; nothing after the refusing stage runs.
   */
  async call(request: GateRequest, run: RunTool): Promise<CallToolResult> {
    const call = gateCall(request);
    const refusal =
      this.precheck(call) ??
      this.decidePolicy(call) ??
      (await this.runBeforeHooks(call)) ??
      (await this.ask(call)) ??
      this.recheck(call);
    if (refusal !== undefined) return this.refuse(request, call.args, refusal);
    const started = this.clock.now();
    const result = await this.run(call, run);
    await this.audit(request, call.args, call.decision, result, this.clock.now() - started);
    return result;
  }

  /** Precheck: object arguments, a name the catalog resolved, no Stop or cancel yet, no held change. */
  private precheck(call: GateCall): Refusal | undefined {
    const { request, key } = call;
    const { name } = request;
    if (!isPlainObject(request.arguments)) {
      return systemDenial('INVALID_ARGUMENT', `The arguments for '${name}' must be an object.`);
    }
    if (!nameMatchesKey(name, key)) {
      // Only a name the catalog resolved may reach here; anything else is never dispatched.
      return systemDenial(
        'NOT_FOUND',
        `'${name}' is not a known tool; it was not run. Use tool_search to find the exact name.`,
      );
    }
    const early = this.interruption(request);
    if (early !== undefined) return early;
    if (name.startsWith(MCP_NAME_PREFIX) && this.options.reviews?.heldAgainst(key, request.definitionHash)) {
      return systemDenial('TOOL_CHANGED', heldToolMessage(name));
    }
    return undefined;
  }

  /** Decide: the policy (settings' rules plus this session's "always"); deny stops here. */
  private decidePolicy(call: GateCall): Refusal | undefined {
    const { request } = call;
    const decided = this.decide({
      ...call.key,
      definitionHash: request.definitionHash,
      annotations: request.annotations,
      ...(request.account === undefined ? {} : { account: request.account }),
      ...(request.suspicious === true ? { suspicious: true } : {}),
    });
    const { policy } = decided;
    call.asks = policy === 'ask';
    call.redactOutbound = decided.redactOutbound;
    // The audit line of a call the policy let through names which setting did (a card overrides it).
    call.decision = { decision: 'allow', decidedBy: 'policy', policySource: policySource(decided) };
    if (policy !== 'deny') return undefined;
    return {
      code: 'DENIED',
      message: `The user's policy does not allow '${request.name}', so it was not run. Do not retry it; if it is needed, ask the user to change the policy in Toolbridge.`,
      decision: { decision: 'deny', decidedBy: 'policy', policySource: policySource(decided) },
    };
  }

  /** Hooks: the user's pre-call hooks, then outbound redaction, may rewrite the arguments or block. */
  private async runBeforeHooks(call: GateCall): Promise<Refusal | undefined> {
    const { request } = call;
    const before = await this.hooks.runBefore(hookCallOf(call), [this.redactionHook]);
    if ('blockedBy' in before) {
      return {
        code: 'DENIED',
        message: `The hook "${before.blockedBy}" blocked '${request.name}': ${before.reason}. It was not run.`,
        decision: { decision: 'deny', decidedBy: 'hook' },
      };
    }
    call.args = before.arguments;
    return undefined;
  }

  /** Ask: under `ask`, a card with the final arguments; only an approval continues. */
  private async ask(call: GateCall): Promise<Refusal | undefined> {
    if (!call.asks) return undefined;
    const { request, key, args } = call;
    const { name } = request;
    const outcome = await this.options.queue.request(
      {
        agentId: request.agentId,
        name,
        ...key,
        arguments: args,
        secrets: this.redactor().findSecrets(args),
        definitionHash: request.definitionHash,
        validation: request.validation ?? { ok: true },
        ...(request.account === undefined ? {} : { account: request.account }),
        ...(request.call === undefined ? {} : { call: request.call }),
        ...toolFacts(request),
      },
      { signal: request.signal, stop: request.stop },
    );
    switch (outcome.kind) {
      case 'approved':
        call.approval = outcome.approval;
        call.decision = { decision: 'allow', decidedBy: 'user' };
        if (outcome.approval.always) await this.rememberAlways(key, request.definitionHash, request.account);
        return undefined;
      case 'denied':
        return {
          code: 'DENIED',
          message:
            outcome.message === undefined
              ? `The user denied '${name}'; it was not run.`
              : `The user denied '${name}'; it was not run. The user said: ${outcome.message}`,
          decision: { decision: 'deny', decidedBy: 'user' },
          ...(outcome.message === undefined ? {} : { auditMessage: outcome.message }),
        };
      case 'stopped':
        return {
          code: 'INTERRUPTED',
          message: STOPPED_MESSAGE,
          decision: { decision: 'interrupted', decidedBy: 'user' },
        };
      case 'timeout':
        return {
          code: 'APPROVAL_TIMEOUT',
          message: `No one answered the approval card for '${name}' in time, so it was not run. Ask the user to watch Toolbridge for the card, then retry.`,
          decision: { decision: 'timeout', decidedBy: 'system' },
        };
      case 'cancelled':
        return {
          code: 'CANCELLED',
          message: `The request was cancelled before '${name}' was approved; it was not run.`,
          decision: { decision: 'interrupted', decidedBy: 'system' },
        };
      case 'closed':
        return {
          code: 'INTERRUPTED',
          message: `Toolbridge is shutting down; '${name}' was not run.`,
          decision: { decision: 'interrupted', decidedBy: 'system' },
        };
    }
  }

  /**
   * Recheck, right before the call goes out: between the decision and now the agent may have gone,
   * the user may have pressed Stop on a sibling, the approval may not match, or the tool changed.
   */
  private recheck(call: GateCall): Refusal | undefined {
    const { request, key, approval } = call;
    const late = this.interruption(request);
    if (late !== undefined) return late;
    if (
      approval !== undefined &&
      !this.options.queue.redeem(approval, {
        agentId: request.agentId,
        ...key,
        definitionHash: request.definitionHash,
        arguments: call.args,
        ...(request.account === undefined ? {} : { account: request.account }),
      })
    ) {
      return systemDenial(
        'DENIED',
        `The approval does not match this call to '${request.name}' any more; it was not run.`,
      );
    }
    const drift = definitionDrift(request);
    return drift === undefined ? undefined : systemDenial('TOOL_CHANGED', drift);
  }

  /** Run: the server (or gateway) gets a copy of the settled arguments; post-call hooks shape the result. */
  private async run(call: GateCall, run: RunTool): Promise<CallToolResult> {
    try {
      const result = await run(structuredClone(call.args));
      return await this.hooks.runAfter(hookCallOf(call), result);
    } catch (error) {
      return ToolbridgeError.is(error)
        ? toolErrorResult(error.code, error.message)
        : toolErrorResult('INTERNAL', `'${call.request.name}' failed: ${errorMessage(error)}`);
    }
  }

  /**
   * Audits an entry that the user's Stop (or the agent's cancel) ended before it came here, as a
   * connector batch does for the entries after the one stopped: each gets its own line, decision
   * `interrupted`. Runs nothing and opens no card.
   */
  async recordInterrupted(request: GateRequest): Promise<void> {
    const args = isPlainObject(request.arguments) ? structuredClone(request.arguments) : {};
    await this.refuse(request, args, this.interruption(request) ?? STOPPED);
  }

  /**
   * Audits an entry the bridge refused before it came here (arguments that do not fit the tool's
   * schema): decision `deny`, by the system. Runs nothing and opens no card.
   */
  async recordRefused(request: GateRequest, refusal: { code: ErrorCode; message: string }): Promise<void> {
    const args = isPlainObject(request.arguments) ? structuredClone(request.arguments) : {};
    await this.refuse(request, args, systemDenial(refusal.code, refusal.message));
  }

  /** The agent's cancel or the user's Stop, if either has happened. */
  private interruption(request: GateRequest): Refusal | undefined {
    if (request.signal?.aborted) {
      return {
        code: 'CANCELLED',
        message: `The request was cancelled; '${request.name}' was not run.`,
        decision: { decision: 'interrupted', decidedBy: 'system' },
      };
    }
    return request.stop?.signal.aborted ? STOPPED : undefined;
  }

  private async rememberAlways(
    key: PolicyKey,
    definitionHash: string,
    account: CallAccount | undefined,
  ): Promise<void> {
    const bound = { ...key, ...(account === undefined ? {} : { account: ruleAccount(account) }) };
    const rule: PolicyRule = {
      ...bound,
      policy: 'allow',
      definitionHash,
      savedAt: new Date(this.clock.now()).toISOString(),
      savedFrom: 'card',
    };
    // The same tool and account's earlier rule holds a stale hash; other accounts' rules stay.
    this.forgetAlways(bound);
    this.sessionRules.push(rule);
    try {
      await this.options.onAlwaysAllow?.({ ...rule });
    } catch (error) {
      console.warn(
        'toolbridge: could not save an "always allow" rule; it holds for this session only:',
        errorMessage(error),
      );
    }
  }

  private async refuse(request: GateRequest, args: JsonObject, refusal: Refusal): Promise<CallToolResult> {
    const result = toolErrorResult(refusal.code, refusal.message);
    await this.audit(request, args, refusal.decision, result, 0, refusal.auditMessage ?? refusal.message);
    return result;
  }

  private auditCall({ id, index }: CallEntryRef): AuditCallRef {
    return this.options.shownCall?.(id) === true ? { id, index, shown: true } : { id, index };
  }

  private async audit(
    request: GateRequest,
    args: JsonObject,
    decision: Decision,
    result: CallToolResult,
    durationMs: number,
    message?: string,
  ): Promise<void> {
    if (this.options.audit === undefined) return;
    const isError = result.isError === true;
    const redactor = this.redactor();
    // All text blocks, redacted together: a secret split across two blocks is still found.
    const text =
      message === undefined
        ? isError
          ? redactor.redactParts(textBlocks(result)).join('\n')
          : undefined
        : redactor.redactText(message);
    const account = auditAccount(request, result);
    try {
      await this.options.audit.append({
        time: new Date(this.clock.now()).toISOString(),
        agentId: request.agentId,
        toolName: request.name,
        serverId: request.serverId,
        ...(account === undefined ? {} : { account }),
        ...(request.call === undefined ? {} : { call: this.auditCall(request.call) }),
        arguments: redactor.redactValue(args),
        ...decision,
        durationMs,
        resultBytes: Buffer.byteLength(JSON.stringify(result)),
        isError,
        ...(text === undefined || text === '' ? {} : { message: text.slice(0, 500) }),
      });
    } catch (error) {
      // The call has happened; losing its audit line must not turn it into a failure.
      console.warn('toolbridge: could not write the audit log:', errorMessage(error));
    }
  }
}

/** What the card shows of the tool itself: its description, title and hints, when it has any. */
function toolFacts(request: GateRequest): { tool?: ApprovalToolFacts } {
  const tool: ApprovalToolFacts = { ...request.annotations };
  if (request.description !== undefined && request.description !== '') tool.description = request.description;
  return Object.keys(tool).length === 0 ? {} : { tool };
}

/** Which setting a policy decision came from, as the audit line names it. */
function policySource(decision: PolicyDecision): NonNullable<ActivityEntry['policySource']> {
  if (decision.source !== 'rule') return decision.source;
  return decision.rule !== undefined && isAlwaysAllow(decision.rule) ? 'always-allow' : 'rule';
}

/** Why a call must not go out because its tool changed or vanished since it was judged; undefined when it may. */
function definitionDrift(request: GateRequest): string | undefined {
  if (request.currentDefinitionHash === undefined) return undefined;
  const now = request.currentDefinitionHash();
  if (now === request.definitionHash) return undefined;
  return now === undefined
    ? `'${request.name}' is no longer offered by its server (it went away while this call waited); it was not run. Use tool_search to see what is offered now.`
    : `'${request.name}' changed (its description, schema or annotations) after this call was judged; it was not run. Call tool_describe to read its current definition before deciding to retry.`;
}

/** The request's account; a default one gets the alias the gateway said it ran under, when it did. */
function auditAccount(request: GateRequest, result: CallToolResult): CallAccount | undefined {
  const { account } = request;
  if (account === undefined || !account.default || 'alias' in account) return account;
  const alias = request.ranUnder?.(result);
  return alias === undefined ? account : { alias, default: true };
}

function textBlocks(result: CallToolResult): string[] {
  return (result.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

function builtInRedactor(): () => Redactor {
  const redactor = createRedactor();
  return () => redactor;
}
