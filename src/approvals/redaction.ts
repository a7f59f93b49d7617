import { ToolbridgeError } from '../base/errors.js';
import { defineMember, type JsonValue } from '../base/json.js';
import type { ArgumentSecret } from './types.js';

export const REDACTED = '[REDACTED]';

/** A secret format the redactor recognises, and the words a warning uses for it. */
export interface SecretShape {
  kind: string;
  pattern: RegExp;
}

/**
 * Secret shapes recognised without any settings. Each one is a token format whose leak would
 * hurt and whose false positives are cheap (a redacted look-alike in the audit log, a masked
 * value on a card that one click reveals).
 */
export const BUILT_IN_SECRET_SHAPES: readonly SecretShape[] = [
  // A digit is required so that English ("bearer instruments") stays readable.
  { kind: 'a bearer token', pattern: /\bBearer\s+(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi },
  {
    kind: 'an Authorization header',
    pattern: /\bAuthorization\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Digest)\s+)?[^\s"',;]{4,}/gi,
  },
  { kind: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g },
  { kind: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g },
  { kind: 'an API key (sk-…)', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { kind: 'a Stripe key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g },
  { kind: 'an AWS secret key', pattern: /aws.{0,20}secret.{0,20}?[=:]\s*["']?[A-Za-z0-9/+=]{40}/gi },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a Google API key', pattern: /\bAIza[A-Za-z0-9_-]{35}/g },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g },
  {
    kind: 'a private key (PEM)',
    pattern: /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----/g,
  },
  // user:password@ in a URL
  { kind: 'a password in a URL', pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+(?=@)/gi },
];

export const BUILT_IN_SECRET_PATTERNS: readonly RegExp[] = BUILT_IN_SECRET_SHAPES.map(
  (shape) => shape.pattern,
);

/** A secret Toolbridge holds (server env or header, OAuth token, agent or gateway token, UI secret). */
export interface KnownSecret {
  value: string;
  /** Names it without its value, e.g. the secret-store key `files:env.API_TOKEN`. */
  label: string;
}

/**
 * Held secrets shorter than this are not searched for by value. Below it, masking would hit
 * ordinary words and numbers (ports, years, ids) all over the logs, and where the masks fall
 * would tell the value; a secret that short is guessable anyway. Shapes and key names still apply.
 */
export const MIN_KNOWN_SECRET_CHARS = 8;

export type SecretFinding = ArgumentSecret;

/** One redaction for everything that stores or shows text (checklist §6). */
export interface Redactor {
  redactText(text: string): string;
  /**
   * Pieces of one text that were cut apart (a result's content blocks): a secret split across
   * pieces is masked in each piece it touches.
   */
  redactParts(parts: readonly string[]): string[];
  /**
   * A redacted deep copy for storage: secret-looking strings and the values of secret-named keys
   * replaced. Every key is kept, `__proto__` and `constructor` included.
   */
  redactValue(value: JsonValue): JsonValue;
  /** Where a value holds something secret-looking, and what: for the warning on an approval card. */
  findSecrets(value: JsonValue): SecretFinding[];
}

export interface RedactorOptions {
  /** Secrets Toolbridge holds, redacted by value (and common encodings of it) wherever they appear. */
  knownSecrets?: readonly KnownSecret[];
}

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
export function createRedactor(
  userPatterns: readonly unknown[] = [],
  options: RedactorOptions = {},
): Redactor {
  const shapes: SecretShape[] = [...BUILT_IN_SECRET_SHAPES];
  for (const [index, pattern] of userPatterns.entries()) {
    const result = compileOne(pattern, index);
    if (typeof result === 'string') throw new ToolbridgeError('INVALID_ARGUMENT', result);
    shapes.push({ kind: `a match of your redaction pattern ${index + 1}`, pattern: result });
  }
  const known = knownVariants(options.knownSecrets ?? []);
  const rangesIn = (text: string): Range[] => {
    const ranges: Range[] = [];
    for (const { kind, pattern } of shapes) {
      // An empty match (a user pattern like `x*`) must not sprinkle markers through the text.
      for (const match of text.matchAll(pattern))
        if (match[0] !== '') ranges.push({ start: match.index, end: match.index + match[0].length, kind });
    }
    for (const { variant, kind } of known) {
      for (let at = text.indexOf(variant); at >= 0; at = text.indexOf(variant, at + 1))
        ranges.push({ start: at, end: at + variant.length, kind });
    }
    return ranges;
  };
  const redactParts = (parts: readonly string[]): string[] => {
    const ranges = mergeRanges(rangesIn(parts.join('')));
    if (ranges.length === 0) return [...parts];
    let offset = 0;
    return parts.map((part) => {
      const from = offset;
      offset += part.length;
      return maskRanges(part, ranges, from);
    });
  };
  const redactText = (text: string): string => redactParts([text])[0]!;
  const redactValue = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return redactText(value);
    if (Array.isArray(value)) return value.map(redactValue);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, JsonValue> = {};
    for (const [key, member] of Object.entries(value)) {
      let stored = redactText(key);
      // A key that was itself a secret: two of them must not collapse into one member.
      for (let n = 2; stored !== key && Object.hasOwn(out, stored); n++) stored = `${redactText(key)} (${n})`;
      defineMember(
        out,
        stored,
        isSecretKey(key) && (typeof member === 'string' || typeof member === 'number')
          ? REDACTED
          : redactValue(member),
      );
    }
    return out;
  };
  const findSecrets = (value: JsonValue): SecretFinding[] => {
    const found: SecretFinding[] = [];
    const visit = (node: JsonValue, path: Array<string | number>, key: string | undefined): void => {
      if (Array.isArray(node)) {
        for (const [index, item] of node.entries()) visit(item, [...path, index], undefined);
        return;
      }
      if (node !== null && typeof node === 'object') {
        for (const [name, member] of Object.entries(node)) visit(member, [...path, name], name);
        return;
      }
      const kinds = new Set<string>();
      if (key !== undefined && isSecretKey(key) && (typeof node === 'string' || typeof node === 'number'))
        kinds.add(`the value of a key named "${key}"`);
      if (typeof node === 'string') for (const range of rangesIn(node)) kinds.add(range.kind);
      if (kinds.size > 0) found.push({ path, kinds: [...kinds] });
    };
    visit(value, [], undefined);
    return found;
  };
  return { redactText, redactParts, redactValue, findSecrets };
}

interface Range {
  start: number;
  end: number;
  kind: string;
}

/** Sorted, with overlapping or touching ranges joined. */
function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** `text` (which starts at `from` in the whole) with each range it touches replaced by one marker. */
function maskRanges(text: string, ranges: readonly Range[], from: number): string {
  let out = '';
  let at = 0;
  for (const range of ranges) {
    const start = Math.max(range.start - from, 0);
    const end = Math.min(range.end - from, text.length);
    if (end <= 0 || start >= text.length || end <= start) continue;
    out += `${text.slice(at, start)}${REDACTED}`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Each held secret as it may appear in text: itself, URL-encoded (both escapes' cases, `+` for a
 * space), JSON-escaped (once and twice), hex, and base64 or base64url at each of the three
 * alignments it can take inside a longer encoded text. For base64 only the characters that
 * depend on the secret alone are searched: masking them leaves at most two bytes at each end.
 * Longest first, so a longer variant wins where two overlap.
 */
function knownVariants(secrets: readonly KnownSecret[]): Array<{ variant: string; kind: string }> {
  const out = new Map<string, string>();
  for (const { value, label } of secrets) {
    if (value.trim().length < MIN_KNOWN_SECRET_CHARS) continue;
    const kind = `a secret Toolbridge holds (${label})`;
    const url = encodeURIComponent(value);
    const json = JSON.stringify(value).slice(1, -1);
    const bytes = Buffer.from(value, 'utf8');
    const variants = [
      value,
      url,
      url.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
      url.replace(/%20/g, '+'),
      encodeURI(value),
      json,
      JSON.stringify(json).slice(1, -1),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
    ];
    for (let shift = 0; shift < 3; shift++) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
      const total = shift + bytes.length;
      const core = encoded.slice(
        shift === 0 ? 0 : 4,
        total % 3 === 0 ? encoded.length : Math.floor(total / 3) * 4,
      );
      if (core.length >= MIN_KNOWN_SECRET_CHARS)
        variants.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
    for (const variant of variants)
      if (variant.length >= MIN_KNOWN_SECRET_CHARS && !out.has(variant)) out.set(variant, kind);
  }
  return [...out.entries()]
    .sort(([a], [b]) => b.length - a.length)
    .map(([variant, kind]) => ({ variant, kind }));
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

/** The one redactor every sink shares, rebuilt when what it knows changes (patterns, held secrets). */
export class SharedRedactor {
  #current: Redactor;

  constructor(private readonly build: () => Redactor) {
    this.#current = build();
  }

  get current(): Redactor {
    return this.#current;
  }

  rebuild(): void {
    this.#current = this.build();
  }
}
