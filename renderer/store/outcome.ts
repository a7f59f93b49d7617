import { errorMessage, ToolbridgeError } from '../../src/base/errors.js';

/** What a failed host call leaves for the UI: the code to branch on and the message to show. */
export interface UiError {
  code: string;
  message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: UiError };

export function toUiError(error: unknown): UiError {
  if (ToolbridgeError.is(error)) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: errorMessage(error) };
}

/** Runs a host call and turns a throw into a value, so components never need try/catch. */
export async function attempt<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error: toUiError(error) };
  }
}
