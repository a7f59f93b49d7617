import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Event } from '../base/emitter.js';
import { type ErrorCode, errorMessage } from '../base/errors.js';
import type { JsonObject } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { ApprovalQueue, type CardResolvedEvent, type Clock, systemClock } from './approval-queue.js';
import { AuditLog, type AuditLogOptions } from './audit-log.js';
import { DefinitionReviews, type ReviewsFile } from './definition-reviews.js';
import { ApprovalGate, type GateRequest, type RunTool } from './gate.js';
import { ToolCallHooks } from './hooks.js';
import type {
  PolicyConfig,
  PolicyDecision,
  PolicyKey,
  PolicyRule,
  PolicySubject,
  RuleAccount,
} from './policy.js';
import {
  type PolicySettingsLike,
  policyConfigFromSettings,
  type ServerSettingsLike,
} from './policy-settings.js';
import { checkRedactionPatterns, createRedactor, type Redactor } from './redaction.js';
import type { ActivityEntry, ActivityPage, ActivityQuery, ApprovalCardView, CardDecision } from './types.js';

/** The settings approvals read, on every call, so a change applies at once. */
export interface ApprovalSettings {
  policy: PolicyConfig;
  /** Regular-expression sources from settings, on top of the built-in secret shapes. */
  redactionPatterns: readonly string[];
  cardTimeoutMs: number;
}

/** The parts of the settings document approvals read. */
export interface ApprovalSettingsSource {
  policies: PolicySettingsLike;
  servers: readonly ServerSettingsLike[];
  redactionPatterns: readonly string[];
  cardTimeoutMs: number;
}

/**
 * Approvals' settings from the settings document, built once per document (a new one comes with
 * every change) and effective default policy: a run's `--policy` override wins until cleared.
 */
export function approvalSettingsReader(
  document: () => ApprovalSettingsSource,
  defaultPolicyOverride: () => PolicySettingsLike['default'] | undefined,
): () => ApprovalSettings {
  let built: { source: ApprovalSettingsSource; settings: ApprovalSettings } | undefined;
  return () => {
    const source = document();
    const defaultPolicy = defaultPolicyOverride() ?? source.policies.default;
    if (built?.source !== source || built.settings.policy.defaultPolicy !== defaultPolicy) {
      built = {
        source,
        settings: {
          policy: policyConfigFromSettings({ ...source.policies, default: defaultPolicy }, source.servers),
          redactionPatterns: source.redactionPatterns,
          cardTimeoutMs: source.cardTimeoutMs,
        },
      };
    }
    return built.settings;
  };
}

export interface ApprovalsOptions {
  /** The data folder; the audit log lives in it as `audit.jsonl`. */
  dataDir: string;
  settings: () => ApprovalSettings;
  /** Save an "always allow" rule into the settings (see PolicySettingsLike.rules). */
  onAlwaysAllow?: (rule: PolicyRule) => void | Promise<void>;
  clock?: Clock;
  /**
   * The redactor for the card findings and the audit log, when the caller keeps one for every sink
   * (the host's also knows held secrets by value). @defaultValue built from `redactionPatterns`
   */
  redactor?: () => Redactor;
  /** Where the reviewed tool definitions are kept; absent: in memory for this run only. */
  reviewsFile?: ReviewsFile;
  /** See ApprovalGateOptions.shownCall. */
  shownCall?: (callId: string) => boolean;
  /** Audit log tuning: size limit, files kept, fsync interval. */
  audit?: Pick<AuditLogOptions, 'maxFileBytes' | 'keepFiles' | 'syncIntervalMs' | 'maxArgumentChars'>;
}

/** The audit log's `agentId` for a change a person made in the UI (desktop window or web page). */
export const UI_ACTOR_ID = 'ui';

/** A policy change made in the UI, for the audit log. */
export interface PolicyChange {
  serverId: string;
  /** The agent-facing tool name; empty for a change about a whole server. */
  toolName: string;
  /** What changed, as data, e.g. `{ "setting": "tool", "policy": "deny", "previous": "inherit" }`. */
  change: JsonObject;
  /** The change in words. */
  message: string;
}

/**
 * Approvals, composed: the gate, its card queue, hooks and the audit log, with the methods and
 * events the UI API needs. The host makes one with `Approvals.open()`, calls `gate.call()` right
 * before each `tools/call`, forwards the UI methods and events, and closes it on shutdown.
 */
export class Approvals implements AsyncDisposable {
  readonly onDidOpenCard: Event<ApprovalCardView>;
  readonly onDidResolveCard: Event<CardResolvedEvent>;
  readonly onDidAppendActivity: Event<ActivityEntry>;

