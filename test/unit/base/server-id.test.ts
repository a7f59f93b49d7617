import { describe, expect, it } from 'vitest';
import { ambiguousServerId, isValidServerId, toServerId } from '../../../src/base/server-id.js';

describe('toServerId', () => {
  it('issue #12: never makes an id that holds "__" or ends with "_"', () => {
    for (const [label, id] of [
      ['My GitHub', 'my-github'],
      ['x__y', 'x_y'],
      ['a___b__', 'a_b'],
      ['files_', 'files'],
      ['__', 'server'],
    ]) {
      expect(toServerId(label!)).toBe(id);
      expect(ambiguousServerId(toServerId(label!))).toBeUndefined();
      expect(isValidServerId(toServerId(label!))).toBe(true);
    }
  });
});

describe('ambiguousServerId', () => {
  it("issue #12: names ids whose tool names could be another server's, with an id to use instead", () => {
    expect(ambiguousServerId('x__y')).toContain('Use "x_y" instead');
    expect(ambiguousServerId('x_')).toContain('Use "x" instead');
    expect(ambiguousServerId('_x')).toBeUndefined();
    expect(ambiguousServerId('x_y-z')).toBeUndefined();
  });
});
