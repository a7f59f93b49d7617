import { definitionHash } from '../approvals/definition-hash.js';
import type { DefinitionReviews, ReviewedDefinition } from '../approvals/definition-reviews.js';
import { ambiguousServerId } from '../base/server-id.js';
import { type BridgeSurface, createAgentSurface } from '../bridge/agent-surface.js';
import type { ToolExecutor } from '../bridge/types.js';
import {
  type ClassifiedCatalog,
  classifyEntries,
  entriesFromServers,
  nameCollisions,
} from '../catalog/catalog.js';
import { toIndexEntry } from '../catalog/index-entry.js';
import type { UnavailableServer } from '../catalog/listing.js';
import { mcpToolName, needsTasksMessage } from '../catalog/naming.js';
import { planToolSurface, type ToolSurfacePlan } from '../catalog/tool-surface.js';
import type { CatalogEntry, ServerTools, ToolDefinition } from '../catalog/types.js';
import { createToolIndex } from '../search/index.js';
import type { ToolIndex } from '../search/types.js';
import type { ServerSnapshot } from '../servers/types.js';
import type { ConnectorParts } from './host-connectors.js';
import type { Settings } from './settings-document.js';

/** What the catalog is built from; read fresh after every invalidate(). */
export interface CatalogInputs {
  servers: readonly ServerSnapshot[];
  settings: Settings;
  /** `manage_connections`, plus the search legs while a connector gateway is configured. */
  connectors?: ConnectorParts;
  /** The reviewed definitions: a tool whose definition changed since is held from agents. */
  reviews?: Pick<DefinitionReviews, 'heldAgainst'>;
}

/**
 * The catalog as the agents see it, rebuilt from the live tool definitions whenever anything
 * changes (design: stateless, cheap). Everything is computed lazily and dropped on
 * `invalidate()`: entries, the shared search index, one plan and surface per context length.
 */
export class HostCatalog {
  private cache: Built | undefined;

  constructor(
    private readonly inputs: () => CatalogInputs,
    private readonly executor: ToolExecutor,
  ) {}

  invalidate(): void {
    this.cache = undefined;
  }

  /** Every tool the servers offer, or offered before going down, disabled ones included, in server then tool order. */
  get entries(): readonly CatalogEntry[] {
    return this.built().all;
  }

  /** Enabled tools of connected servers, split into pinned and deferrable. */
  get classified(): ClassifiedCatalog {
    return this.built().classified;
  }

  get unavailableServers(): readonly UnavailableServer[] {
    return this.built().unavailable;
  }

  entry(name: string): CatalogEntry | undefined {
    return this.built().byName.get(name);
  }

  /** Why this server's tools (or some of them) are named for no agent, in words; undefined when all are. */
  nameProblem(serverId: string): string | undefined {
    return this.built().nameProblems.get(serverId);
  }

  /** The tool's definition as its server lists it now. */
  definition(name: string): ToolDefinition | undefined {
    return this.built().definitions.get(name);
  }

  /** The reviewed definition a changed tool is held against (undefined: not held). */
  heldAgainst(name: string): ReviewedDefinition | undefined {
    return this.built().held.get(name);
  }

  /** The hash approvals bind to: the tool's current definition as its server lists it. */
  definitionHash(name: string): string {
    const built = this.built();
    let hash = built.hashes.get(name);
    if (hash === undefined) {
      const definition = built.definitions.get(name);
      hash = definition === undefined ? '' : definitionHash(definition);
      built.hashes.set(name, hash);
    }
    return hash;
  }

  plan(contextLengthTokens: number): ToolSurfacePlan {
    return this.perContext(contextLengthTokens).plan;
  }

  surface(contextLengthTokens: number): BridgeSurface {
    return this.perContext(contextLengthTokens).surface;
  }

  /** The search index over the deferred tools, shared by every agent. */
  index(): ToolIndex {
    const built = this.built();
    built.index ??= createToolIndex(built.classified.deferrable.map(toIndexEntry));
    return built.index;
  }

