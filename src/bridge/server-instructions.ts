import { estimateTokens } from '../catalog/tokens.js';

/** The most of one server's instructions the digest quotes, in characters. */
export const DIGEST_CHARS_PER_SERVER = 400;
/** The most of one server's instructions `tool_describe` quotes, in characters. */
export const DESCRIBE_INSTRUCTIONS_CHARS = 4000;

const OPENER =
  'Toolbridge connects you to several MCP servers. Their own instructions, in short (tool_describe shows them in full beside their tools):';

/**
 * Toolbridge's own `instructions` for an agent: one short line per server that gave
 * instructions (its first paragraph, cut at a word), within a quarter of the agent's listing
 * budget. Servers past the budget are only named. Undefined when no server gave any.
 */
export function instructionsDigest(
  instructions: ReadonlyMap<string, string>,
  listingBudgetTokens: number,
): string | undefined {
  if (instructions.size === 0) return undefined;
  const budget = Math.floor(listingBudgetTokens / 4);
  let used = estimateTokens(OPENER);
  const lines: string[] = [];
  const left: string[] = [];
  for (const [serverId, text] of instructions) {
    const line = `- ${serverId}: ${firstParagraph(text, DIGEST_CHARS_PER_SERVER)}`;
    const cost = estimateTokens(line);
    if (left.length === 0 && used + cost <= budget) {
      lines.push(line);
      used += cost;
    } else {
      left.push(serverId);
    }
  }
  if (left.length > 0) lines.push(`- Also with instructions: ${left.join(', ')}.`);
  return [OPENER, ...lines].join('\n');
}

/** A server's instructions as `tool_describe` quotes them. */
export function describedInstructions(text: string): string {
  return cut(text.trim(), DESCRIBE_INSTRUCTIONS_CHARS);
}

function firstParagraph(text: string, maxChars: number): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? '';
  return cut(paragraph.replace(/\s+/g, ' '), maxChars);
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = text.slice(0, maxChars - 1);
  const space = head.lastIndexOf(' ');
  return `${space > maxChars / 2 ? head.slice(0, space) : head}…`;
}
