import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { UnavailableServer } from '../catalog/listing.js';
import { heldToolMessage, TOOL_CALL_NAME, TOOL_DESCRIBE_NAME, TOOL_SEARCH_NAME } from '../catalog/naming.js';
import type { ToolSearchSettings } from '../catalog/tool-search-config.js';
import type { ToolSurfacePlan } from '../catalog/tool-surface.js';
import { createToolIndex, type ToolIndexOptionsInput } from '../search/index.js';
import type { ToolIndex } from '../search/types.js';
import { type ArgumentValidator, createArgumentValidator } from './argument-validator.js';
import { jsonResult } from './bridge-results.js';
import { createBridgeScope } from './bridge-scope.js';
import { agentTools } from './bridge-tools.js';
import { capResult } from './result-cap.js';
import { instructionsDigest } from './server-instructions.js';
import { callCatalogTool, runToolCall } from './tool-call.js';
import { type ToolDescribePayload, toolDescribePayload } from './tool-describe.js';
import { type ToolSearchPayload, toolSearchPayload } from './tool-search.js';
import type { AgentSurface, ConnectorLegs, DirectTool, PinnedTool, ToolExecutor } from './types.js';

export interface AgentSurfaceOptions {
  /** What this agent sees, from `planToolSurface` for the current catalog, settings and context length. */
  plan: ToolSurfacePlan;
  settings: Pick<ToolSearchSettings, 'searchDefaultLimit' | 'maxSearchLimit'>;
  /** Runs real tools (wrapped by approvals and audit in the host). */
  executor: ToolExecutor;
  /**
   * The most one real tool's result (through tool_call or pinned) may send the agent, in bytes;
   * more is cut with a note saying what and how to get the rest (see capResult).
   * @defaultValue no cap
   */
  maxResultBytes?: number;
  /** `manage_connections`, listed directly when given. */
  manageConnections?: DirectTool;
  /**
   * Whether `connectors__` names are searched, described and called in this session (a
   * connector gateway is configured). Kept apart from `manageConnections`, which the host lists
   * even without a gateway for its MCP actions.
   * @defaultValue `manageConnections !== undefined`
   */
  connectorsInScope?: boolean;
  /**
   * The gateway legs of tool_search and tool_describe (`gatewayConnectorLegs(client)`). Used only
   * while connectors are in scope; without them connector names are callable but never
   * searched or described.
   */
  connectors?: ConnectorLegs;
  /** Declared servers that offer no tools right now: named in empty search results. */
  unavailableServers?: readonly UnavailableServer[];
  /** Real names this agent may not call (disabled tools): told "not available" rather than "unknown". */
  unavailableNames?: readonly string[];
  /** Real names held until the person reviews their changed definition (see BridgeCatalog). */
  heldNames?: readonly string[];
  /** Real names Toolbridge cannot run, with why (see BridgeCatalog). */
  unsupported?: ReadonlyMap<string, string>;
  /** Server id → its instructions: digested into `instructions()`, quoted by tool_describe. */
  serverInstructions?: ReadonlyMap<string, string>;
  /**
   * A search index over `plan.deferred`, to share one between agents with the same catalog.
   * Without it the surface builds its own on the first search.
   */
  index?: ToolIndex;
  /**
   * Engine options for the indexes the surface builds: over the deferred tools when `index` is
   * absent, and over them plus one query's connector hits. Give the ones `index` was built with.
   * @defaultValue the engine's defaults
   */
  indexOptions?: ToolIndexOptionsInput;
  /** Compiled-schema cache; share one across rebuilds. @defaultValue one shared per process */
  validator?: ArgumentValidator;
}

