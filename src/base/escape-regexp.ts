/** `text` with every character a regular expression reads specially escaped, so it matches itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
