/**
 * Tricks a poisoned tool description uses to hide instructions from the person reading it
 * (security checklist P4). We show the text in full and flag these; we never strip them quietly.
 * One detector: the UI flags the text, and approvals ask before every call of such a tool until
 * the person has set its own policy (approvals/policy.ts).
 */
const CHECKS: Array<{ pattern: RegExp; warning: string }> = [
  { pattern: /[\u{E0000}-\u{E007F}]/u, warning: 'hidden Unicode tag characters' },
  { pattern: /[\u200B-\u200D\u2060\uFEFF\u180E]/u, warning: 'zero-width characters' },
  { pattern: /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u, warning: 'bidirectional text controls' },
  { pattern: /\s{40,}/u, warning: 'a long run of blank space' },
  {
    pattern: /<\s*\/?\s*(important|system|instructions?|admin|assistant|secret)\b[^>]*>/iu,
    warning: 'instruction-like tags such as <IMPORTANT>',
  },
];

/** Plain-language warnings for the text, empty when nothing looks hidden. */
export function findSuspicious(text: string): string[] {
  return CHECKS.filter((check) => check.pattern.test(text)).map((check) => check.warning);
}

const INVISIBLE = /[\u{E0000}-\u{E007F}\u200B-\u200F\u2060\uFEFF\u180E\u202A-\u202E\u2066-\u2069\u061C]/gu;

/**
 * The text with every invisible character written out as `⟦U+XXXX⟧`; tag characters also show
 * the ASCII letter they smuggle, so a hidden sentence becomes readable.
 */
export function revealHidden(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const code = char.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase().padStart(4, '0');
    const smuggled = code >= 0xe0020 && code <= 0xe007e ? ` ${String.fromCodePoint(code - 0xe0000)}` : '';
    return `⟦U+${hex}${smuggled}⟧`;
  });
}
