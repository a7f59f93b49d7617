import { useState } from 'react';
import type { Outcome } from '../store/outcome.js';

/** A form's last result: the error to show, or that it saved. */
export interface FormStatus {
  error: string | undefined;
  saved: boolean;
}

export const IDLE: FormStatus = { error: undefined, saved: false };

/** Checks a draft before it goes to the host: the value to send, or what to fix. */
export type DraftCheck<T> = { ok: true; value: T } | { ok: false; message: string };

export function statusOf(outcome: Outcome<unknown> | DraftCheck<unknown>): FormStatus {
  if (outcome.ok) return { error: undefined, saved: true };
  return { error: 'message' in outcome ? outcome.message : outcome.error.message, saved: false };
}

/** The error/saved line under a form; `touch` clears "Saved" once the person edits again. */
export function useFormStatus() {
  const [status, setStatus] = useState<FormStatus>(IDLE);
  return {
    ...status,
    report: (outcome: Outcome<unknown> | DraftCheck<unknown>) => setStatus(statusOf(outcome)),
    touch: () => setStatus((s) => (s.saved ? { ...s, saved: false } : s)),
  };
}
