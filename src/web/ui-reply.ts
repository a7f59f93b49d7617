import type { ToolbridgeApi, UiMethod, UiReply } from '../api/ui-api.js';
import { ToolbridgeError } from '../base/errors.js';

type MethodCall = (...params: unknown[]) => Promise<unknown>;

/**
 * Calls one UI method by name and packs the outcome as a `UiReply`, the shape that crosses IPC and
 * the WebSocket (a thrown class would not survive either). A ToolbridgeError keeps its code,
 * message and data; anything else is a bug, logged here and reported without its internals.
 */
export async function replyTo(
  api: ToolbridgeApi,
  method: UiMethod,
  params: unknown[],
  log: (message: string, error?: unknown) => void,
): Promise<UiReply> {
  try {
    const value = await (api[method] as MethodCall).apply(api, params);
    return { ok: true, value };
  } catch (error) {
    if (ToolbridgeError.is(error)) return { ok: false, error: error.toJSON() };
    log(`UI method ${method} failed unexpectedly`, error);
    return {
      ok: false,
      error: { code: 'INTERNAL', message: `${method} failed inside the host; see the host's log.` },
    };
  }
}
