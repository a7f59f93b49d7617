import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolbridgeError } from '../base/errors.js';
import type { JsonObject } from '../base/json.js';
import { isConnectorName } from '../catalog/connector-names.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { CallRoute } from './argument-validator.js';
import { errorResult, jsonResult } from './bridge-results.js';
import type { BridgeScope } from './bridge-scope.js';
import { MAX_CONNECTOR_CALLS_PER_BATCH } from './bridge-tools.js';
import { type CallEntry, normalizeCallEnvelope } from './call-envelope.js';
import { resultOutcome } from './call-outcome.js';
import { runConnectorBatch } from './connector-batch.js';
import { explainNonDeferred } from './name-guidance.js';
import type { CallContext, CallRecord } from './types.js';

/** Arguments longer than this are echoed as `{...}` in the batch-rejection retry. */
const MAX_ECHOED_ARGUMENTS_CHARS = 1500;

/**
 * `tool_call` (reference §3): one local entry per call, or a batch of up to 10 connector
 * entries. A local entry must be a deferred tool of this session; its arguments are checked
 * against its schema before anything is sent. The server's result comes back untouched (the
 * agent surface caps its size).
 */
export async function runToolCall(
  args: Record<string, unknown>,
  scope: BridgeScope,
  context: CallContext,
): Promise<CallToolResult> {
  const envelope = normalizeCallEnvelope(args);
  if ('error' in envelope) return errorResult(envelope.error);
  const { entries } = envelope;
  const allConnectors = entries.every((entry) => isConnectorName(entry.name));
  if (entries.length > 1 && !allConnectors) return errorResult(batchRejection(entries));
  if (allConnectors) {
    if (!scope.connectorsInScope) return errorResult('Connectors are not available in this session.');
    if (entries.length > MAX_CONNECTOR_CALLS_PER_BATCH) {
      return errorResult(
        `too many calls: ${entries.length} > max ${MAX_CONNECTOR_CALLS_PER_BATCH}. Retry with fewer calls per batch.`,
      );
    }
    return runConnectorBatch(entries, scope, context);
  }
  const [entry] = entries as [CallEntry];
  const target = scope.deferred().get(entry.name);
  if (target === undefined) return errorResult(explainNonDeferred(entry.name, scope, 'call').message);
  return callCatalogTool(target, entry.arguments, 'tool_call', scope, context);
}

/**
 * The one way a catalog tool is called, through tool_call or directly when pinned: arguments
 * are checked and coerced, then the executor runs the tool. A refusal the executor reports
 * (denied, stopped, server down) becomes an error result the agent can read.
 */
export async function callCatalogTool(
  entry: CatalogEntry,
  args: Record<string, unknown>,
  route: CallRoute,
  scope: BridgeScope,
  context: CallContext,
): Promise<CallToolResult> {
  const record = scope.executor.beginCall?.(context.agentId, [
    { name: entry.name, serverId: entry.serverId, arguments: args as JsonObject },
  ]);
  const recorded = record === undefined ? context : { ...context, call: { id: record.id, index: 0 } };
  try {
    const result = await checkAndCall(entry, args, route, scope, recorded, record);
    record?.finished(0, resultOutcome(result));
    return result;
  } finally {
    record?.end();
  }
}

async function checkAndCall(
  entry: CatalogEntry,
  args: Record<string, unknown>,
  route: CallRoute,
  scope: BridgeScope,
  context: CallContext,
  record: CallRecord | undefined,
): Promise<CallToolResult> {
  const check = scope.validator.check(entry.name, entry.inputSchema, args, route);
  if (!check.ok) {
    await scope.executor.recordRefused?.(entry, args, context, {
      code: 'INVALID_ARGUMENT',
      message: check.error.error,
    });
    return jsonResult(check.error, true);
  }
  const notEnforced = check.notEnforced?.map((skipped) => skipped.pattern);
  record?.started(0);
  let result: CallToolResult;
  try {
    result = await scope.executor.callTool(
      entry,
      check.args,
      notEnforced === undefined ? context : { ...context, notEnforced },
    );
  } catch (error) {
    if (ToolbridgeError.is(error)) return errorResult(error.message, { code: error.code });
    throw error;
  }
  return checkedOutput(entry, result, scope);
}

/**
 * A successful result of a tool with an `outputSchema` must carry matching `structuredContent`
 * (MCP 2025-06-18). One that does not becomes an error result that says so, keeping the server's
 * content blocks for the model and dropping the structured part no client could trust.
 */
function checkedOutput(entry: CatalogEntry, result: CallToolResult, scope: BridgeScope): CallToolResult {
  if (entry.outputSchema === undefined || result.isError === true) return result;
  const check = scope.validator.checkOutput(entry.name, entry.outputSchema, result.structuredContent);
  if (check.ok) return result;
  const { structuredContent: _dropped, ...rest } = result;
  const note = `${check.message} The server broke its own declared contract, so the structured result was withheld; the content below is as it sent it.`;
  return { ...rest, isError: true, content: [{ type: 'text', text: note }, ...(result.content ?? [])] };
}

/** The reference's rejection of a multi-entry batch with a local tool, echoing a retry that works. */
function batchRejection(entries: readonly CallEntry[]): string {
  const [first] = entries as [CallEntry];
  const argumentsJson = JSON.stringify(first.arguments);
  const echoed = argumentsJson.length > MAX_ECHOED_ARGUMENTS_CHARS ? '{...}' : argumentsJson;
  const retry = `{"calls":[{"name":${JSON.stringify(first.name)},"arguments":${echoed}}]}`;
  return (
    `tool_call takes exactly one entry for local tools; you sent ${entries.length}. Retry with only: ${retry} ` +
    `then issue the remaining ${entries.length - 1} call(s) as separate tool_call invocations. ` +
    'Only connectors__ names may be batched together.'
  );
}
