import { ToolbridgeError } from '../base/errors.js';
import type { JsonValue } from '../base/json.js';

export const REDACTED = '[REDACTED]';

/**
 * Secret shapes recognised without any settings. Each one is a token format whose leak would
 * hurt and whose false positives are cheap (a redacted look-alike in the audit log).
 */
export const BUILT_IN_SECRET_PATTERNS: readonly RegExp[] = [
  // A digit is required so that English ("bearer instruments") stays readable.
  /\bBearer\s+(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bAuthorization\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Digest)\s+)?[^\s"',;]{4,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g,
  /aws.{0,20}secret.{0,20}?[=:]\s*["']?[A-Za-z0-9/+=]{40}/gi,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[A-Za-z0-9_-]{35}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----/g,
  // user:password@ in a URL
  /(?<=[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+(?=@)/gi,
];

/**
 * Object members whose string or number value is a secret whatever it looks like, judged by the
 * key with `-`/`_` removed and lower-cased: `password`, `api_key`, `accessToken`, `Authorization`…
 * `max_tokens` and `page_token` are not secrets.
 */
const SECRET_KEY =
  /(?:password|passwd|passphrase|secret|token|apikey|authorization|cookie|credentials?|privatekey)$/;
const NOT_SECRET_KEY = /(?:pagetoken|nexttoken|maxtokens?|tokens)$/;

export function isSecretKey(key: string): boolean {
  const folded = key.replace(/[-_\s]/g, '').toLowerCase();
  return SECRET_KEY.test(folded) && !NOT_SECRET_KEY.test(folded);
}

/** One redaction function for everything that logs (checklist §6). */
export interface Redactor {
  redactText(text: string): string;
  /** A redacted deep copy: secret-looking strings and the values of secret-named keys replaced. */
  redactValue(value: JsonValue): JsonValue;
}

export interface PatternProblem {
  /** Position in the settings list, from 0. */
  index: number;
  message: string;
}

/**
 * Checks user patterns (regular-expression source strings, as in settings). The messages name
 * the pattern by position only: people paste real secrets as literal patterns.
 */
export function checkRedactionPatterns(patterns: readonly unknown[]): PatternProblem[] {
  const problems: PatternProblem[] = [];
  for (const [index, pattern] of patterns.entries()) {
    const problem = compileOne(pattern, index);
    if (typeof problem === 'string') problems.push({ index, message: problem });
  }
  return problems;
}

/** A redactor for the built-in shapes plus the user's patterns. Throws INVALID_ARGUMENT on a bad pattern. */
export function createRedactor(userPatterns: readonly unknown[] = []): Redactor {
  const compiled: RegExp[] = [];
  for (const [index, pattern] of userPatterns.entries()) {
    const result = compileOne(pattern, index);
    if (typeof result === 'string') throw new ToolbridgeError('INVALID_ARGUMENT', result);
    compiled.push(result);
  }
  const patterns = [...BUILT_IN_SECRET_PATTERNS, ...compiled];
  const redactText = (text: string): string => {
    let out = text;
    // An empty match (a user pattern like `x*`) must not sprinkle markers through the text.
    for (const pattern of patterns) out = out.replace(pattern, (match) => (match === '' ? '' : REDACTED));
    return out;
  };
  const redactValue = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return redactText(value);
    if (Array.isArray(value)) return value.map(redactValue);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, JsonValue> = {};
    for (const [key, member] of Object.entries(value)) {
      out[key] =
        isSecretKey(key) && (typeof member === 'string' || typeof member === 'number')
          ? REDACTED
          : redactValue(member);
    }
    return out;
  };
  return { redactText, redactValue };
}

function compileOne(pattern: unknown, index: number): RegExp | string {
  const where = `Redaction pattern ${index + 1}`;
  if (typeof pattern !== 'string' || pattern === '') {
    return `${where} must be a non-empty regular expression. Fix or remove it in Settings.`;
  }
  try {
    return new RegExp(pattern, 'g');
  } catch (error) {
    // The engine's message quotes the pattern; keep only the reason after the last colon.
    const reason = (error instanceof Error ? error.message : '').split(': ').at(-1) ?? '';
    return `${where} is not a valid regular expression${reason === '' ? '' : ` (${reason})`}. Fix or remove it in Settings.`;
  }
}
