/** The context-length slider runs on a log scale: every step is the same ratio, from 2K to 2M tokens. */
export const MIN_CONTEXT = 2_000;
export const MAX_CONTEXT = 2_000_000;
export const CONTEXT_STEPS = 120;

/** Slider position → tokens, rounded to three significant digits so labels stay readable. */
export function contextFromStep(step: number): number {
  const raw = MIN_CONTEXT * (MAX_CONTEXT / MIN_CONTEXT) ** (step / CONTEXT_STEPS);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 2);
  return Math.round(raw / magnitude) * magnitude;
}

/** Tokens → the nearest slider position (values outside the range sit at its ends). */
export function stepFromContext(tokens: number): number {
  const clamped = Math.min(MAX_CONTEXT, Math.max(MIN_CONTEXT, tokens));
  return Math.round((Math.log(clamped / MIN_CONTEXT) / Math.log(MAX_CONTEXT / MIN_CONTEXT)) * CONTEXT_STEPS);
}
