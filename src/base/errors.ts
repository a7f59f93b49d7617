import type { JsonValue } from './json.js';

export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'SERVER_UNAVAILABLE'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'DENIED'
  | 'INTERRUPTED'
  | 'APPROVAL_TIMEOUT'
  | 'TOOL_CHANGED'
  | 'UNAUTHORIZED'
  /** A server's answer was over a size limit; the server itself is fine. */
  | 'RESULT_TOO_LARGE'
  | 'SECRET_STORE_UNAVAILABLE'
  | 'INTERNAL';

/**
 * An expected failure with a code callers branch on. The message is for a human: what failed,
 * which thing, what to do next. Never put a secret in `message` or `data`.
 */
export class ToolbridgeError extends Error {
  override readonly name = 'ToolbridgeError';
  readonly code: ErrorCode;
  readonly data: JsonValue | undefined;

  constructor(code: ErrorCode, message: string, options?: { data?: JsonValue; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options?.data;
  }

  /** Matches on name and code, so it also recognises errors rebuilt after crossing IPC or a socket. */
  static is(value: unknown, code?: ErrorCode): value is ToolbridgeError {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as { name?: unknown; code?: unknown };
    return (
      candidate.name === 'ToolbridgeError' &&
      typeof candidate.code === 'string' &&
      (code === undefined || candidate.code === code)
    );
  }

  toJSON(): { code: ErrorCode; message: string; data?: JsonValue } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One log line's worth of an unexpected error without its message, which may quote the input
 * (a token, a body): the error's name, its code if any, and where it was thrown.
 */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  const frame = error.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim()
    .replace(/^at\s+/, '')
    .replace(/^.*\((.*)\)$/, '$1')
    .replace(/^.*[\\/]/, '');
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}${frame ? ` at ${frame}` : ''}`;
}