/** The agent surface plus the bridge answers as data, for the UI playground and the CLI. */
export interface BridgeSurface extends AgentSurface {
  instructions(): string | undefined;
  /** Exactly what `tool_search` returns to an agent, as an object (connector leg included). */
  toolSearch(
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ToolSearchPayload | { error: string }>;
  /** Exactly what `tool_describe` returns to an agent, as an object (connector leg included). */
  toolDescribe(
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ToolDescribePayload | { error: string }>;
}

let sharedValidator: ArgumentValidator | undefined;

/**
 * What one agent endpoint serves: the visible tools (pins, `manage_connections`, the bridge
 * when active) and a router for calls. Holds no state of its own beyond lazy caches, so the
 * host simply builds a new one whenever the catalog, settings or pins change.
 */
export function createAgentSurface(options: AgentSurfaceOptions): BridgeSurface {
  const { plan, manageConnections } = options;
  const connectorsInScope = options.connectorsInScope ?? manageConnections !== undefined;
  sharedValidator ??= createArgumentValidator();
  const scope = createBridgeScope({
    catalog: {
      deferred: plan.deferred,
      pinned: plan.direct,
      unavailableServers: options.unavailableServers ?? [],
      unavailableNames: options.unavailableNames ?? [],
      heldNames: options.heldNames ?? [],
      ...(options.unsupported === undefined ? {} : { unsupported: options.unsupported }),
      ...(options.serverInstructions === undefined ? {} : { serverInstructions: options.serverInstructions }),
    },
    executor: options.executor,
    validator: options.validator ?? sharedValidator,
    createIndex: (entries) => createToolIndex(entries, options.indexOptions),
    index: options.index,
    limits: { defaultLimit: options.settings.searchDefaultLimit, maxLimit: options.settings.maxSearchLimit },
    extraDirectNames: manageConnections === undefined ? [] : [manageConnections.tool.name],
    connectorsInScope,
    connectors: options.connectors,
  });

  const { maxResultBytes } = options;
  const capped = (result: CallToolResult): CallToolResult =>
    maxResultBytes === undefined ? result : capResult(result, maxResultBytes);
  let tools: Tool[] | undefined;
  let pinnedByName: Map<string, PinnedTool> | undefined;
  const pinned = (name: string) => {
    pinnedByName ??= new Map(plan.direct.map((item) => [item.directName, item]));
    return pinnedByName.get(name);
  };

  return {
    listTools() {
      tools ??= agentTools(plan, {
        settings: options.settings,
        manageConnections: manageConnections?.tool,
        connectorsInScope,
      });
      return tools;
    },

    async callTool(name, args, callerContext) {
      // One Stop per agent tool_call, shared by its entries: a Stop on any of its cards aborts it.
      const context =
        callerContext.stop === undefined ? { ...callerContext, stop: new AbortController() } : callerContext;
      if (plan.activated) {
        if (name === TOOL_SEARCH_NAME) return payloadResult(await toolSearchPayload(args, scope, context));
        if (name === TOOL_DESCRIBE_NAME)
          return payloadResult(await toolDescribePayload(args, scope, context));
        if (name === TOOL_CALL_NAME) return capped(await runToolCall(args, scope, context));
      }
      if (manageConnections !== undefined && name === manageConnections.tool.name) {
        return manageConnections.call(args, context);
      }
      const direct = pinned(name);
      if (direct !== undefined)
        return capped(await callCatalogTool(direct.entry, args, 'direct', scope, context));
      const message = scope.isHeld(name)
        ? heldToolMessage(name)
        : (scope.unsupportedReason(name) ?? unlistedMessage(name, plan));
      throw new McpError(ErrorCode.InvalidParams, message);
    },

    instructions: () => instructionsDigest(options.serverInstructions ?? new Map(), plan.budgetTokens),

    toolSearch: (args, searchOptions) => toolSearchPayload(args, scope, searchOptions),
    toolDescribe: (args, describeOptions) => toolDescribePayload(args, scope, describeOptions),
  };
}

function payloadResult(payload: object): ReturnType<typeof jsonResult> {
  return jsonResult(payload, 'error' in payload);
}

function unlistedMessage(name: string, plan: ToolSurfacePlan): string {
  if (plan.activated && plan.deferred.some((entry) => entry.name === name)) {
    return `Tool '${name}' is not listed directly: call it through ${TOOL_CALL_NAME} with {"calls":[{"name":"${name}","arguments":{...}}]}.`;
  }
  return plan.activated
    ? `Tool '${name}' is not listed. Use ${TOOL_SEARCH_NAME} to find tools, then ${TOOL_CALL_NAME} to call them.`
    : `Tool '${name}' is not listed. Call one of the tools in the tool list.`;
}
