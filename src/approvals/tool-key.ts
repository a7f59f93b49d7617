import unhomoglyph from 'unhomoglyph';

/**
 * Canonical tool keys. Policies match `(serverId, toolName)`, never the text an agent typed: the
 * bridge takes only exact catalog names, and the gate refuses a name that is not byte for byte
 * the key's own (security checklist A2).
 */

export const MCP_NAME_PREFIX = 'mcp__';
export const CONNECTOR_NAME_PREFIX = 'connectors__';

export type ToolKind = 'mcp' | 'connectors';

/** What policies and approvals are keyed by: the server (or connector) id and the tool's own name. */
export interface ToolKey {
  serverId: string;
  toolName: string;
}

/** Whose tool an agent-facing name is: an MCP server's, a connector app's, or neither. */
export function toolKindOf(name: string): ToolKind | undefined {
  if (name.startsWith(MCP_NAME_PREFIX)) return 'mcp';
  return name.startsWith(CONNECTOR_NAME_PREFIX) ? 'connectors' : undefined;
}

/** The agent-facing name of a key: `mcp__server__tool` or `connectors__connector__tool`. */
export function agentFacingName(kind: ToolKind, key: ToolKey): string {
  return `${kind === 'mcp' ? MCP_NAME_PREFIX : CONNECTOR_NAME_PREFIX}${key.serverId}__${key.toolName}`;
}

/** True when `name` is exactly the agent-facing name of `key` (either kind), byte for byte. */
export function nameMatchesKey(name: string, key: ToolKey): boolean {
  return name === agentFacingName('mcp', key) || name === agentFacingName('connectors', key);
}

// Invisible characters an attacker can slip into a name: format characters (zero-width, bidi
// controls, tag characters, soft hyphen) and everything Unicode calls default-ignorable.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
// Runs of whitespace, dashes, dots, colons, slashes and underscores all read as one separator.
const SEPARATORS = /[\s\p{Pd}\p{Zs}._:/\\|·]+/gu;

/**
 * The form two names share when a person (or a model) would read them as the same name: NFKC,
 * invisible characters removed, the Unicode TR39 confusable skeleton (Cyrillic `а` reads as Latin
 * `a`, `rn` as `m`; data from confusables.txt via the pinned `unhomoglyph`), lower case, every run
 * of separators one `_`, trimmed. Used only to compare names (deny and ask rules cover
 * look-alikes), never shown or dispatched.
 */
export function nameSkeleton(name: string): string {
  const visible = name.normalize('NFKC').replace(INVISIBLE, '');
  // Lower case first (rules ignore case), then the prototypes, which may be capitals again.
  return confusableSkeleton(visible.toLowerCase())
    .toLowerCase()
    .replace(SEPARATORS, '_')
    .replace(/^_+|_+$/g, '');
}

/** TR39's skeleton(X): NFD, each character replaced by its prototype, NFD again. */
function confusableSkeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}
