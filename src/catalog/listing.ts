import { TOOL_CALL_NAME, TOOL_DESCRIBE_NAME, TOOL_SEARCH_NAME } from './naming.js';
import { countChars, tokensForChars } from './tokens.js';
import type { ListingForm } from './types.js';

/**
 * The deferred-tool listing embedded in `tool_search`'s description (reference §2.4): one block
 * per server, sorted, byte-stable for a given catalog and budget so the agent's prompt prefix
 * stays cacheable.
 */
export const LISTING_HEADER = `Deferred tool catalog (call schemas via \`${TOOL_DESCRIBE_NAME}\`, invoke via \`${TOOL_CALL_NAME}\`):`;

export const SHORT_DESCRIPTION_MAX_CHARS = 60;

/** What a listing needs to know about one deferred tool. */
export interface ListingTool {
  name: string;
  /** The group label (server or connector id); empty means `other`. */
  serverId: string;
  description?: string | null;
}

/** A configured server whose tools cannot be reached right now; it gets one line of its own. */
export interface UnavailableServer {
  serverId: string;
  /** Tools it had when last seen; unknown or 0 leaves the count out. */
  toolCount?: number;
  /** One sentence saying why, e.g. "the server failed to start; fix it in Servers". */
  reason: string;
}

/**
 * `toolbridge` (default): the reference steps plus two fixes, see `buildListing`.
 * `reference`: the reference algorithm exactly, for conformance tests and comparison.
 */
export type ListingAlgorithm = 'toolbridge' | 'reference';

export interface ListingOptions {
  /** Largest listing allowed, in estimated tokens (see `listingBudget`). */
  budgetTokens: number;
  /** @defaultValue `'toolbridge'` */
  algorithm?: ListingAlgorithm;
  unavailable?: readonly UnavailableServer[];
}

/** How one server's block is written: every tool with its short description, names only, or one line. */
export type GroupStyle = 'full' | 'names' | 'summary';

export interface ListingGroup {
  label: string;
  toolCount: number;
  style: GroupStyle;
}

export interface Listing {
  form: ListingForm;
  /** The listing text, or null when nothing fits (form `none`). */
  text: string | null;
  /** Estimated tokens of `text`; 0 when there is none. */
  tokens: number;
  /** Each server's block in listing order, with the style it got. Empty when form is `none`. */
  groups: ListingGroup[];
}

// Sentence end: `.`, `!` or `?` before whitespace or the end, unless the text so far ends in
// the abbreviation e.g / i.e / etc (so "e.g. open ones" stays in the first sentence).
const SENTENCE_END = /(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](?=\s|$)/;

/**
 * A tool's listing description: whitespace collapsed, cut after the first sentence; if that is
 * still longer than `maxChars`, the first `maxChars` characters up to the last space, trailing
 * `,;: ` dropped, and `…` appended (so at most `maxChars + 1` characters).
 */
export function shortDescription(
  description: string | null | undefined,
  maxChars = SHORT_DESCRIPTION_MAX_CHARS,
): string {
  // Only the first maxChars + 2 characters can matter (a sentence end further on is clipped
  // anyway), so long descriptions are never normalised whole: the listing stays cheap to rebuild.
  const chars = collapsedPrefix(description ?? '', maxChars + 2);
  let text = chars.join('');
  const end = SENTENCE_END.exec(text);
  if (end) text = text.slice(0, end.index + 1);
  if (end ? countChars(text) <= maxChars : chars.length <= maxChars) return text;
  let clipped = chars.slice(0, maxChars).join('');
  const lastSpace = clipped.lastIndexOf(' ');
  if (lastSpace >= 0) clipped = clipped.slice(0, lastSpace);
  return `${clipped.replace(/[,;: ]+$/, '')}…`;
}

const WHITESPACE = /\s/;

function isWhitespace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(char);
}

/** The first `limit` code points of `text` with whitespace runs collapsed to one space and trimmed. */
function collapsedPrefix(text: string, limit: number): string[] {
  const chars: string[] = [];
  let pendingSpace = false;
  for (const char of text) {
    if (isWhitespace(char)) {
      pendingSpace = chars.length > 0;
      continue;
    }
    if (pendingSpace) {
      chars.push(' ');
      pendingSpace = false;
    }
    if (chars.length >= limit) break;
    chars.push(char);
  }
  return chars.slice(0, limit);
}

interface Group {
  label: string;
  tools: Array<{ name: string; short: string }>;
  blocks: Record<GroupStyle, string>;
  chars: Record<GroupStyle, number>;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function renderBlock(label: string, tools: Group['tools'], style: GroupStyle): string {
  if (style === 'summary') {
    return `${label} (${tools.length} tools — names not listed; discover via \`${TOOL_SEARCH_NAME}\`)`;
  }
  const heading = `${label} tools (${tools.length}):`;
  if (style === 'names') return `${heading}\n${tools.map((tool) => tool.name).join(', ')}`;
  const lines = tools.map((tool) => (tool.short === '' ? `- ${tool.name}` : `- ${tool.name}: ${tool.short}`));
  return [heading, ...lines].join('\n');
}

function groupTools(tools: readonly ListingTool[]): Group[] {
  const byLabel = new Map<string, Group['tools']>();
  for (const tool of tools) {
    const label = tool.serverId === '' ? 'other' : tool.serverId;
    const list = byLabel.get(label) ?? [];
    byLabel.set(label, list);
    list.push({ name: tool.name, short: shortDescription(tool.description) });
  }
  return [...byLabel].map(([label, list]) => {
    list.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.short, b.short));
    const blocks = {
      full: renderBlock(label, list, 'full'),
      names: renderBlock(label, list, 'names'),
      summary: renderBlock(label, list, 'summary'),
    };
    const chars = {
      full: countChars(blocks.full),
      names: countChars(blocks.names),
      summary: countChars(blocks.summary),
    };
    return { label, tools: list, blocks, chars };
  });
}

