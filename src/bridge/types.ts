import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorCode } from '../base/errors.js';
import type { JsonObject, JsonValue } from '../base/json.js';
import type { UnavailableServer } from '../catalog/listing.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { IndexEntry } from '../search/types.js';
import type { AgentPeer, ProgressListener } from './agent-peer.js';

/** Who is calling and how to cancel. */
export interface CallContext {
  /** The agent (token) id the call came from; `playground` for the UI's own calls. */
  agentId: string;
  signal?: AbortSignal;
  /**
   * The user's Stop for this agent's tool_call, made by the surface for each call when the
   * caller brings none; a Stop on any of its cards aborts it. A connector batch checks it before
   * each entry and marks every entry not yet started `INTERRUPTED` (never sent).
   */
  stop?: AbortController;
  /**
   * The connector account alias one `tool_call` entry asked to run under (its `account`);
   * absent runs under the app's default account. Set per entry, only for `connectors__` tools.
   */
  account?: string;
  /**
   * `connectors__` entries: the one gateway slug the name resolved to before the policy decided
   * (the batch resolves every name first); the backend runs exactly it.
   */
  slug?: string;
  /** Schema patterns the argument check could not enforce (shown on the card). */
  notEnforced?: string[];
  /**
   * Which tool_call and entry this is (its `CallRecord` id and input index), so the cards it
   * opens show inside that call's one card.
   */
  call?: { id: string; index: number };
  /** The agent a server may ask for input, a model reply or its roots while this call runs. */
  peer?: AgentPeer;
  /** Set when the agent sent a progress token: the server's progress notifications go here. */
  onProgress?: ProgressListener;
}

/** One entry of a tool_call as the person's record of it starts: in input order, before any runs. */
export interface CallRecordEntry {
  /** The real name (`mcp__…`, `connectors__…`), or what the agent sent when it names no tool. */
  name: string;
  /** The server, or the connector app. */
  serverId: string;
  arguments: JsonObject;
  /** The connector account alias the entry named. */
  account?: string;
}

/** How an entry ended, in one line: the state it ends in and a short summary of its result or refusal. */
export interface CallEntryOutcome {
  state: 'done' | 'failed' | 'denied' | 'skipped' | 'interrupted' | 'timeout';
  summary: string;
}

/** The person's record of one tool_call while it runs (see `ToolExecutor.beginCall`). */
export interface CallRecord {
  readonly id: string;
  /** The entry reached the executor (a policy or a card decides it next). */
  started(index: number): void;
  finished(index: number, outcome: CallEntryOutcome): void;
  /** Every entry has finished; the call's answer goes back to the agent. */
  end(): void;
}

/**
 * Runs one real tool. The bridge validates arguments first; the executor talks to the server
 * (or an in-process fake in tests) and returns its result untouched.
 */