  private perContext(contextLengthTokens: number): PerContext {
    const built = this.built();
    let found = built.contexts.get(contextLengthTokens);
    if (found === undefined) {
      const { settings, connectors } = built;
      const gateway = connectors?.gateway;
      const plan = planToolSurface(built.classified, {
        settings: settings.toolSearch,
        contextLengthTokens,
        unavailable: built.unavailable,
        // The bridge opens for connector tools alone only when a gateway can supply them.
        manageConnections: gateway !== undefined,
      });
      const surface = createAgentSurface({
        plan,
        settings: settings.toolSearch,
        maxResultBytes: settings.maxResultBytes,
        executor: this.executor,
        ...(connectors === undefined ? {} : { manageConnections: connectors.manageConnections }),
        connectorsInScope: gateway !== undefined,
        ...(gateway === undefined ? {} : { connectors: gateway.legs }),
        unavailableServers: built.unavailable,
        unavailableNames: built.disabled,
        heldNames: [...built.held.keys()],
        unsupported: built.unsupported,
        serverInstructions: built.instructions,
        // The deferred set does not depend on the context length, so one index serves all.
        index: plan.activated ? this.index() : undefined,
      });
      found = { plan, surface };
      built.contexts.set(contextLengthTokens, found);
    }
    return found;
  }

  private built(): Built {
    if (this.cache !== undefined) return this.cache;
    const { servers, settings, connectors, reviews } = this.inputs();
    // A server kept from older settings under an id that makes names ambiguous (`x__y`) names no
    // tool until it is renamed; what its names would clash with is shown on the server.
    const tools = servers.map((server) => ({ serverId: server.id, tools: server.tools }));
    const named = tools.filter((server) => ambiguousServerId(server.serverId) === undefined);
    const all = entriesFromServers(named);
    // A server that is down keeps its last tools for the UI, but agents see it as unavailable
    // until it is back: calls to it would only fail, and its return is a list change they hear of.
    const live = new Set(
      servers.filter((server) => server.status === 'connected').map((server) => server.id),
    );
    const pinned: string[] = [];
    const disabled: string[] = [];
    for (const [name, choice] of Object.entries(settings.tools)) {
      if (choice.pinned === true) pinned.push(name);
      if (choice.enabled === false) disabled.push(name);
    }
    const definitions = new Map<string, ToolDefinition>();
    const hashes = new Map<string, string>();
    const held = new Map<string, ReviewedDefinition>();
    const unsupported = new Map<string, string>();
    for (const server of servers) {
      for (const tool of server.tools) {
        const name = mcpToolName(server.id, tool.name);
        definitions.set(name, tool);
        if (tool.execution?.taskSupport === 'required') unsupported.set(name, needsTasksMessage(name));
        if (reviews === undefined) continue;
        const hash = definitionHash(tool);
        hashes.set(name, hash);
        const reviewed = reviews.heldAgainst({ serverId: server.id, toolName: tool.name }, hash);
        if (reviewed !== undefined) held.set(name, reviewed);
      }
    }
    this.cache = {
      nameProblems: withTasksNotes(nameProblems(tools), tools),
      settings,
      connectors,
      all,
      byName: new Map(all.map((entry) => [entry.name, entry])),
      classified: classifyEntries(
        all.filter((entry) => live.has(entry.serverId)),
        // A held tool is out of search, describe, the listing and the pins until reviewed; one
        // that needs tasks for good.
        { pinned, disabled: [...disabled, ...held.keys(), ...unsupported.keys()] },
      ),
      unsupported,
      instructions: serverInstructions(servers, settings),
      disabled: disabled.filter((name) => definitions.has(name)),
      held,
      unavailable: unavailableServers(servers),
      definitions,
      hashes,
      contexts: new Map(),
    };
    return this.cache;
  }
}

interface PerContext {
  plan: ToolSurfacePlan;
  surface: BridgeSurface;
}

