/**
 * How what servers offer besides tools is named for agents, so two servers can never collide
 * (README, "What passes through the gateway"):
 *
 * - a resource URI `<uri>` of server `<id>` is `toolbridge://<id>/<uri>`, the server's URI kept
 *   verbatim after the first `/` (templates alike: `toolbridge://<id>/<uriTemplate>`);
 * - a prompt `<name>` of server `<id>` is `<id>__<name>`.
 *
 * Server ids never hold `__` and are lower-case `[a-z0-9_-]`, so both split back unambiguously.
 */

export const RESOURCE_URI_PREFIX = 'toolbridge://';
const PROMPT_SEPARATOR = '__';
const SERVER_ID = /^[a-z0-9_-]+$/;

/** A name or URI as its own server knows it, and which server that is. */
export interface UpstreamName {
  serverId: string;
  name: string;
}

export function namespacedUri(serverId: string, uri: string): string {
  return `${RESOURCE_URI_PREFIX}${serverId}/${uri}`;
}

/** The server and its own URI behind an agent-facing one, or undefined when it is not one of ours. */
export function parseNamespacedUri(uri: string): UpstreamName | undefined {
  if (!uri.startsWith(RESOURCE_URI_PREFIX)) return undefined;
  const rest = uri.slice(RESOURCE_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const serverId = rest.slice(0, slash);
  const name = rest.slice(slash + 1);
  return SERVER_ID.test(serverId) && name !== '' ? { serverId, name } : undefined;
}

export function namespacedPromptName(serverId: string, name: string): string {
  return `${serverId}${PROMPT_SEPARATOR}${name}`;
}

export function parsePromptName(name: string): UpstreamName | undefined {
  const at = name.indexOf(PROMPT_SEPARATOR);
  if (at <= 0) return undefined;
  const serverId = name.slice(0, at);
  const own = name.slice(at + PROMPT_SEPARATOR.length);
  return SERVER_ID.test(serverId) && own !== '' ? { serverId, name: own } : undefined;
}

/**
 * A content block (tool result, prompt message, resource contents) with every resource URI it
 * names put under its server: `resource_link.uri` and an embedded `resource.uri`. So a link a
 * tool returns can be read through Toolbridge. Other blocks come back as they were.
 */
export function namespaceContentBlock<T>(serverId: string, block: T): T {
  if (typeof block !== 'object' || block === null) return block;
  const typed = block as { type?: unknown; uri?: unknown; resource?: unknown };
  if (typed.type === 'resource_link' && typeof typed.uri === 'string') {
    return { ...block, uri: namespacedUri(serverId, typed.uri) };
  }
  if (typed.type === 'resource' && typeof typed.resource === 'object' && typed.resource !== null) {
    const resource = typed.resource as { uri?: unknown };
    if (typeof resource.uri === 'string') {
      return { ...block, resource: { ...resource, uri: namespacedUri(serverId, resource.uri) } };
    }
  }
  return block;
}
