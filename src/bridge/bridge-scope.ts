import { toIndexEntry } from '../catalog/index-entry.js';
import { BRIDGE_TOOL_NAMES } from '../catalog/naming.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS, MAX_SEARCH_LIMIT_RANGE } from '../catalog/tool-search-config.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { IndexEntry, ToolIndex } from '../search/types.js';
import type { ArgumentValidator } from './argument-validator.js';
import type { BridgeCatalog, ConnectorLegs, ToolExecutor } from './types.js';

/** `limit` bounds for tool_search (reference §2.5: `search_default_limit`, `max_search_limit`). */
export interface SearchLimits {
  /** Used when the agent sends no limit. @defaultValue 5 */
  defaultLimit: number;
  /** The most names one query may return; at most 50. @defaultValue 25 */
  maxLimit: number;
}

export const DEFAULT_SEARCH_LIMITS: Readonly<SearchLimits> = Object.freeze({
  defaultLimit: DEFAULT_TOOL_SEARCH_SETTINGS.searchDefaultLimit,
  maxLimit: DEFAULT_TOOL_SEARCH_SETTINGS.maxSearchLimit,
});
const HARD_MAX_LIMIT = MAX_SEARCH_LIMIT_RANGE[1];

/**
 * Everything the three bridge handlers read for one agent session. Built once per catalog
 * change; lookups are computed on first use, so building one costs next to nothing.
 */
export interface BridgeScope {
  readonly catalog: BridgeCatalog;
  readonly executor: ToolExecutor;
  readonly validator: ArgumentValidator;
  readonly limits: SearchLimits;
  /** `manage_connections` is in this session, so `connectors__` names may be called. */
  readonly connectorsInScope: boolean;
  /** The gateway legs of search and describe; only when connectors are in scope. */
  readonly connectors: ConnectorLegs | undefined;
  /** Deferred tools by exact name, in catalog order. */
  deferred(): ReadonlyMap<string, CatalogEntry>;
  /** The search index over the deferred tools. */
  index(): ToolIndex;
  /**
   * The shared index extended by `extra` (one query's connector documents), so both are ranked as
   * one corpus (reference §4.3) at a cost that follows the extras, not the catalog.
   */
  indexWith(extra: readonly IndexEntry[]): ToolIndex;
  /**
   * When `name` is a tool the agent sees directly (pinned, manage_connections, a bridge tool),
   * the name to call it by. Matching ignores case, surrounding space and `-`/space vs `_`.
   */
  directName(name: string): string | undefined;
  /** The host knows the name but this session cannot call it. */
  isUnavailable(name: string): boolean;
  /** The tool changed since the person reviewed it and is held until they do. */
  isHeld(name: string): boolean;
  /** Why Toolbridge cannot run this tool at all (see BridgeCatalog.unsupported), or undefined. */
  unsupportedReason(name: string): string | undefined;
  /** Every callable tool's real name, for "did you mean" suggestions. */
  knownNames(): readonly string[];
}

export interface BridgeScopeOptions {
  catalog: BridgeCatalog;
  executor: ToolExecutor;
  validator: ArgumentValidator;
  /** Builds an index over engine entries: the deferred tools, or them plus connector documents. */
  createIndex: (entries: readonly IndexEntry[]) => ToolIndex;
  /** A prebuilt index over the deferred tools (shared between agents); else built on first use. */
  index?: ToolIndex;
  limits?: Partial<SearchLimits>;
  /** Direct tools besides pinned and bridge ones (today: manage_connections). */
  extraDirectNames?: readonly string[];
  connectorsInScope?: boolean;
  /** Used only when `connectorsInScope`. */
  connectors?: ConnectorLegs;
}

export function createBridgeScope(options: BridgeScopeOptions): BridgeScope {
  const { catalog } = options;
  const maxLimit = clampInteger(
    options.limits?.maxLimit ?? DEFAULT_SEARCH_LIMITS.maxLimit,
    1,
    HARD_MAX_LIMIT,
  );
  const limits: SearchLimits = {
    maxLimit,
    defaultLimit: clampInteger(
      options.limits?.defaultLimit ?? DEFAULT_SEARCH_LIMITS.defaultLimit,
      1,
      maxLimit,
    ),
  };

  let deferred: Map<string, CatalogEntry> | undefined;
  let indexEntries: IndexEntry[] | undefined;
  let index: ToolIndex | undefined = options.index;
  let direct: Map<string, string> | undefined;
  let unavailable: Set<string> | undefined;
  let held: Set<string> | undefined;
  let known: string[] | undefined;
  const connectorsInScope = options.connectorsInScope ?? false;
  const localEntries = () => {
    indexEntries ??= catalog.deferred.map(toIndexEntry);
    return indexEntries;
  };

  return {
    catalog,
    executor: options.executor,
    validator: options.validator,
    limits,
    connectorsInScope,
    connectors: connectorsInScope ? options.connectors : undefined,
    deferred() {
      deferred ??= new Map(catalog.deferred.map((entry) => [entry.name, entry]));
      return deferred;
    },
    index() {
      index ??= options.createIndex(localEntries());
      return index;
    },
    indexWith(extra) {
      return this.index().extend?.(extra) ?? options.createIndex([...localEntries(), ...extra]);
    },
    directName(name) {
      if (direct === undefined) {
        direct = new Map();
        for (const pinned of catalog.pinned) {
          direct.set(normalizeToolName(pinned.directName), pinned.directName);
          direct.set(normalizeToolName(pinned.entry.name), pinned.directName);
        }
        for (const extra of [...(options.extraDirectNames ?? []), ...BRIDGE_TOOL_NAMES]) {
          direct.set(normalizeToolName(extra), extra);
        }
      }
      return direct.get(normalizeToolName(name));
    },
    isUnavailable(name) {
      unavailable ??= new Set(catalog.unavailableNames ?? []);
      return unavailable.has(name);
    },
    isHeld(name) {
      held ??= new Set(catalog.heldNames ?? []);
      return held.has(name);
    },
    unsupportedReason(name) {
      return catalog.unsupported?.get(name);
    },
    knownNames() {
      known ??= [
        ...catalog.deferred.map((entry) => entry.name),
        ...catalog.pinned.map((pinned) => pinned.entry.name),
      ];
      return known;
    },
  };
}

/** How names are compared when deciding whether a name is a directly-listed tool (reference §3.4). */
export function normalizeToolName(name: string): string {
  return name.trim().toLowerCase().replace(/[- ]/g, '_');
}

function clampInteger(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.trunc(value))) : min;
}
