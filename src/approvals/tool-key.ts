/**
 * Canonical tool keys. Policies match `(serverId, toolName)`, never the text an agent typed: a name
 * is resolved against the live catalog first, and anything that is not exactly one known tool is
 * "unknown" and must never be dispatched (security checklist A2).
 */

export const MCP_NAME_PREFIX = 'mcp__';
export const CONNECTOR_NAME_PREFIX = 'connectors__';

export type ToolKind = 'mcp' | 'connectors';

/** What policies and approvals are keyed by: the server (or connector) id and the tool's own name. */
export interface ToolKey {
  serverId: string;
  toolName: string;
}

/** A tool as the catalog knows it: the exact agent-facing name and its key. */
export interface KnownTool extends ToolKey {
  name: string;
}

/** The agent-facing name of a key: `mcp__server__tool` or `connectors__connector__tool`. */
export function agentFacingName(kind: ToolKind, key: ToolKey): string {
  return `${kind === 'mcp' ? MCP_NAME_PREFIX : CONNECTOR_NAME_PREFIX}${key.serverId}__${key.toolName}`;
}

/** True when `name` is exactly the agent-facing name of `key` (either kind), byte for byte. */
export function nameMatchesKey(name: string, key: ToolKey): boolean {
  return name === agentFacingName('mcp', key) || name === agentFacingName('connectors', key);
}

export function sameKey(a: ToolKey, b: ToolKey): boolean {
  return a.serverId === b.serverId && a.toolName === b.toolName;
}

// Invisible characters an attacker can slip into a name: format characters (zero-width, bidi
// controls, tag characters, soft hyphen) and everything Unicode calls default-ignorable.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
// Runs of whitespace, dashes, dots, colons, slashes and underscores all read as one separator.
const SEPARATORS = /[\s\p{Pd}\p{Zs}._:/\\|·]+/gu;

/**
 * The form two names share when a person (or a model) would read them as the same name: NFKC,
 * invisible characters removed, lower case, every run of separators one `_`, trimmed. Used only to
 * compare names, never shown or dispatched.
 */
export function nameSkeleton(name: string): string {
  return name
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .normalize('NFKC')
    .replace(SEPARATORS, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Resolves agent-typed names against a fixed set of known tools. An exact name wins; otherwise a
 * name whose skeleton matches exactly one known tool resolves to it (a trailing space or a
 * full-width letter does not make a different tool); no match, or several, is unknown.
 * Deterministic: the answer depends only on the name and the set of tools.
 */
export class ToolNameResolver {
  private readonly byName = new Map<string, KnownTool>();
  private readonly bySkeleton = new Map<string, KnownTool[]>();

  constructor(tools: Iterable<KnownTool>) {
    for (const tool of tools) {
      this.byName.set(tool.name, tool);
      const skeleton = nameSkeleton(tool.name);
      const group = this.bySkeleton.get(skeleton);
      if (group === undefined) this.bySkeleton.set(skeleton, [tool]);
      else if (!group.some((known) => known.name === tool.name)) group.push(tool);
    }
  }

  /** The known tool `name` stands for, or undefined for "unknown tool". */
  resolve(name: string): KnownTool | undefined {
    const exact = this.byName.get(name);
    if (exact !== undefined) return exact;
    const group = this.bySkeleton.get(nameSkeleton(name));
    return group?.length === 1 ? group[0] : undefined;
  }
}