interface Built {
  /** Per server id: why some of its tools have no name agents can call (see `nameProblems`). */
  nameProblems: Map<string, string>;
  settings: Settings;
  connectors: CatalogInputs['connectors'];
  all: CatalogEntry[];
  byName: Map<string, CatalogEntry>;
  classified: ClassifiedCatalog;
  disabled: string[];
  held: Map<string, ReviewedDefinition>;
  /** Tools Toolbridge cannot run (they require MCP tasks), with what the agent is told. */
  unsupported: Map<string, string>;
  /** Server id → instructions, of connected servers agents see (not denied, names not ambiguous). */
  instructions: Map<string, string>;
  unavailable: UnavailableServer[];
  definitions: Map<string, ToolDefinition>;
  hashes: Map<string, string>;
  contexts: Map<number, PerContext>;
  index?: ToolIndex;
}

const REASONS: Partial<Record<ServerSnapshot['status'], string>> = {
  starting: 'the server is still starting; try again in a moment',
  error: 'the server is not running; the user can fix it in Toolbridge under Servers',
  'needs-auth': 'the server needs the user to sign in; they can do it in Toolbridge under Servers',
};

/** Enabled servers that are not connected: the agent is told they exist and why they are silent. */
function unavailableServers(servers: readonly ServerSnapshot[]): UnavailableServer[] {
  const result: UnavailableServer[] = [];
  for (const server of servers) {
    const reason =
      ambiguousServerId(server.id) === undefined
        ? REASONS[server.status]
        : 'its id makes tool names ambiguous; the user can rename it in Toolbridge under Servers';
    if (reason === undefined || !server.config.enabled) continue;
    result.push({ serverId: server.id, toolCount: server.tools.length, reason });
  }
  return result;
}

/** The instructions of the connected servers whose tools agents may call, in server order. */
function serverInstructions(servers: readonly ServerSnapshot[], settings: Settings): Map<string, string> {
  const instructions = new Map<string, string>();
  for (const server of servers) {
    const text = server.features?.instructions;
    if (text === undefined || server.status !== 'connected' || ambiguousServerId(server.id) !== undefined)
      continue;
    if (settings.policies.servers[server.id] === 'deny') continue;
    instructions.set(server.id, text);
  }
  return instructions;
}

/** Adds, per server, which of its tools agents do not see because they require MCP tasks. */
function withTasksNotes(problems: Map<string, string>, servers: readonly ServerTools[]): Map<string, string> {
  for (const server of servers) {
    const needTasks = server.tools.filter((tool) => tool.execution?.taskSupport === 'required');
    if (needTasks.length === 0) continue;
    const names = needTasks.map((tool) => `"${tool.name}"`).join(', ');
    const note = `Agents do not see ${names}: ${needTasks.length === 1 ? 'it runs' : 'they run'} only as MCP tasks (execution.taskSupport "required"), which Toolbridge does not support yet.`;
    const before = problems.get(server.serverId);
    problems.set(server.serverId, before === undefined ? note : `${before} ${note}`);
  }
  return problems;
}

/**
 * What keeps tools from having a name agents can call, per server: an id that makes names
 * ambiguous (and which names it would clash on), or a name two servers' tools would share.
 */
function nameProblems(servers: readonly ServerTools[]): Map<string, string> {
  const problems = new Map<string, string>();
  const everyClash = nameCollisions(servers);
  // Flagged servers name nothing, so among the others only clashes between themselves count.
  const namedClash = nameCollisions(
    servers.filter((server) => ambiguousServerId(server.serverId) === undefined),
  );
  for (const server of servers) {
    const ambiguous = ambiguousServerId(server.serverId);
    const shared = [...(ambiguous === undefined ? namedClash : everyClash)]
      .filter(([, claimants]) => claimants.some((claimant) => claimant.serverId === server.serverId))
      .map(([name, claimants]) => {
        const others = claimants
          .filter((claimant) => claimant.serverId !== server.serverId)
          .map((claimant) => `server "${claimant.serverId}" tool "${claimant.toolName}"`);
        return `${name} (also ${others.join(', ')})`;
      });
    const clash = shared.length === 0 ? '' : ` Names it shares with other tools: ${shared.join('; ')}.`;
    if (ambiguous !== undefined) {
      problems.set(server.serverId, `${ambiguous} Until then agents see none of its tools.${clash}`);
    } else if (shared.length > 0) {
      problems.set(server.serverId, `Some of its tools have no name agents can call.${clash}`);
    }
  }
  return problems;
}
