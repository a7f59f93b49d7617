import { errorMessage } from '../base/errors.js';
import { isPlainObject, parseBoundedJson } from '../base/json.js';
import { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE, isConnectorName } from '../catalog/connector-names.js';
import { BRIDGE_TOOL_NAMES } from '../catalog/naming.js';

/** One normalised `tool_call` entry. */
export interface CallEntry {
  name: string;
  arguments: Record<string, unknown>;
  /** `connectors__` entries only: the alias of the account to run under (else the app's default). */
  account?: string;
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
    calls = [{ name: args.name, arguments: args.arguments, account: args.account }];
  }
  if (typeof calls === 'string') {
    try {
      calls = parseBoundedJson(calls);
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
  const account = entryAccount(raw.account, name, i);
  if (typeof account === 'object') return account;
  const entry = (args: Record<string, unknown>): CallEntry =>
    account === undefined ? { name, arguments: args } : { name, arguments: args, account };
  let value = raw.arguments;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return entry({});
  }
  if (typeof value === 'string') {
    try {
      value = parseBoundedJson(value);
    } catch (error) {
      return { error: `calls[${i}].arguments is not valid JSON: ${errorMessage(error)}. Send an object.` };
    }
  }
  if (!isPlainObject(value)) return { error: `calls[${i}].arguments must be an object.` };
  return entry(value);
}

/** An entry's `account`: absent, or an alias on a connector entry. */
function entryAccount(value: unknown, name: string, i: number): string | undefined | { error: string } {
  if (value === undefined || value === null) return undefined;
  if (!isConnectorName(name)) {
    return {
      error: `calls[${i}].account is only for connectors__ tools: it picks which linked account runs them.`,
    };
  }
  if (typeof value !== 'string' || !ACCOUNT_ALIAS.test(value)) {
    return {
      error: `calls[${i}].account ${JSON.stringify(value)} is not valid: ${ACCOUNT_ALIAS_RULE}, as manage_connections status lists them.`,
    };
  }
  return value;
}
