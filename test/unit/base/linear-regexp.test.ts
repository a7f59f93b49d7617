import { describe, expect, it } from 'vitest';
import { linearRegExpEngine, toRe2Syntax } from '../../../src/base/linear-regexp.js';
import { createArgumentValidator } from '../../../src/bridge/argument-validator.js';
import { withoutNativePatterns } from '../../helpers/native-regexp.js';

describe('linearRegExpEngine', () => {
  it('issue #12: runs a catastrophic pattern on RE2, never on the backtracking engine', () => {
    const nested = linearRegExpEngine(() => {})('^(a+)+$', 'u');
    expect(nested).not.toBeInstanceOf(RegExp);
    expect(String(nested)).toBe('re2:^(a+)+$');
    // V8 needs seconds for 30 characters and would never return from 5,000: the test would hang.
    expect(nested.test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(nested.test('a'.repeat(5000))).toBe(true);
  });

  it('issue #12: reports a pattern RE2 cannot run and lets every value through it', () => {
    const skipped: string[] = [];
    const engine = linearRegExpEngine(({ pattern }) => skipped.push(pattern));
    expect(engine('^(?=a)b', 'u').test('zzz')).toBe(true);
    expect(engine('(a)\\1', 'u').test('ab')).toBe(true);
    expect(skipped).toEqual(['^(?=a)b', '(a)\\1']);
  });

  it('tells patterns apart for the cache Ajv keys by toString()', () => {
    const engine = linearRegExpEngine(() => {});
    expect(String(engine('^a$', ''))).not.toBe(String(engine('^b$', '')));
  });
});

describe('toRe2Syntax', () => {
  it('spells JavaScript unicode escapes the RE2 way, keeping escaped backslashes', () => {
    expect(toRe2Syntax('^\\u00e9$')).toBe('^\\x{e9}$');
    expect(toRe2Syntax('\\u{1F600}')).toBe('\\x{1F600}');
    expect(toRe2Syntax('\\uD83D\\uDE00')).toBe('\\x{1f600}');
    expect(toRe2Syntax('\\\\u00e9')).toBe('\\\\u00e9');
    expect(toRe2Syntax('[\\w-]+\\.')).toBe('[\\w-]+\\.');
  });
});

describe('argument validator with server patterns', () => {
  const validator = createArgumentValidator();
  const evil = `${'a'.repeat(30)}!`;

  it('issue #12: judges a value against a catastrophic pattern at once, wherever the pattern sits', async () => {
    const cases: [schema: Record<string, unknown>, args: Record<string, unknown>, ok: boolean][] = [
      [{ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, { s: evil }, false],
      [{ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } }, { [evil]: 'x' }, true],
      [{ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } }, { aaaa: 'x' }, false],
      [{ type: 'object', propertyNames: { pattern: '^(a+)+$' } }, { [evil]: 1 }, false],
      [
        { type: 'object', properties: { s: { type: 'array', items: { pattern: '^(a|aa)+$' } } } },
        { s: [evil] },
        false,
      ],
    ];
    // V8's engine stalls 18 s on these: any site that handed one to it fails here instead.
    const served = ['^(a+)+$', '^(a|aa)+$'];
    for (const [schema, args, ok] of cases) {
      expect(
        await withoutNativePatterns(served, () => validator.check('mcp__x__t', schema, args, 'tool_call').ok),
      ).toBe(ok);
    }
  });

  it('issue #12: enforces the rest of a schema and names a pattern it could not check', () => {
    const schema = {
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(?!admin).*$' }, n: { type: 'number' } },
    };
    const good = validator.check('mcp__x__t', schema, { s: 'admin', n: 1 }, 'tool_call');
    expect(good).toMatchObject({ ok: true, notEnforced: [{ pattern: '^(?!admin).*$' }] });
    expect(validator.check('mcp__x__t', schema, { s: 'x', n: 'one' }, 'tool_call').ok).toBe(false);
  });
});
