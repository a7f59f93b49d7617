import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  MANAGE_CONNECTIONS_NAME,
  TOOL_CALL_NAME,
  TOOL_DESCRIBE_NAME,
  TOOL_SEARCH_NAME,
} from '../catalog/naming.js';
import type { ToolSearchSettings } from '../catalog/tool-search-config.js';
import { type ToolSurfacePlan, toolDefinition } from '../catalog/tool-surface.js';
import type { ListingForm } from '../catalog/types.js';

/**
 * The bridge's own tool definitions, as the agent sees them (reference §1.11, in our words).
 * Every byte here is paid on every turn, so the texts stay short and say only what changes
 * the agent's next step.
 */

/** Per-call caps the descriptions promise (the reference's fixed limits). */
export const MAX_QUERIES_PER_SEARCH = 7;
export const MAX_NAMES_PER_DESCRIBE = 10;
export const MAX_CONNECTOR_CALLS_PER_BATCH = 10;

export interface BridgeToolsOptions {
  /** Tools behind the bridge. */
  deferredCount: number;
  /** The listing's form; picks the sentence that frames it. */
  form: ListingForm;
  /** The listing text (see catalog/listing.ts); null for none. */
  listingText: string | null;
  /** Connector tools are in scope (a gateway is set; `manage_connections` links their apps). */
  manageConnections?: boolean;
  /** Shown in the `limit` parameter's description. @defaultValue 5 and 25 */
  searchDefaultLimit?: number;
  maxSearchLimit?: number;
}

const LISTED_FRAMING =
  'Every deferred tool is listed below. Never say a listed tool is unavailable; when you see the exact name you need, skip tool_search and go straight to tool_describe.';
const MIXED_FRAMING = `${LISTED_FRAMING} Servers marked "names not listed" have tools too: search them before concluding that a capability is missing.`;
const GROUPS_FRAMING =
  'The servers below are connected and their tools are reachable through this bridge. For any request in their domains, search here first: do not call the capability unavailable, and do not fall back to a generic tool (a terminal or a browser) without searching.';

function listingFraming(form: ListingForm): string | undefined {
  switch (form) {
    case 'full':
    case 'names':
      return LISTED_FRAMING;
    case 'mixed':
      return MIXED_FRAMING;
    case 'groups':
      return GROUPS_FRAMING;
    case 'none':
      return undefined;
  }
}

/** The full `tool_search` description: opener, query guidance, the connectors sentence, then the framed listing. */
export function toolSearchDescription(options: BridgeToolsOptions): string {
  const opener =
    options.deferredCount === 0 && options.manageConnections
      ? 'Search tools of remote apps (connectors) that are loaded on demand.'
      : `Search ${options.deferredCount} additional tools that are loaded on demand.`;
  const parts = [
    opener,
    'Each query is a keyword search: name the app or service, the action and the object ("github create issue", "slack send message"), with no filler words.',
    'A word that no tool contains makes its query return nothing, so leave out words you are unsure of, and send one query per capability you need.',
    `Results give the matching names per query and one shared map of descriptions; then load schemas with \`${TOOL_DESCRIBE_NAME}\` and run the tool with \`${TOOL_CALL_NAME}\`.`,
    'Tools already in your tool list need no search.',
  ];
  if (options.manageConnections) {
    parts.push(
      `Names starting with connectors__ are tools of remote apps; when an app you need is missing or not connected, call \`${MANAGE_CONNECTIONS_NAME}\` to connect it.`,
    );
  }
  let description = parts.join(' ');
  const framing = listingFraming(options.form);
  if (options.listingText && framing) description += `\n\n${framing}\n\n${options.listingText}`;
  return description;
}

/** tool_search, tool_describe and tool_call, in that order. */
export function bridgeTools(options: BridgeToolsOptions): Tool[] {
  const defaultLimit = options.searchDefaultLimit ?? 5;
  const maxLimit = options.maxSearchLimit ?? 25;
  return [
    {
      name: TOOL_SEARCH_NAME,
      description: toolSearchDescription(options),
      inputSchema: {
        type: 'object',
        properties: {
          queries: {
            type: 'array',
            items: { type: 'string' },
            description: `Keyword queries, one per capability, searched separately (at most ${MAX_QUERIES_PER_SEARCH}).`,
          },
          limit: {
            type: 'integer',
            description: `Most names per query (default ${defaultLimit}, at most ${maxLimit}).`,
          },
        },
        required: ['queries'],
      },
    },
    {
      name: TOOL_DESCRIBE_NAME,
      description: `Load the full description and parameter schema of deferred tools by exact name (at most ${MAX_NAMES_PER_DESCRIBE}), from \`${TOOL_SEARCH_NAME}\` results or the listing. Do this before \`${TOOL_CALL_NAME}\` unless you already know the arguments.`,
      inputSchema: {
        type: 'object',
        properties: {
          names: { type: 'array', items: { type: 'string' }, description: 'Exact tool names.' },
        },
        required: ['names'],
      },
    },
    {
      name: TOOL_CALL_NAME,
      description: `Run a deferred tool by its exact name, with arguments matching its schema (see \`${TOOL_DESCRIBE_NAME}\`). Send one entry per call for local tools. Only connectors__ names may be batched (at most ${MAX_CONNECTOR_CALLS_PER_BATCH}); they run one at a time in the order given. A batch with more than one local tool, or mixing local and connector tools, is rejected before anything runs. Approval policies apply exactly as for directly listed tools.`,
      inputSchema: {
        type: 'object',
        properties: {
          calls: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'The exact tool name.' },
                arguments: { type: 'object', description: "Arguments matching the tool's schema." },
                account: {
                  type: 'string',
                  description:
                    "connectors__ tools only: the alias of the app's account to run under (see manage_connections status); default: the app's default account.",
                },
              },
              required: ['name'],
            },
          },
        },
        required: ['calls'],
      },
    },
  ];
}

export interface AgentToolsOptions {
  settings: Pick<ToolSearchSettings, 'searchDefaultLimit' | 'maxSearchLimit'>;
  /** The `manage_connections` definition when the session has it. */
  manageConnections?: Tool;
  /**
   * `connectors__` tools can be found in this session (a gateway is configured): tool_search
   * says so. @defaultValue `manageConnections !== undefined`
   */
  connectorsInScope?: boolean;
}

/** The bridge tools for a plan: none when the bridge is not active. */
export function bridgeToolsForPlan(plan: ToolSurfacePlan, options: AgentToolsOptions): Tool[] {
  if (!plan.activated) return [];
  return bridgeTools({
    deferredCount: plan.deferredCount,
    form: plan.form,
    listingText: plan.listing.text,
    manageConnections: options.connectorsInScope ?? options.manageConnections !== undefined,
    searchDefaultLimit: options.settings.searchDefaultLimit,
    maxSearchLimit: options.settings.maxSearchLimit,
  });
}

/**
 * Everything the agent lists, in order: the directly listed catalog tools (pins, under their
 * direct names), `manage_connections`, then the bridge tools when active.
 */
export function agentTools(plan: ToolSurfacePlan, options: AgentToolsOptions): Tool[] {
  const direct: Tool[] = plan.direct.map(({ entry, directName }) => toolDefinition(entry, directName));
  if (options.manageConnections) direct.push(options.manageConnections);
  return [...direct, ...bridgeToolsForPlan(plan, options)];
}
