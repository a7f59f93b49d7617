import type { UiReply } from '../../src/api/ui-api.js';
import { type ErrorCode, ToolbridgeError } from '../../src/base/errors.js';

/** A ToolbridgeError again, from the plain `{ code, message, data }` that crossed IPC or the socket. */
export function rebuildError(error: Extract<UiReply, { ok: false }>['error']): ToolbridgeError {
  return new ToolbridgeError(
    error.code as ErrorCode,
    error.message,
    error.data === undefined ? undefined : { data: error.data },
  );
}

/** For rejections of unknown shape: rebuild when it carries a code and message, else pass it on. */
export function rebuildUnknown(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return error;
  return rebuildError({ code, message, ...(data === undefined ? {} : { data: data as never }) });
}
