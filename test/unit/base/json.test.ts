import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseBoundedJson, tooDeepAt } from '../../../src/base/json.js';

function nested(depth: number, asArray = false): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

describe('tooDeepAt', () => {
  it('allows exactly maxDepth containers and reports the path of the first one past it', () => {
    expect(tooDeepAt(nested(3), 3)).toBeUndefined();
    expect(tooDeepAt(nested(4), 3)).toBe('a.a.a');
    expect(tooDeepAt({ x: [[[1]]] }, 3)).toBe('x[0][0]');
    expect(tooDeepAt('text', 0)).toBeUndefined();
  });

  it('issue #12: walks 100,000 levels without overflowing the stack, and shortens the path', () => {
    const path = tooDeepAt(nested(100_000, true), MAX_JSON_DEPTH);
    expect(path?.startsWith('[0][0]')).toBe(true);
    expect(path?.endsWith('…')).toBe(true);
    expect(path!.length).toBeLessThanOrEqual(121);
  });

  it('shortens long keys in the path', () => {
    expect(tooDeepAt({ ['k'.repeat(100)]: [1] }, 1)).toBe('k'.repeat(32));
  });
});

describe('parseBoundedJson', () => {
  it('parses JSON within the bound', () => {
    expect(parseBoundedJson('{"a":[1,2]}')).toEqual({ a: [1, 2] });
  });

  it('issue #12: refuses hidden JSON nested past the bound, however deep, with a message', () => {
    expect(() => parseBoundedJson(JSON.stringify(nested(MAX_JSON_DEPTH + 1)))).toThrow(
      `it nests more than ${MAX_JSON_DEPTH} levels deep`,
    );
    const levels = 1_000_000;
    expect(() => parseBoundedJson(`${'['.repeat(levels)}${']'.repeat(levels)}`)).toThrow(/nests more than/);
  });

  it('passes syntax errors through', () => {
    expect(() => parseBoundedJson('{')).toThrow(SyntaxError);
  });
});
