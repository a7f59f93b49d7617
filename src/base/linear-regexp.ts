import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * A pattern from a server's schema that cannot run in linear time (a lookaround, a
 * backreference, …): it is not enforced, never handed to the backtracking engine.
 */
export interface UnenforcedPattern {
  pattern: string;
  reason: string;
}

/**
 * Ajv's `code.regExp` for schemas Toolbridge did not write: every `pattern`, `patternProperties`
 * and `propertyNames` pattern runs on RE2 (pure JS, linear in the input), so no pattern a server
 * sends can stall the event loop (`^(a+)+$` against 30 `a`s and a `!` took 18 s on V8's engine).
 * A pattern RE2 cannot compile matches everything and is reported to `onUnenforced`, so the
 * caller can say it was not checked.
 */
export function linearRegExpEngine(onUnenforced: (skipped: UnenforcedPattern) => void): RegExpEngine {
  const engine = (pattern: string): RegExpLike => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(toRe2Syntax(pattern));
    } catch (error) {
      onUnenforced({ pattern, reason: reasonOf(error) });
      return keyed({ test: () => true }, `unenforced:${pattern}`);
    }
    return keyed({ test: (text: string) => compiled.test(text) }, `re2:${pattern}`);
  };
  // Ajv reads `code` only for standalone code generation, which Toolbridge never uses.
  return Object.assign(engine, { code: 'linearRegExp' });
}

/** Ajv keys its cache of compiled patterns by toString(): it must tell patterns apart. */
function keyed(regExp: RegExpLike, key: string): RegExpLike {
  return Object.assign(regExp, { toString: () => key });
}

/**
 * JavaScript escapes RE2 spells differently: `\uXXXX` (a surrogate pair as one code point) and
 * `\u{X…}` become `\x{X…}`. Everything else is passed through for RE2 to accept or refuse.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char !== '\\' || index + 1 >= pattern.length) {
      out += char;
      continue;
    }
    const next = pattern[index + 1]!;
    if (next !== 'u') {
      out += char + next;
      index++;
      continue;
    }
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(index + 2));
    if (braced !== null) {
      out += `\\x{${braced[1]}}`;
      index += 1 + braced[0].length;
      continue;
    }
    const unit = hexUnit(pattern, index + 2);
    if (unit === undefined) {
      out += char + next;
      index++;
      continue;
    }
    const low =
      unit >= 0xd800 && unit <= 0xdbff && pattern.startsWith('\\u', index + 6)
        ? hexUnit(pattern, index + 8)
        : undefined;
    if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
      out += `\\x{${(((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000).toString(16)}}`;
      index += 11;
    } else {
      out += `\\x{${unit.toString(16)}}`;
      index += 5;
    }
  }
  return out;
}

function hexUnit(text: string, at: number): number | undefined {
  const digits = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `the linear-time engine cannot run it (${message.replace(/^error parsing regexp: /, '')})`;
}
