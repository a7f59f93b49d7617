/**
 * When to reconnect after a crash: at once, then 1 s, doubling up to a cap, with jitter so many
 * servers do not retry in step. A connection that stayed healthy long enough starts over.
 */
export interface BackoffOptions {
  /** Delay before the second retry (the first is immediate). @defaultValue 1000 */
  initialDelayMs: number;
  /** @defaultValue 300000 (5 minutes) */
  maxDelayMs: number;
  /** @defaultValue 2 */
  factor: number;
  /** Each delay is moved by up to ± this share of itself. @defaultValue 0.2 */
  jitterRatio: number;
  /** A connection up this long resets the failure count. @defaultValue 600000 (10 minutes) */
  healthyResetMs: number;
  /** This many failures in a row count as crash-looping. @defaultValue 5 */
  crashLoopThreshold: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({
  initialDelayMs: 1_000,
  maxDelayMs: 300_000,
  factor: 2,
  jitterRatio: 0.2,
  healthyResetMs: 600_000,
  crashLoopThreshold: 5,
});

/** Delay before retry number `failures` (0-based count of failures so far). */
export function backoffDelay(
  failures: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  if (failures <= 0) return 0;
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * options.factor ** (failures - 1));
  const jitter = base * options.jitterRatio * (random() * 2 - 1);
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base + jitter)));
}
