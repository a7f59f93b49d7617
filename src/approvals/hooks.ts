import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject } from '../base/json.js';
import { type Disposable, toDisposable } from '../base/lifecycle.js';
import type { ToolAnnotations } from '../catalog/types.js';
import type { Redactor } from './redaction.js';

/** What a hook sees: the real tool and arguments, never a bridge wrapper. */
export interface HookCall {
  agentId: string;
  /** The real agent-facing name, e.g. `mcp__files__write_file`. */
  name: string;
  serverId: string;
  toolName: string;
  /** A copy; to change the arguments, return a `rewrite`. */
  arguments: JsonObject;
  annotations?: ToolAnnotations;
  /** The policy says the server must receive redacted arguments. */
  redactOutbound: boolean;
}

export type PreCallVerdict =
  | { action: 'continue' }
  | { action: 'rewrite'; arguments: JsonObject }
  | { action: 'block'; reason: string };

/** An in-process hook around every real tool call. Both methods are optional. */
export interface ToolCallHook {
  readonly name: string;
  /** Runs before the approval card, so the card shows what will really be sent. */
  beforeCall?(call: HookCall): PreCallVerdict | undefined | Promise<PreCallVerdict | undefined>;
  /** May return a new result; undefined keeps the one it was given. */
  afterCall?(
    call: HookCall,
    result: CallToolResult,
  ): CallToolResult | undefined | Promise<CallToolResult | undefined>;
}

export type BeforeCallOutcome = { arguments: JsonObject } | { blockedBy: string; reason: string };

/** The hooks, in the order they were added. A failing hook fails closed. */
export class ToolCallHooks {
  private readonly hooks: ToolCallHook[] = [];

  add(hook: ToolCallHook): Disposable {
    this.hooks.push(hook);
    return toDisposable(() => {
      const at = this.hooks.indexOf(hook);
      if (at >= 0) this.hooks.splice(at, 1);
    });
  }

  /** Each hook sees the arguments as the previous one left them; the first block wins. */
  async runBefore(call: HookCall, extra: readonly ToolCallHook[] = []): Promise<BeforeCallOutcome> {
    let args = structuredClone(call.arguments);
    for (const hook of [...this.hooks, ...extra]) {
      if (hook.beforeCall === undefined) continue;
      let verdict: PreCallVerdict | undefined;
      try {
        verdict = await hook.beforeCall({ ...call, arguments: structuredClone(args) });
      } catch (error) {
        console.warn(`toolbridge: pre-call hook "${hook.name}" failed:`, errorMessage(error));
        return { blockedBy: hook.name, reason: 'the hook failed, so the call was held back' };
      }
      if (verdict === undefined || verdict.action === 'continue') continue;
      if (verdict.action === 'block') return { blockedBy: hook.name, reason: verdict.reason };
      if (verdict.action !== 'rewrite' || !isPlainObject(verdict.arguments)) {
        return {
          blockedBy: hook.name,
          reason: 'the hook returned something other than continue, rewrite or block',
        };
      }
      args = structuredClone(verdict.arguments);
    }
    return { arguments: args };
  }

  /** Each hook may replace the result. A throwing hook is an INTERNAL error, not a silent pass. */
  async runAfter(call: HookCall, result: CallToolResult): Promise<CallToolResult> {
    let current = result;
    for (const hook of this.hooks) {
      if (hook.afterCall === undefined) continue;
      try {
        current = (await hook.afterCall(call, current)) ?? current;
      } catch (error) {
        console.warn(`toolbridge: post-call hook "${hook.name}" failed:`, errorMessage(error));
        throw new ToolbridgeError(
          'INTERNAL',
          `The post-call hook "${hook.name}" failed, so the result of ${call.name} was withheld.`,
        );
      }
    }
    return current;
  }
}

/**
 * Built-in: when the policy asks for it (`redactOutbound`), the server receives the arguments
 * with secrets replaced. The audit log is redacted always, whatever this hook does.
 */
export function createRedactionHook(redactor: () => Redactor): ToolCallHook {
  return {
    name: 'redact-outbound',
    beforeCall(call) {
      if (!call.redactOutbound) return undefined;
      const redacted = redactor().redactValue(call.arguments);
      return isPlainObject(redacted) ? { action: 'rewrite', arguments: redacted as JsonObject } : undefined;
    },
  };
}
