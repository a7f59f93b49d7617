import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject, type JsonObject, parseBoundedJson } from '../base/json.js';
import {
  misnamedMessage,
  parseConnectorName,
  unknownConnectorToolMessage,
} from '../catalog/connector-names.js';
import { jsonResult } from './bridge-results.js';
import type { BridgeScope } from './bridge-scope.js';
import type { CallEntry } from './call-envelope.js';
import { errorOutcome, responseOutcome } from './call-outcome.js';
import { connectorEntry } from './connector-routing.js';
import type { CallContext } from './types.js';

export const STOPPED_MESSAGE = 'Stopped by the user before this call was made.';
const NO_RESULT_MESSAGE = 'No result was produced for this call.';

interface EntryError {
  code: string;
  message: string;
  [key: string]: unknown;
}

type Slot =
  | { index: number; name: string; response: unknown; account?: string }
  | { index: number; name: string; error: EntryError };

/**
 * Runs a batch of `connectors__` entries one at a time in input order (reference §3.5). Each
 * entry goes through the executor alone, so it gets its own approval decision. The user's Stop
 * is checked before each entry: entries not yet started are reported INTERRUPTED and never sent,
 * each with its own audit line (`recordInterrupted`).
 * A malformed name fails only its own entry; an entry that yields no result is PROVIDER_ERROR.
 */
export async function runConnectorBatch(
  entries: readonly CallEntry[],
  scope: BridgeScope,
  context: CallContext,
): Promise<CallToolResult> {
  const results: Slot[] = [];
  const record = scope.executor.beginCall?.(
    context.agentId,
    entries.map((entry) => ({
      name: entry.name,
      serverId: parseConnectorName(entry.name)?.connector ?? '',
      arguments: entry.arguments as JsonObject,
      ...(entry.account === undefined ? {} : { account: entry.account }),
    })),
  );
  const settle = (slot: Slot) => {
    results.push(slot);
    record?.finished(slot.index, 'error' in slot ? errorOutcome(slot.error) : responseOutcome(slot.response));
  };
  try {
    const resolved = await resolveNames(entries, scope, context);
    for (const [index, entry] of entries.entries()) {
      const { name } = entry;
      const parsed = parseConnectorName(name);
      const catalogEntry =
        parsed === undefined
          ? undefined
          : (scope.deferred().get(name) ?? connectorEntry(name, parsed.connector, parsed.tool));
      if (isStopped(context)) {
        settle({ index, name, error: { code: 'INTERRUPTED', message: STOPPED_MESSAGE } });
        // Never sent, yet audited; a malformed name names no tool, so there is nothing to record.
        if (catalogEntry !== undefined) {
          await scope.executor.recordInterrupted?.(catalogEntry, entry.arguments, context);
        }
        continue;
      }
      if (catalogEntry === undefined) {
        settle({
          index,
          name,
          error: {
            code: 'TOOL_NOT_FOUND',
            message: `'${name}' is not a connector tool name: expected connectors__<connector>__<tool>. Use tool_search to find the exact name.`,
          },
        });
        continue;
      }
      const resolution = resolved.get(name);
      if (resolution !== undefined && 'error' in resolution) {
        settle({ index, name, error: resolution.error });
        continue;
      }
      const entryContext: CallContext = {
        ...context,
        ...(entry.account === undefined ? {} : { account: entry.account }),
        ...(resolution === undefined ? {} : { slug: resolution.slug }),
        ...(record === undefined ? {} : { call: { id: record.id, index } }),
      };
      record?.started(index);
      settle(
        await runEntry(index, name, () =>
          scope.executor.callTool(catalogEntry, entry.arguments, entryContext),
        ),
      );
    }
  } finally {
    record?.end();
  }
  const payload = withCounts(results);
  // Some entries may have worked; only a batch where nothing did is an error result.
  return jsonResult(payload, payload.error_count === payload.total_count);
}

/**
 * What each connector name of the batch runs, asked of the gateway once (the describe leg), so a
 * name that only spells a tool differently is refused before any policy decides on it: the policy
 * key is exactly the tool that runs. Names the leg could not answer are left to the backend.
 */
