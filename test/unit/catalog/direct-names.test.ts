import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aliasFor, assignDirectNames, isValidDirectName } from '../../../src/catalog/direct-names.js';

describe('isValidDirectName', () => {
  it('accepts 1–64 characters of [a-zA-Z0-9_-] only', () => {
    expect(isValidDirectName('mcp__github__create_issue')).toBe(true);
    expect(isValidDirectName('a'.repeat(64))).toBe(true);
    expect(isValidDirectName('a'.repeat(65))).toBe(false);
    expect(isValidDirectName('')).toBe(false);
    expect(isValidDirectName('mcp__files__read.file')).toBe(false);
    expect(isValidDirectName('mcp__x__café')).toBe(false);
  });
});

describe('aliasFor', () => {
  it('sanitises, truncates and appends a short hash of the real name', () => {
    const alias = aliasFor('mcp__files__read.file');
    expect(alias).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/);
    const long = aliasFor(`mcp__server__${'x'.repeat(100)}`);
    expect(long).toHaveLength(64);
    expect(isValidDirectName(long)).toBe(true);
  });

  it('is stable and tells apart names that sanitise alike', () => {
    expect(aliasFor('a.b')).toBe(aliasFor('a.b'));
    expect(aliasFor('a.b')).not.toBe(aliasFor('a b'));
  });
});

describe('assignDirectNames', () => {
  it('keeps valid names and aliases the rest, mapping both ways', () => {
    const names = assignDirectNames(['mcp__a__ok', 'mcp__a__not.ok']);
    expect(names.toDirect('mcp__a__ok')).toBe('mcp__a__ok');
    const alias = names.toDirect('mcp__a__not.ok')!;
    expect(alias).not.toBe('mcp__a__not.ok');
    expect(names.toReal(alias)).toBe('mcp__a__not.ok');
    expect([...names.aliases]).toEqual([[alias, 'mcp__a__not.ok']]);
  });

  it('never hands out a bridge tool name', () => {
    const names = assignDirectNames(['tool_search', 'manage_connections']);
    expect(names.toDirect('tool_search')).toMatch(/^tool_search_[0-9a-f]{8}$/);
    expect(names.toDirect('manage_connections')).toMatch(/^manage_connections_[0-9a-f]{8}$/);
  });

  it('lengthens the hash when an alias is already a real tool name', () => {
    const clash = aliasFor('mcp__a__x.y');
    const names = assignDirectNames(['mcp__a__x.y', clash]);
    expect(names.toDirect(clash)).toBe(clash);
    expect(names.toDirect('mcp__a__x.y')).toMatch(/^mcp__a__x_y_[0-9a-f]{12}$/);
  });

  it('does not depend on input order', () => {
    const input = ['b.b', 'a.a', 'c'];
    const one = assignDirectNames(input);
    const two = assignDirectNames([...input].reverse());
    for (const name of input) expect(two.toDirect(name)).toBe(one.toDirect(name));
  });

  it('property: every direct name is valid, distinct and maps back', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 90 }), { maxLength: 30 }),
        (realNames) => {
          const names = assignDirectNames(realNames);
          const direct = realNames.map((name) => names.toDirect(name)!);
          expect(new Set(direct).size).toBe(realNames.length);
          for (const [i, name] of direct.entries()) {
            expect(isValidDirectName(name)).toBe(true);
            expect(names.toReal(name)).toBe(realNames[i]);
            expect(['tool_search', 'tool_describe', 'tool_call', 'manage_connections']).not.toContain(name);
          }
        },
      ),
    );
  });
});
