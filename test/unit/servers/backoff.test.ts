import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../../src/servers/backoff.js';

describe('backoffDelay', () => {
  it('retries at once, then from 1 s doubling, capped at 5 minutes', () => {
    const middle = () => 0.5;
    const delays = Array.from({ length: 12 }, (_, failures) =>
      backoffDelay(failures, DEFAULT_BACKOFF, middle),
    );
    expect(delays).toEqual([
      0, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000,
    ]);
  });

  it('moves each delay by at most ±20%, never past the cap', () => {
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(3_200);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.999_999)).toBe(4_800);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 0.999_999)).toBe(300_000);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(4, DEFAULT_BACKOFF);
      expect(delay).toBeGreaterThanOrEqual(6_400);
      expect(delay).toBeLessThanOrEqual(9_600);
    }
  });

  it('follows custom options', () => {
    const options = { ...DEFAULT_BACKOFF, initialDelayMs: 100, factor: 3, maxDelayMs: 1_000, jitterRatio: 0 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, options))).toEqual([100, 300, 900, 1_000]);
  });
});
