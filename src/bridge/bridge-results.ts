import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A bridge answer as the agent receives it: the payload as compact JSON text. Error payloads
 * (`{ "error": … }`) are also marked `isError`, so clients that branch on it see the failure.
 */
export function jsonResult(payload: object, isError = false): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(payload) }] };
  if (isError) result.isError = true;
  return result;
}

export function errorResult(message: string, details?: Record<string, unknown>): CallToolResult {
  return jsonResult({ error: message, ...details }, true);
}
