/**
 * The connector legs of `tool_search` and `tool_describe` (reference §4.3, §4.4): one gateway
 * request per call, turned into searchable documents per query, or into schemas per name. A
 * failure never hides local results: `dark` is silent, anything else adds a `connectors` status
 * object the bridge puts beside them.
 */
import type {
  ConnectorDescribeLeg,
  ConnectorDescription,
  ConnectorDocument,
  ConnectorSearchLeg,
  ConnectorsStatus,
} from '../bridge/types.js';
import { parseConnectorName, resolveSlug, resolveTwins, slugCandidates } from '../catalog/connector-names.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { GatewayClient, GatewayFailure, RequestOptions } from './gateway-client.js';
import type { GatewaySearchResponse } from './gateway-wire.js';

export const UNREACHABLE_HINT =
  'Remote apps (connectors) could not be searched right now; the results above are local tools only. ' +
  'Do not conclude that an app is missing: try again later or tell the user.';
export const SIGN_IN_EXPIRED_HINT =
  'Remote apps (connectors) could not be searched because the sign-in to the connector gateway has expired. ' +
  'Ask the user to sign in to the connector gateway again in Toolbridge; do not conclude that an app is missing.';
export const NOT_SET_UP_HINT =
  'Remote apps (connectors) are not set up yet. If the user needs one, call manage_connections to connect ' +
  'the app first, then search again.';

/**
 * The `connectors` object for a failed leg, or `undefined` when the failure is `dark` (connectors
 * are simply absent). `names` lists the connector names a describe could not answer.
 */
export function connectorsStatus(
  failure: GatewayFailure,
  names?: readonly string[],
): ConnectorsStatus | undefined {
  const withNames = names === undefined || names.length === 0 ? {} : { names: [...names] };
  switch (failure.kind) {
    case 'dark':
      return undefined;
    case 'not_set_up':
      return { status: 'not_set_up', hint: NOT_SET_UP_HINT, ...withNames };
    case 'sign_in_expired':
      return { status: 'unavailable', reason: 'sign_in_expired', hint: SIGN_IN_EXPIRED_HINT, ...withNames };
    case 'unreachable':
      return { status: 'unavailable', reason: 'unreachable', hint: UNREACHABLE_HINT, ...withNames };
  }
}

/**
 * Turns one search answer into documents per query: `result[i]` for `queries[i]`. Groups are
 * matched by position; a group that echoes a different use case is dropped; slugs without a
 * schema or connector are dropped; twins keep the prefixed slug; a name that would not parse
 * back to its connector (a connector spelled with `__`) is dropped.
 */
export function connectorDocuments(
  queries: readonly string[],
  response: GatewaySearchResponse,
  warn: (message: string) => void = console.warn,
): ConnectorDocument[][] {
  return queries.map((query, position) => {
    const group = response.results[position];
    if (group === undefined) return [];
    if (group.useCase !== undefined && group.useCase !== '' && group.useCase !== query) return [];
    const slugs = [];
    for (const slug of group.tools) {
      const schema = response.schemas[slug];
      if (schema !== undefined) slugs.push({ slug, connector: schema.connector });
    }
    const documents: ConnectorDocument[] = [];
    for (const { slug, connector, name } of resolveTwins(slugs, warn)) {
      if (parseConnectorName(name)?.connector !== connector.toLowerCase()) continue;
      const schema = response.schemas[slug]!;
      documents.push({
        name,
        description: schema.description,
        inputSchema: schema.inputSchema,
        server: connector,
        slug,
      });
    }
    return documents;
  });
}

/**
 * The whole search leg: one gateway request for all queries (1–7). Call it only when connectors
 * are in scope and some query's local hits are fewer than the limit.
 */
export async function searchConnectors(
  client: GatewayClient,
  queries: readonly string[],
  options: RequestOptions & { warn?: (message: string) => void } = {},
): Promise<ConnectorSearchLeg> {
  const empty = queries.map((): ConnectorDocument[] => []);
  const result = await client.search(queries, options);
  if (!result.ok) {
    const status = connectorsStatus(result.failure);
    return status === undefined ? { documents: empty } : { documents: empty, status };
  }
  return { documents: connectorDocuments(queries, result.value, options.warn) };
}

/**
 * The describe leg: one schemas request with every name's candidates (prefixed, then literal),
 * de-duplicated in order. For each name the first candidate with a schema wins; one slug may
 * answer two names. When dark, every name is simply not found.
 */
export async function describeConnectors(
  client: GatewayClient,
  names: readonly string[],
  options: RequestOptions = {},
): Promise<ConnectorDescribeLeg> {
  const wanted = names.map((name) => {
    const parsed = parseConnectorName(name);
    return { name, candidates: parsed === undefined ? [] : slugCandidates(parsed) };
  });
  const slugs = [...new Set(wanted.flatMap((item) => item.candidates))];
  const malformed = wanted.filter((item) => item.candidates.length === 0).map((item) => item.name);
  const result = await client.schemas(slugs, options);
  if (!result.ok) {
    const status = connectorsStatus(
      result.failure,
      wanted.filter((item) => item.candidates.length > 0).map((item) => item.name),
    );
    if (status === undefined) return { tools: [], notFound: [...names] };
    return { tools: [], notFound: malformed, status };
  }
  const tools: ConnectorDescription[] = [];
  const notFound: string[] = [];
  const misnamed: Record<string, string> = {};
  for (const { name } of wanted) {
    const resolved = resolveSlug(name, result.value);
    if (resolved.kind === 'misnamed') misnamed[name] = resolved.canonical;
    if (resolved.kind !== 'exact') {
      notFound.push(name);
      continue;
    }
    const schema = result.value[resolved.slug]!;
    tools.push({
      name,
      description: schema.description,
      inputSchema: schema.inputSchema ?? {},
      server: schema.connector,
      slug: resolved.slug,
    });
  }
  return Object.keys(misnamed).length === 0 ? { tools, notFound } : { tools, notFound, misnamed };
}

/** A connector document as a catalog entry, so the bridge can treat it like any deferred tool. */
export function connectorCatalogEntry(
  document: Pick<ConnectorDocument, 'name' | 'description' | 'inputSchema'>,
): CatalogEntry {
  const parsed = parseConnectorName(document.name);
  return {
    name: document.name,
    serverId: parsed?.connector ?? '',
    toolName: parsed?.tool ?? document.name,
    source: 'connectors',
    description: document.description,
    inputSchema: document.inputSchema,
  };
}
