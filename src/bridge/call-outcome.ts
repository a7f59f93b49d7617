/**
 * How one tool_call entry ended, in one line, for the person's record of the call (the card's
 * entry row and its history): the state and a short summary of the result or the refusal.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../base/json.js';
import type { CallEntryOutcome } from './types.js';

/** A summary longer than this is cut with an ellipsis: one line on a card. */
export const MAX_SUMMARY_CHARS = 140;

/** An entry's error (`{code, message, …}`) as the state it ends in. */
export function errorOutcome(error: {
  code?: unknown;
  message?: unknown;
  [key: string]: unknown;
}): CallEntryOutcome {
  const message = typeof error.message === 'string' ? error.message : 'It failed.';
  return { state: stateOf(error), summary: oneLine(message) };
}

/** A local entry's result: the text it returned, or the refusal it was given. */
export function resultOutcome(result: CallToolResult): CallEntryOutcome {
  const text = (result.content ?? [])
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ');
  if (result.isError === true) {
    const refusal = parseObject(text);
    if (refusal !== undefined) {
      const message = refusal.message ?? refusal.error;
      return errorOutcome({ ...refusal, message: typeof message === 'string' ? message : text });
    }
    return { state: 'failed', summary: oneLine(text === '' ? 'The tool reported an error.' : text) };
  }
  if (text !== '') return { state: 'done', summary: oneLine(text) };
  if (result.structuredContent !== undefined) {
    return { state: 'done', summary: oneLine(JSON.stringify(result.structuredContent)) };
  }
  const blocks = result.content?.length ?? 0;
  return { state: 'done', summary: blocks === 0 ? 'No content.' : `${blocks} content block(s).` };
}

/** An entry's error as the audit log keeps its text: a local refusal or result, or a connector's `{ error }`. */
export function loggedErrorOutcome(text: string): CallEntryOutcome {
  const error = parseObject(text)?.error;
  return isPlainObject(error)
    ? errorOutcome(error)
    : resultOutcome({ isError: true, content: [{ type: 'text', text }] });
}

/** A connector entry's response, as the batch answer holds it. */
export function responseOutcome(response: unknown): CallEntryOutcome {
  const text = typeof response === 'string' ? response : JSON.stringify(response);
  return { state: 'done', summary: oneLine(text ?? 'No content.') };
}

function stateOf(error: { code?: unknown; [key: string]: unknown }): CallEntryOutcome['state'] {
  switch (error.code) {
    case 'DENIED':
      return 'denied';
    case 'INTERRUPTED':
    case 'CANCELLED':
      return 'interrupted';
    case 'APPROVAL_TIMEOUT':
      return 'timeout';
    case 'CONNECTION_REQUIRED':
      if (error.skipped_by_user === true) return 'skipped';
      return error.timed_out === true ? 'timeout' : 'failed';
    default:
      return 'failed';
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whitespace collapsed, cut at MAX_SUMMARY_CHARS. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_SUMMARY_CHARS ? flat : `${flat.slice(0, MAX_SUMMARY_CHARS - 1)}…`;
}
