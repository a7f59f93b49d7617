import { errorMessage } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import { BRIDGE_TOOL_NAMES } from '../catalog/naming.js';

/** One normalised `tool_call` entry. */
export interface CallEntry {
  name: string;
  arguments: Record<string, unknown>;
}

export type NormalizedEnvelope = { entries: CallEntry[] } | { error: string };

/**
 * Turns whatever shape the agent sent into a list of entries (reference §3.1). Accepted: the
 * canonical `{ calls: [{ name, arguments }] }`, `calls` as one object or as a JSON string, and
 * the legacy single `{ name, arguments }`. Arguments that are null or blank mean `{}`; other
 * strings are parsed as JSON. The first bad entry rejects the whole call.
 */
export function normalizeCallEnvelope(args: Record<string, unknown>): NormalizedEnvelope {
  let calls: unknown = args.calls;
  if (calls === undefined || calls === null) {
    if (args.name === undefined || args.name === null) {
      return { error: "tool_call requires 'calls': an array of {name, arguments} entries." };
    }
    calls = [{ name: args.name, arguments: args.arguments }];
  }
  if (typeof calls === 'string') {
    try {
      calls = JSON.parse(calls);
    } catch (error) {
      return {
        error: `tool_call 'calls' is not valid JSON: ${errorMessage(error)}. Send an array of {name, arguments}.`,
      };
    }
  }
  if (isPlainObject(calls)) calls = [calls];
  if (!Array.isArray(calls) || calls.length === 0) {
    return { error: "tool_call 'calls' must be a non-empty array of {name, arguments}." };
  }

  const entries: CallEntry[] = [];
  for (const [i, raw] of calls.entries()) {
    const entry = normalizeEntry(raw, i);
    if ('error' in entry) return entry;
    entries.push(entry);
  }
  return { entries };
}

function normalizeEntry(raw: unknown, i: number): CallEntry | { error: string } {
  if (!isPlainObject(raw)) return { error: `calls[${i}] must be an object {name, arguments}.` };
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (name === '')
    return { error: `calls[${i}] requires a 'name' (the exact tool name tool_search returned).` };
  if (BRIDGE_TOOL_NAMES.includes(name)) {
    return { error: `calls[${i}] cannot invoke '${name}' (it is itself a bridge tool). Call it directly.` };
  }
  let value = raw.arguments;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return { name, arguments: {} };
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (error) {
      return { error: `calls[${i}].arguments is not valid JSON: ${errorMessage(error)}. Send an object.` };
    }
  }
  if (!isPlainObject(value)) return { error: `calls[${i}].arguments must be an object.` };
  return { name, arguments: value };
}
