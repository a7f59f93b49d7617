/**
 * The cheap token estimate the tiers and listing budget use (reference §2.3): a quarter token
 * per character, rounded up. Real tokenizers differ by ~20 %; what matters is that the rule is
 * stable, fast and the same everywhere (listing, budgets, UI numbers).
 */
export const CHARS_PER_TOKEN = 4;

/** Characters as the reference counts them: Unicode code points, not UTF-16 units. */
export function countChars(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimateTokens(text: string): number {
  return tokensForChars(countChars(text));
}

/**
 * Tokens for tool definitions as they would be sent: compact JSON of each definition, the
 * characters summed over all of them, then rounded up once.
 */
export function estimateToolTokens(definitions: Iterable<unknown>): number {
  let chars = 0;
  for (const definition of definitions) chars += countChars(JSON.stringify(definition) ?? '');
  return tokensForChars(chars);
}