  private constructor(
    readonly queue: ApprovalQueue,
    readonly audit: AuditLog,
    readonly gate: ApprovalGate,
    /** Add pre-/post-call hooks here; they run for every call, in the order added. */
    readonly hooks: ToolCallHooks,
    /** The reviewed tool definitions (trust on first use; a changed tool is held until accepted). */
    readonly reviews: DefinitionReviews,
  ) {
    this.onDidOpenCard = queue.onDidOpenCard;
    this.onDidResolveCard = queue.onDidResolveCard;
    this.onDidAppendActivity = audit.onDidAppend;
  }

  static async open(options: ApprovalsOptions): Promise<Approvals> {
    const clock = options.clock ?? systemClock;
    const redactor = options.redactor ?? cachedRedactor(() => options.settings().redactionPatterns);
    const queue = new ApprovalQueue({ clock, cardTimeoutMs: () => options.settings().cardTimeoutMs });
    const audit = await AuditLog.open({ ...options.audit, dir: options.dataDir, redactor, clock });
    const hooks = new ToolCallHooks();
    const reviews = await DefinitionReviews.open(options.reviewsFile, clock);
    const gate = new ApprovalGate({
      reviews,
      policy: () => options.settings().policy,
      queue,
      hooks,
      redactor,
      audit,
      clock,
      ...(options.shownCall === undefined ? {} : { shownCall: options.shownCall }),
      ...(options.onAlwaysAllow === undefined ? {} : { onAlwaysAllow: options.onAlwaysAllow }),
    });
    return new Approvals(queue, audit, gate, hooks, reviews);
  }

  /** The gate's one entry point; see ApprovalGate.call. */
  call(request: GateRequest, run: RunTool): Promise<CallToolResult> {
    return this.gate.call(request, run);
  }

  /** Audits an entry a Stop ended before it reached `call`; see ApprovalGate.recordInterrupted. */
  recordInterrupted(request: GateRequest): Promise<void> {
    return this.gate.recordInterrupted(request);
  }

  /** Audits an entry refused before it reached `call`; see ApprovalGate.recordRefused. */
  recordRefused(request: GateRequest, refusal: { code: ErrorCode; message: string }): Promise<void> {
    return this.gate.recordRefused(request, refusal);
  }

  /** The policy a call of this tool gets now (the same decision the gate makes). */
  decide(subject: PolicySubject): PolicyDecision {
    return this.gate.decide(subject);
  }

  /** Forgets this session's "always allow" for a tool and account, once its saved rule is removed. */
  forgetAlwaysAllow(rule: PolicyKey & { account?: RuleAccount }): void {
    this.gate.forgetAlways(rule);
  }

  /** Writes a policy change to the audit log, by the user through the UI. Never throws. */
  async recordPolicyChange(change: PolicyChange): Promise<void> {
    try {
      await this.audit.append({
        agentId: UI_ACTOR_ID,
        toolName: change.toolName,
        serverId: change.serverId,
        arguments: change.change,
        decision: 'policy-change',
        decidedBy: 'user',
        durationMs: 0,
        resultBytes: 0,
        isError: false,
        message: change.message,
      });
    } catch (error) {
      // The change is saved and in force; a lost audit line must not undo or hide it.
      console.warn('toolbridge: could not write a policy change to the audit log:', errorMessage(error));
    }
  }

  // The UI API's card and activity methods.
  listCards(): ApprovalCardView[] {
    return this.queue.list();
  }

  resolveCard(id: string, decision: CardDecision): void {
    this.queue.resolve(id, decision);
  }

  queryActivity(query: ActivityQuery): Promise<ActivityPage> {
    return this.audit.query(query);
  }

  exportActivity(format: 'jsonl' | 'csv', query?: ActivityQuery): Promise<string> {
    return this.audit.export(format, query);
  }

  /**
   * Fails waiting calls first (nothing runs late), then finishes the reviewed definitions still
   * being written (a first-use record lost here would trust a changed tool at the next start) and
   * flushes and closes the log.
   */
  async close(): Promise<void> {
    await this.queue.close();
    await this.reviews.settled();
    await this.audit.close();
  }
}

/**
 * A redactor rebuilt only when the patterns change. A pattern that does not compile is skipped
 * with a warning (settings validation should have refused it); logging never stops over it.
 */
function cachedRedactor(patterns: () => readonly string[]): () => Redactor {
  let key: string | undefined;
  let redactor: Redactor = createRedactor();
  return () => {
    const list = patterns();
    const next = JSON.stringify(list);
    if (next !== key) {
      key = next;
      const problems = checkRedactionPatterns(list);
      for (const problem of problems) console.warn(`toolbridge: ${problem.message}`);
      const bad = new Set(problems.map((problem) => problem.index));
      redactor = createRedactor(list.filter((_, index) => !bad.has(index)));
    }
    return redactor;
  };
}
