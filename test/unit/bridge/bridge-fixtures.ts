/** Shared builders for bridge tests: catalog entries, a plan, a recording executor, a fake gateway. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSearchSettings } from '../../../src/api/ui-api.js';
import { routeRealCall } from '../../../src/approvals/real-call.js';
import type { JsonObject } from '../../../src/base/json.js';
import { type BridgeSurface, createAgentSurface } from '../../../src/bridge/agent-surface.js';
import type {
  CallContext,
  ConnectorBackend,
  ConnectorLegs,
  ConnectorOutcome,
  DirectTool,
  ToolExecutor,
} from '../../../src/bridge/types.js';
import { classifyEntries } from '../../../src/catalog/catalog.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import type { ToolIndexOptionsInput } from '../../../src/search/index.js';

export function mcpEntry(
  serverId: string,
  toolName: string,
  description = '',
  inputSchema?: JsonObject,
): CatalogEntry {
  return {
    name: `mcp__${serverId}__${toolName}`,
    serverId,
    toolName,
    source: 'mcp',
    description,
    inputSchema,
  };
}

export interface ExecutorCall {
  name: string;
  args: Record<string, unknown>;
  context: CallContext;
}

/** An in-process server stand-in: records every call it receives and answers with `answer`. */
export function recordingExecutor(
  answer: (entry: CatalogEntry, args: Record<string, unknown>) => CallToolResult = (entry) => ({
    content: [{ type: 'text', text: `ran ${entry.name}` }],
    structuredContent: { ok: true },
  }),
): ToolExecutor & { calls: ExecutorCall[] } {
  const calls: ExecutorCall[] = [];
  return {
    calls,
    async callTool(entry, args, context) {
      calls.push({ name: entry.name, args, context });
      return answer(entry, args);
    },
  };
}

export interface BackendCall {
  name: string;
  connector: string;
  tool: string;
  args: Record<string, unknown>;
}

/** A connector gateway stand-in: records each entry and answers per tool name. */
export function fakeConnectorBackend(
  answer: (
    name: string,
    args: Record<string, unknown>,
  ) => ConnectorOutcome | Promise<ConnectorOutcome> = () => ({
    response: 'ok',
  }),
): ConnectorBackend & { calls: BackendCall[] } {
  const calls: BackendCall[] = [];
  return {
    calls,
    async execute(entry, args) {
      calls.push({ name: entry.name, connector: entry.serverId, tool: entry.toolName, args });
      return answer(entry.name, args);
    },
  };
}

export const MANAGE_CONNECTIONS_TOOL: Tool = {
  name: 'manage_connections',
  description: 'Connect apps and servers.',
  inputSchema: { type: 'object', properties: { action: { type: 'string' } } },
};

export function fakeManageConnections(): DirectTool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    tool: MANAGE_CONNECTIONS_TOOL,
    async call(args) {
      calls.push(args);
      return { content: [{ type: 'text', text: '{"connectors":[]}' }] };
    },
  };
}

export interface SurfaceSetup {
  /** Deferrable entries in catalog order. */
  entries?: CatalogEntry[];
  /** Entries listed directly (added to the catalog and pinned). */
  pinned?: CatalogEntry[];
  executor?: ToolExecutor;
  /** Puts manage_connections in the session; connector entries then reach this backend. */
  connectors?: ConnectorBackend;
  /** The gateway legs of search and describe (used only with `connectors`). */
  legs?: ConnectorLegs;
  /** Engine options for the surface's indexes. */
  indexOptions?: ToolIndexOptionsInput;
  settings?: Partial<ToolSearchSettings>;
  unavailableNames?: string[];
  /** Sits in front of every call, local or connector, as approvals and hooks do in the host. */
  wrap?: (executor: ToolExecutor) => ToolExecutor;
}

/** A real plan from the catalog module and a surface over it. */
export function buildSurface(setup: SurfaceSetup = {}): {
  surface: BridgeSurface;
  executor: ToolExecutor;
  manage: ReturnType<typeof fakeManageConnections> | undefined;
} {
  const settings: ToolSearchSettings = { ...DEFAULT_TOOL_SEARCH_SETTINGS, ...setup.settings };
  const pinned = setup.pinned ?? [];
  const classified = classifyEntries([...(setup.entries ?? []), ...pinned], {
    pinned: pinned.map((entry) => entry.name),
  });
  const manage = setup.connectors === undefined ? undefined : fakeManageConnections();
  const plan = planToolSurface(classified, { settings, manageConnections: manage !== undefined });
  const base = setup.executor ?? recordingExecutor();
  const routed = setup.connectors === undefined ? base : routeRealCall(base, () => setup.connectors);
  const executor = setup.wrap === undefined ? routed : setup.wrap(routed);
  const surface = createAgentSurface({
    plan,
    settings,
    executor,
    manageConnections: manage,
    connectors: setup.legs,
    indexOptions: setup.indexOptions,
    unavailableNames: setup.unavailableNames,
  });
  return { surface, executor, manage };
}

export const CONTEXT: CallContext = { agentId: 'test-agent' };

/** The JSON payload of a bridge answer. */
export function payloadOf(result: CallToolResult): Record<string, unknown> {
  const [first] = result.content;
  if (first?.type !== 'text') throw new Error('expected a text result');
  return JSON.parse(first.text) as Record<string, unknown>;
}
