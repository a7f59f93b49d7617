/**
 * The edge every agent message crosses before the SDK or any bridge code sees it (HTTP and
 * stdio alike): JSON nested deeper than `MAX_JSON_DEPTH` and malformed `tools/call` params are
 * refused here, once, with -32602 (InvalidParams) and a message saying what to send. Everything
 * behind the edge (coercion, validation, canonical JSON, redaction, hashing, size estimates)
 * walks JSON recursively and may rely on the bound.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject, MAX_JSON_DEPTH, tooDeepAt } from '../base/json.js';

export interface Refusal {
  id: string | number;
  message: string;
}

/** Why this message is refused, or undefined when it may go on. Notifications are never answered. */
export function refuseAgentMessage(message: unknown): Refusal | undefined {
  if (!isPlainObject(message) || typeof message.method !== 'string') return undefined;
  const id = message.id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const reason = paramsProblem(message.method, message.params);
  return reason === undefined ? undefined : { id, message: reason };
}

function paramsProblem(method: string, params: unknown): string | undefined {
  const deep = tooDeepAt(params, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    return `Invalid params for ${method}: the value at ${deep || 'params'} nests more than ${MAX_JSON_DEPTH} levels deep. Flatten it, or send deep data as a JSON string.`;
  }
  if (params !== undefined && !isPlainObject(params)) {
    return `Invalid params for ${method}: params must be a JSON object, got ${kindOf(params)}.`;
  }
  if (method !== 'tools/call') return undefined;
  const name = params?.name;
  if (typeof name !== 'string' || name.length === 0) {
    return `Invalid params for tools/call: "name" must be the tool's name as a string, got ${kindOf(name)}. Send {"name": "tool_search", "arguments": {"query": "…"}}.`;
  }
  const args = params?.arguments;
  if (args !== undefined && !isPlainObject(args)) {
    return `Invalid params for tools/call: "arguments" must be a JSON object of the tool's parameters, got ${kindOf(args)}. Send {"name": "${name.slice(0, 64)}", "arguments": {…}} ({} when it takes none).`;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** The JSON-RPC error answer for a refused request. */
export function refusalResponse(refusal: Refusal): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id: refusal.id,
    error: { code: ErrorCode.InvalidParams, message: refusal.message },
  };
}
