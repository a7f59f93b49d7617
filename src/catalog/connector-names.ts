/**
 * Agent-facing names for connector tools: `connectors__<connector>__<tool>` (docs/gateway-protocol.md,
 * "Names"). The gateway speaks vendor slugs (`GMAIL_SEND_EMAIL`); agents never see them.
 */

export const CONNECTOR_PREFIX = 'connectors__';

// The alias rule lives in base/ so the renderer checks an alias the way the host does.
export { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE } from '../base/account-alias.js';

export interface ParsedConnectorName {
  /** Lower-case connector id, as in the name. */
  connector: string;
  /** The tool part, case kept; may itself contain `__`. */
  tool: string;
}

/** `gmail` + `GMAIL_SEND_EMAIL` → `connectors__gmail__SEND_EMAIL`; a slug without the prefix is kept whole. */
export function composeConnectorName(connector: string, slug: string): string {
  const prefix = `${connector.toUpperCase()}_`;
  // Stripping must leave something to call, or the name could not be parsed back.
  const tool = slug.startsWith(prefix) && slug.length > prefix.length ? slug.slice(prefix.length) : slug;
  return `${CONNECTOR_PREFIX}${connector.toLowerCase()}__${tool}`;
}

export function isConnectorName(name: string): boolean {
  return name.startsWith(CONNECTOR_PREFIX);
}

/** Splits on `__` at most twice; anything but three non-empty parts starting with `connectors` is malformed. */
export function parseConnectorName(name: string): ParsedConnectorName | undefined {
  if (!isConnectorName(name)) return undefined;
  const rest = name.slice(CONNECTOR_PREFIX.length);
  const separator = rest.indexOf('__');
  if (separator <= 0) return undefined;
  const connector = rest.slice(0, separator);
  const tool = rest.slice(separator + 2);
  if (tool === '') return undefined;
  return { connector, tool };
}

/**
 * The slugs a name may stand for, in the order to try them: the prefixed slug
 * (`GMAIL_SEND_EMAIL`) first, the literal tool part (`SEND_EMAIL`) second.
 */
export function slugCandidates(name: ParsedConnectorName): [prefixed: string, literal: string] {
  return [`${name.connector.toUpperCase()}_${name.tool}`, name.tool];
}

/** What one agent-facing name reaches on the gateway, read from the gateway's schemas. */
export type SlugResolution =
  /** The name is exactly the name of this slug: the one tool it may run. */
  | { kind: 'exact'; slug: string; connector: string }
  /** The name reaches a tool under another name (case, a doubled prefix, another connector). */
  | { kind: 'misnamed'; canonical: string }
  | { kind: 'unknown' };

/**
 * Resolves a name to the one slug the gateway would run for it, the way execution tries them
 * (prefixed, then literal), keeping a candidate only when the name is exactly the one that slug
 * composes to from its own connector. So `connectors__GitHub__CREATE_ISSUE`,
 * `connectors__github__GITHUB_CREATE_ISSUE` and `connectors__notion__SLACK_CHAT_POST_MESSAGE`
 * never run a tool: each is `misnamed`, with the name that tool really has, and the policy only
 * ever decides on names that are exactly what runs.
 */
export function resolveSlug(
  name: string,
  schemas: Readonly<Record<string, { connector?: unknown }>>,
): SlugResolution {
  const parsed = parseConnectorName(name);
  if (parsed === undefined) return { kind: 'unknown' };
  let canonical: string | undefined;
  for (const slug of new Set(slugCandidates(parsed))) {
    const connector = Object.hasOwn(schemas, slug) ? schemas[slug]?.connector : undefined;
    if (typeof connector !== 'string' || connector === '') continue;
    const composed = composeConnectorName(connector, slug);
    if (composed === name) return { kind: 'exact', slug, connector };
    canonical ??= composed;
  }
  return canonical === undefined ? { kind: 'unknown' } : { kind: 'misnamed', canonical };
}

/** The agent's error for a name that reaches a tool under another name. */
export function misnamedMessage(name: string, canonical: string): string {
  return `'${name}' is not the exact name of a connector tool; it was not run. The tool it spells differently is '${canonical}': call it by exactly that name (policies apply to that name).`;
}

/** The agent's error for a connector name the gateway has no tool for. */
export function unknownConnectorToolMessage(name: string): string {
  return `There is no tool ${name} on the connector gateway. Use tool_search to find the exact name.`;
}

/** A slug the gateway returned, with the connector it belongs to (as the gateway spelled it). */
export interface ConnectorSlug {
  slug: string;
  connector: string;
}

export interface ResolvedSlug extends ConnectorSlug {
  /** The agent-facing name. */
  name: string;
}

/**
 * The twin rule for one search group: when two slugs compose to the same name, keep only the one
 * the name is tried with first (the prefixed twin), whatever the gateway's order. A repeated slug
 * counts once. The kept entry takes the place of the name's first appearance.
 */
export function resolveTwins(
  slugs: readonly ConnectorSlug[],
  warn: (message: string) => void = console.warn,
): ResolvedSlug[] {
  const byName = new Map<string, ResolvedSlug>();
  for (const item of slugs) {
    const name = composeConnectorName(item.connector, item.slug);
    const seen = byName.get(name);
    if (seen === undefined) {
      byName.set(name, { ...item, name });
      continue;
    }
    if (seen.slug === item.slug) continue;
    const parsed = parseConnectorName(name);
    const [prefixed] = parsed === undefined ? [seen.slug] : slugCandidates(parsed);
    const keep = item.slug === prefixed ? item : seen;
    const drop = keep === item ? seen : item;
    warn(
      `toolbridge: connector slugs ${keep.slug} and ${drop.slug} both map to ${name}; keeping ${keep.slug}.`,
    );
    byName.set(name, { slug: keep.slug, connector: keep.connector, name });
  }
  return [...byName.values()];
}
