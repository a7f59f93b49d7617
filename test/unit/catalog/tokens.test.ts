import { describe, expect, it } from 'vitest';
import { countChars, estimateTokens, estimateToolTokens } from '../../../src/catalog/tokens.js';

describe('estimateTokens', () => {
  it('rounds a quarter token per character up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('counts code points, as the reference does', () => {
    expect(countChars('—…')).toBe(2);
    expect(countChars('😀😀')).toBe(2);
    expect(estimateTokens('😀😀😀😀😀')).toBe(2);
  });
});

describe('estimateToolTokens', () => {
  it('sums compact JSON characters over all definitions, then rounds once', () => {
    const a = { name: 'a' }; // {"name":"a"} = 12 chars
    const b = { name: 'bb', description: 'é' }; // {"name":"bb","description":"é"} = 30 chars
    expect(estimateToolTokens([a])).toBe(3);
    expect(estimateToolTokens([a, b])).toBe(Math.ceil(42 / 4));
  });
});
