import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from '../../../src/agents/http-response.js';

describe('parseRequestTarget', () => {
  it('reads an origin-form path and its query, keeping percent-encoding as sent', () => {
    const target = parseRequestTarget('/mcp/a%2Fb?x=1&y=%zz');
    expect(target?.pathname).toBe('/mcp/a%2Fb');
    expect(target?.searchParams.get('x')).toBe('1');
  });

  it('issue #12: reads `//[` and `//x:99999` as paths, never as an authority, and never throws', () => {
    expect(parseRequestTarget('//[')?.pathname).toBe('//[');
    expect(parseRequestTarget('//x:99999')?.pathname).toBe('//x:99999');
    expect(parseRequestTarget('/%')?.pathname).toBe('/%');
  });

  it.each([
    ['absolute-form', 'http://['],
    ['absolute-form with a host', 'http://127.0.0.1:1/mcp'],
    ['authority-form', 'example.com:443'],
    ['asterisk-form', '*'],
    ['empty', ''],
    ['a space', '/a b'],
    ['NUL', '/\u0000'],
    ['a tab', '/\t'],
    ['DEL', '/\u007f'],
    ['too long', `/${'a'.repeat(9000)}`],
  ])('issue #12: refuses %s', (_what, raw) => {
    expect(parseRequestTarget(raw)).toBeUndefined();
  });

  it('refuses a missing target', () => {
    expect(parseRequestTarget(undefined)).toBeUndefined();
  });
});