async function resolveNames(
  entries: readonly CallEntry[],
  scope: BridgeScope,
  context: CallContext,
): Promise<Map<string, { slug: string } | { error: EntryError }>> {
  const resolved = new Map<string, { slug: string } | { error: EntryError }>();
  const names = [
    ...new Set(entries.map((entry) => entry.name).filter((name) => parseConnectorName(name) !== undefined)),
  ];
  if (scope.connectors === undefined || names.length === 0) return resolved;
  const leg = await scope.connectors.describe(names, { signal: context.signal });
  for (const tool of leg.tools) resolved.set(tool.name, { slug: tool.slug });
  for (const [name, canonical] of Object.entries(leg.misnamed ?? {})) {
    resolved.set(name, { error: { code: 'TOOL_NOT_FOUND', message: misnamedMessage(name, canonical) } });
  }
  if (leg.status === undefined) {
    for (const name of leg.notFound) {
      if (resolved.has(name)) continue;
      resolved.set(name, { error: { code: 'TOOL_NOT_FOUND', message: unknownConnectorToolMessage(name) } });
    }
  }
  return resolved;
}

function isStopped(context: CallContext): boolean {
  return context.stop?.signal.aborted === true || context.signal?.aborted === true;
}

async function runEntry(index: number, name: string, call: () => Promise<CallToolResult>): Promise<Slot> {
  try {
    return slotFromResult(index, name, await call());
  } catch (error) {
    // A refusal (denied, stopped, timed out) keeps its code; anything else is the provider's failure.
    const code = ToolbridgeError.is(error) ? error.code : 'PROVIDER_ERROR';
    return { index, name, error: { code, message: errorMessage(error) } };
  }
}

/** Reads one entry's result: the gateway outcome in `structuredContent`, else the result as any tool gives it. */
function slotFromResult(index: number, name: string, result: unknown): Slot {
  if (!isPlainObject(result))
    return { index, name, error: { code: 'PROVIDER_ERROR', message: NO_RESULT_MESSAGE } };
  const structured = result.structuredContent;
  if (isPlainObject(structured)) {
    if ('error' in structured) return { index, name, error: entryError(structured.error) };
    const response = 'response' in structured ? structured.response : structured;
    return typeof structured.account === 'string'
      ? { index, name, response, account: structured.account }
      : { index, name, response };
  }
  const text = textOf(result.content);
  const value = text === undefined ? undefined : parseOrText(text);
  if (result.isError === true) {
    // A refusal from the approval gate reads `{"code","message"}`: keep its code (DENIED, INTERRUPTED, …).
    if (isPlainObject(value) && typeof value.code === 'string' && typeof value.message === 'string') {
      return { index, name, error: entryError(value) };
    }
    return { index, name, error: { code: 'TOOL_ERROR', message: text ?? 'The tool failed.' } };
  }
  return { index, name, response: value === undefined ? (result.content ?? null) : value };
}

function entryError(error: unknown): EntryError {
  if (isPlainObject(error) && typeof error.code === 'string' && typeof error.message === 'string') {
    return { ...error, code: error.code, message: error.message };
  }
  return { code: 'TOOL_ERROR', message: typeof error === 'string' ? error : JSON.stringify(error) };
}

function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter(
    (item): item is { type: 'text'; text: string } =>
      isPlainObject(item) && item.type === 'text' && typeof item.text === 'string',
  );
  return texts.length === 0 || texts.length !== content.length
    ? undefined
    : texts.map((item) => item.text).join('\n');
}

function parseOrText(text: string): unknown {
  try {
    return parseBoundedJson(text);
  } catch {
    return text;
  }
}

/** Results in input order (each carries its input `index`), with the counts recomputed from them. */
function withCounts(results: Slot[]) {
  const errorCount = results.filter((slot) => 'error' in slot).length;
  return {
    results,
    success_count: results.length - errorCount,
    error_count: errorCount,
    total_count: results.length,
  };
}
