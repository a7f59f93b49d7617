import { heldToolMessage } from '../catalog/naming.js';
import type { BridgeScope } from './bridge-scope.js';

const MAX_SUGGESTIONS = 5;

export type NonDeferredName =
  | { kind: 'direct'; message: string }
  | { kind: 'unavailable'; message: string }
  | { kind: 'held'; message: string }
  | { kind: 'unsupported'; message: string }
  | { kind: 'unknown'; message: string };

/**
 * Why a name given to tool_call or tool_describe (`asked`) is not a deferred tool, in words the agent can
 * act on (reference §3.4). An unknown name is never told to "call it directly".
 */
export function explainNonDeferred(
  name: string,
  scope: BridgeScope,
  asked: 'call' | 'describe',
): NonDeferredName {
  const direct = scope.directName(name);
  if (direct !== undefined) {
    const how = direct === name ? 'Call it directly' : `Call it directly as '${direct}'`;
    const detail =
      asked === 'call'
        ? `${how} instead of via tool_call.`
        : `Its schema is already in your tool list. ${how}.`;
    return { kind: 'direct', message: `'${name}' is a directly-listed tool, not a deferred one. ${detail}` };
  }
  if (scope.isHeld(name)) return { kind: 'held', message: heldToolMessage(name) };
  const unsupported = scope.unsupportedReason(name);
  if (unsupported !== undefined) return { kind: 'unsupported', message: unsupported };
  if (scope.isUnavailable(name)) {
    return {
      kind: 'unavailable',
      message: `'${name}' is not available in this session. Use tool_search to find tools you can call.`,
    };
  }
  const suffix = `__${name}`;
  const suggestions = scope
    .knownNames()
    .filter((known) => known.endsWith(suffix))
    .sort()
    .slice(0, MAX_SUGGESTIONS);
  const next =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((suggestion) => `'${suggestion}'`).join(', ')}?`
      : ' Use tool_search to find the exact name.';
  return {
    kind: 'unknown',
    message:
      `'${name}' is not a known tool name. Deferred tools must be invoked through tool_call by the exact ` +
      `name tool_search returns (e.g. mcp__<server>__<tool>).${next}`,
  };
}
