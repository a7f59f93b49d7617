import { defineMember } from '../base/json.js';
import { isConnectorName, misnamedMessage } from '../catalog/connector-names.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { BridgeScope } from './bridge-scope.js';
import { MAX_NAMES_PER_DESCRIBE } from './bridge-tools.js';
import { explainNonDeferred } from './name-guidance.js';
import { describedInstructions } from './server-instructions.js';
import type { ConnectorDescription, ConnectorsStatus } from './types.js';

const NOT_FOUND_HINT = 'Names in not_found are not currently available. Re-run tool_search to refresh.';

export interface ToolDescription {
  /** The server's display title, when it gave one. */
  title?: string;
  description: string;
  parameters: Record<string, unknown>;
  /** What `structuredContent` the tool returns (Toolbridge checks each result against it). */
  outputSchema?: Record<string, unknown>;
  /** The server's hints (readOnlyHint, destructiveHint, …): claims of the server, not guarantees. */
  annotations?: Record<string, unknown>;
}

export interface ToolDescribePayload {
  tools: Record<string, ToolDescription>;
  not_found?: string[];
  hint?: string;
  /** Names that are tools the agent already sees directly: describing them is a mistake, said plainly. */
  errors?: Record<string, string>;
  /** The connector leg failed: why, and in `names` the connector names it could not describe. */
  connectors?: ConnectorsStatus;
  /** Server id → its own instructions, for the servers of the tools described that gave any. */
  server_instructions?: Record<string, string>;
}

/**
 * `tool_describe` (reference §1.10, §4.4): the full description and parameters of each deferred
 * tool named. Connector names the catalog does not hold are asked of the gateway in one request
 * when connectors are in scope. Unknown names go to `not_found`, directly-listed ones to
 * `errors`; connector names a failed leg could not answer go to `connectors.names` instead.
 */
export async function toolDescribePayload(
  args: Record<string, unknown>,
  scope: BridgeScope,
  options: { signal?: AbortSignal } = {},
): Promise<ToolDescribePayload | { error: string }> {
  const names = parseNames(args.names);
  if ('error' in names) return names;
  const deferred = scope.deferred();
  const remoteNames = names.list.filter((name) => !deferred.has(name) && isConnectorName(name));
  const leg =
    scope.connectors === undefined || remoteNames.length === 0
      ? undefined
      : await scope.connectors.describe(remoteNames, { signal: options.signal });
  const remote = new Map(leg?.tools.map((tool) => [tool.name, tool]));
  const unanswered = new Set(leg?.status?.names);

  const payload: ToolDescribePayload = { tools: {} };
  const notFound: string[] = [];
  const errors: Record<string, string> = {};
  for (const name of names.list) {
    const entry = deferred.get(name) ?? remote.get(name);
    if (entry !== undefined) {
      defineMember(payload.tools, name, describeEntry(entry));
      continue;
    }
    if (unanswered.has(name)) continue;
    const canonical = leg?.misnamed?.[name];
    if (canonical !== undefined) {
      defineMember(errors, name, misnamedMessage(name, canonical));
      continue;
    }
    // A connector miss is never an error: the tool may simply be gone from the gateway.
    const reason = isConnectorName(name) ? undefined : explainNonDeferred(name, scope, 'describe');
    if (reason?.kind === 'direct' || reason?.kind === 'held' || reason?.kind === 'unsupported')
      defineMember(errors, name, reason.message);
    else notFound.push(name);
  }
  if (notFound.length > 0) {
    payload.not_found = notFound;
    payload.hint = NOT_FOUND_HINT;
  }
  if (Object.keys(errors).length > 0) payload.errors = errors;
  if (leg?.status !== undefined) payload.connectors = leg.status;
  const instructions = instructionsFor(names.list, deferred, scope.catalog.serverInstructions);
  if (instructions !== undefined) payload.server_instructions = instructions;
  return payload;
}

/** Title, description, parameters, then outputSchema and annotations when the tool has them. */
function describeEntry(entry: CatalogEntry | ConnectorDescription): ToolDescription {
  const local = 'toolName' in entry ? entry : undefined;
  return {
    ...(local?.title === undefined ? {} : { title: local.title }),
    description: entry.description,
    parameters: entry.inputSchema ?? {},
    ...(local?.outputSchema === undefined ? {} : { outputSchema: local.outputSchema }),
    ...(local?.annotations === undefined ? {} : { annotations: { ...local.annotations } }),
  };
}

function instructionsFor(
  names: readonly string[],
  deferred: ReadonlyMap<string, CatalogEntry>,
  instructions: ReadonlyMap<string, string> | undefined,
): Record<string, string> | undefined {
  if (instructions === undefined || instructions.size === 0) return undefined;
  const quoted: Record<string, string> = {};
  for (const name of names) {
    const serverId = deferred.get(name)?.serverId;
    const text = serverId === undefined ? undefined : instructions.get(serverId);
    if (serverId !== undefined && text !== undefined)
      defineMember(quoted, serverId, describedInstructions(text));
  }
  return Object.keys(quoted).length === 0 ? undefined : quoted;
}

function parseNames(value: unknown): { list: string[] } | { error: string } {
  const raw = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (raw === undefined) return { error: 'names is required and must be an array of tool names.' };
  const list = [
    ...new Set(
      raw.map((item) => (typeof item === 'string' ? item.trim() : '')).filter((item) => item !== ''),
    ),
  ];
  if (list.length === 0) return { error: 'names must contain at least one non-empty tool name.' };
  if (list.length > MAX_NAMES_PER_DESCRIBE) {
    return {
      error: `too many names: ${list.length} > max ${MAX_NAMES_PER_DESCRIBE}. Retry with fewer names per call.`,
    };
  }
  return { list };
}