function unavailableLine(server: UnavailableServer): string {
  return !server.toolCount
    ? `${server.serverId} (tools unavailable: ${server.reason})`
    : `${server.serverId} (${server.toolCount} tools unavailable: ${server.reason})`;
}

/**
 * Builds the listing that fits `budgetTokens`, trying in order:
 * 1. every server `full` (name + short description per tool) → form `full`;
 * 2. every server `names` (one comma-separated line) → form `names`;
 * 3. from all-names, collapse servers to a one-line summary, largest names block first (ties by
 *    label), checking after each → form `mixed` (some servers still listed) or `groups` (all
 *    summaries);
 * 4. nothing fits → form `none`, no text.
 *
 * The `toolbridge` algorithm (default) differs in two ways, both deliberate:
 * - it never collapses a server whose summary line is not shorter than its names block (a
 *   1-tool server's names block is usually shorter than "x (1 tools — names not listed…)"),
 *   so it never ends at `none` while a listing with fewer collapses would fit;
 * - once a `names` or `mixed` listing fits, it spends the rest of the budget turning listed
 *   servers that have descriptions back into `full` blocks, smallest extra cost first (ties by
 *   label), so the agent reads descriptions wherever the budget allows. The form stays `names`/`mixed`.
 */
export function buildListing(tools: readonly ListingTool[], options: ListingOptions): Listing {
  const algorithm = options.algorithm ?? 'toolbridge';
  const groups = groupTools(tools);
  const labels = new Set(groups.map((group) => group.label));
  const unavailable = (options.unavailable ?? []).filter((server) => !labels.has(server.serverId));
  if (groups.length === 0 && unavailable.length === 0)
    return { form: 'none', text: null, tokens: 0, groups: [] };

  const fixedLines = unavailable.map((server) => ({ label: server.serverId, line: unavailableLine(server) }));
  // Header, plus one newline before every block (blocks are joined to the header by "\n").
  const fixedChars =
    countChars(LISTING_HEADER) +
    fixedLines.reduce((sum, fixed) => sum + countChars(fixed.line) + 1, 0) +
    groups.length;

  const styles = new Map<Group, GroupStyle>();
  const totalChars = () => {
    let chars = fixedChars;
    for (const [group, style] of styles) chars += group.chars[style];
    return chars;
  };
  const fits = () => tokensForChars(totalChars()) <= options.budgetTokens;
  const setAll = (style: GroupStyle) => {
    for (const group of groups) styles.set(group, style);
  };
  const render = (form: ListingForm): Listing => {
    const blocks = [
      ...groups.map((group) => ({ label: group.label, line: group.blocks[styles.get(group)!] })),
      ...fixedLines,
    ].sort((a, b) => compareStrings(a.label, b.label));
    const text = [LISTING_HEADER, ...blocks.map((block) => block.line)].join('\n');
    const listed = [...groups]
      .sort((a, b) => compareStrings(a.label, b.label))
      .map((group) => ({ label: group.label, toolCount: group.tools.length, style: styles.get(group)! }));
    return { form, text, tokens: tokensForChars(totalChars()), groups: listed };
  };
  // Toolbridge only: turn listed `names` blocks into `full` ones while the listing still fits.
  const spendRest = () => {
    if (algorithm !== 'toolbridge') return;
    const upgradable = groups
      // A group without any description gains nothing from `full` but "- " prefixes.
      .filter((group) => styles.get(group) === 'names' && group.tools.some((tool) => tool.short !== ''))
      .sort(
        (a, b) =>
          a.chars.full - a.chars.names - (b.chars.full - b.chars.names) || compareStrings(a.label, b.label),
      );
    for (const group of upgradable) {
      styles.set(group, 'full');
      if (!fits()) {
        styles.set(group, 'names');
        break; // sorted by cost: nothing later can fit either
      }
    }
  };

  setAll('full');
  if (fits()) return render('full');
  setAll('names');
  if (fits()) {
    spendRest();
    return render('names');
  }
  const collapseOrder = [...groups]
    .filter((group) => algorithm === 'reference' || group.chars.summary < group.chars.names)
    .sort((a, b) => b.chars.names - a.chars.names || compareStrings(a.label, b.label));
  for (const group of collapseOrder) {
    styles.set(group, 'summary');
    if (fits()) {
      const allSummaries = groups.every((other) => styles.get(other) === 'summary');
      spendRest();
      return render(allSummaries ? 'groups' : 'mixed');
    }
  }
  return { form: 'none', text: null, tokens: 0, groups: [] };
}