export interface ToolExecutor {
  callTool(entry: CatalogEntry, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
  /**
   * Notes an entry the user's Stop ended before it reached `callTool` (a connector batch checks
   * Stop between entries), so the audit log has its own line for it. Never runs the tool.
   */
  recordInterrupted?(entry: CatalogEntry, args: Record<string, unknown>, context: CallContext): Promise<void>;
  /**
   * Notes an entry the bridge refused before it reached `callTool` (its arguments do not fit the
   * tool's schema), so the audit log shows the attempt too. Never runs the tool.
   */
  recordRefused?(
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: CallContext,
    refusal: { code: ErrorCode; message: string },
  ): Promise<void>;
  /**
   * Opens the record of one tool_call with its entries, which the person sees as one card with a
   * state per entry. Absent: nothing is recorded (tests, the CLI).
   */
  beginCall?(agentId: string, entries: readonly CallRecordEntry[]): CallRecord;
}

/** What an agent endpoint needs from the bridge: the tools to list, and a way to call one. */
export interface AgentSurface {
  /** Visible tools in order: pinned tools, then manage_connections, then the bridge tools. */
  listTools(): Tool[];
  callTool(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
  /** Toolbridge's `instructions` for a session opened now: the servers' own, digested (see server-instructions.ts). */
  instructions?(): string | undefined;
  /** The agent says its roots changed (notifications/roots/list_changed): servers are told in turn. */
  rootsChanged?(): void;
}

/** A pinned tool: listed directly to the agent, never behind the bridge (catalog's DirectEntry). */
export interface PinnedTool {
  entry: CatalogEntry;
  /** The name the agent calls it by: `entry.name`, or an alias when that is not a valid direct tool name. */
  directName: string;
}

/** The tools one agent session sees, already split into pinned and deferred by the tier rules. */
export interface BridgeCatalog {
  /** Tools behind the bridge, in catalog order (equal search scores keep this order). */
  deferred: readonly CatalogEntry[];
  pinned: readonly PinnedTool[];
  /** Declared servers with no tools right now; named in empty search results. */
  unavailableServers?: readonly UnavailableServer[];
  /**
   * Names the host knows but this session cannot call (a disabled tool, say). A `tool_call` to
   * one is told it is not available, rather than that the name is unknown.
   */
  unavailableNames?: readonly string[];
  /** Real names held until the person reviews their changed definition: told so when asked for. */
  heldNames?: readonly string[];
  /**
   * Real names Toolbridge cannot run (a tool that requires MCP tasks), each with the sentence
   * that says why; they are out of search, listing and pins, and a call or describe is told so.
   */
  unsupported?: ReadonlyMap<string, string>;
  /** Server id → the instructions it gave at initialize; `tool_describe` quotes them beside its tools. */
  serverInstructions?: ReadonlyMap<string, string>;
}

/** A tool the agent calls directly that is neither pinned nor a bridge tool (`manage_connections`). */
export interface DirectTool {
  tool: Tool;
  call(args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}

/** A connector entry's error, as the gateway reports it (`TOOL_NOT_FOUND`, `CONNECTION_REQUIRED`, …). */
export interface ConnectorErrorBody {
  code: string;
  message: string;
  [key: string]: JsonValue;
}

/** What one connector entry produced: a response (and the account it ran under), or an error. */
export type ConnectorOutcome = { response: JsonValue; account?: string } | { error: ConnectorErrorBody };

/**
 * Runs one `connectors__<connector>__<tool>` entry against the hosted gateway. The connectors
 * module implements it; the bridge reaches it only through the ToolExecutor (see
 * `routeConnectorCalls`), so every entry passes the same approval path as a local tool.
 */
export interface ConnectorBackend {
  execute(
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<ConnectorOutcome>;
}

/**
 * The connector legs of `tool_search` and `tool_describe` (reference §4.3, §4.4): one gateway
 * request per bridge call. `gatewayConnectorLegs(client)` builds them over the real gateway
 * client; a failed leg answers with a `status`, it never throws (only the caller's abort does).
 */
export interface ConnectorLegs {
  /** Connector documents per query (1–7 queries, one request), or the status of a failed leg. */
  search(queries: readonly string[], options: { signal?: AbortSignal }): Promise<ConnectorSearchLeg>;
  /** Schemas for `connectors__` names (one request), misses, or the status of a failed leg. */
  describe(names: readonly string[], options: { signal?: AbortSignal }): Promise<ConnectorDescribeLeg>;
}

// The connector legs' records: the bridge declares them, the gateway adapter (connectors/) fills them.

/** One connector tool as a search document; an `IndexEntry` the engine takes as is. */
export interface ConnectorDocument extends IndexEntry {
  /** `connectors__<connector>__<tool>`. */
  name: string;
  description: string;
  inputSchema: JsonObject | undefined;
  /** The connector as the gateway spelled it (the group label, reference `source_name`). */
  server: string;
  /** The vendor slug this name stands for in this search. */
  slug: string;
}

/** What the bridge adds as `connectors` beside local results when the gateway leg failed. */
export type ConnectorsStatus =
  | { status: 'unavailable'; reason: 'unreachable' | 'sign_in_expired'; hint: string; names?: string[] }
  | { status: 'not_set_up'; hint: string; names?: string[] };

export interface ConnectorSearchLeg {
  /** One list per query, in query order (empty lists when the leg failed or is dark). */
  documents: ConnectorDocument[][];
  /** Present when the leg failed in a way the agent should hear about. */
  status?: ConnectorsStatus;
}

/** A connector tool's schema as `tool_describe` shows it. */
export interface ConnectorDescription {
  name: string;
  description: string;
  /** The input schema, `{}` when the gateway has none. */
  inputSchema: JsonObject;
  /** The connector as the gateway spelled it. */
  server: string;
  slug: string;
}

export interface ConnectorDescribeLeg {
  /** Described names, in request order. */
  tools: ConnectorDescription[];
  /** Names the gateway does not know (malformed and misnamed ones included). Empty when the leg failed. */
  notFound: string[];
  /** Names that reach a tool the gateway names differently: name → the tool's exact name. */
  misnamed?: Record<string, string>;
  /** Present when the leg failed in a way the agent should hear about; `names` are the unanswered ones. */
  status?: ConnectorsStatus;
}
