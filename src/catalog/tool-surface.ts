import type { JsonObject } from '../base/json.js';
import { type ClassifiedCatalog, copyPresentation } from './catalog.js';
import { assignDirectNames, type DirectNames } from './direct-names.js';
import { buildListing, type Listing, type ListingAlgorithm, type UnavailableServer } from './listing.js';
import { estimateToolTokens } from './tokens.js';
import type { ToolSearchSettings } from './tool-search-config.js';
import type { CatalogEntry, ListingForm, ToolPresentation } from './types.js';

/** The percentage leg of the budget when the agent's context length is unknown (reference §2.3). */
export const UNKNOWN_CONTEXT_BUDGET_TOKENS = 10_000;

/**
 * The listing budget: `max(0, min(listingMaxTokens, floor(context × thresholdPct / 100)))`; an
 * unknown or non-positive context length uses 10,000 tokens for the percentage leg.
 * 200 K context → 4,000 with the defaults; 40 K → 2,000; unknown → 4,000.
 */
export function listingBudget(
  settings: Pick<ToolSearchSettings, 'thresholdPct' | 'listingMaxTokens'>,
  contextLengthTokens?: number,
): number {
  const percentLeg =
    contextLengthTokens !== undefined && contextLengthTokens > 0
      ? Math.floor((contextLengthTokens * settings.thresholdPct) / 100)
      : UNKNOWN_CONTEXT_BUDGET_TOKENS;
  return Math.max(0, Math.min(settings.listingMaxTokens, percentLeg));
}

/** A tool definition as the agent receives it (the MCP `Tool` shape, without SDK types). */
export interface ToolDefinitionShape extends Omit<ToolPresentation, 'outputSchema'> {
  name: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema?: JsonObject & { type: 'object' };
}

/**
 * The definition of a catalog tool under a given name, with every field its server listed
 * (title, outputSchema, annotations, icons, _meta). MCP requires an object input schema, so a
 * missing one becomes `{ type: 'object' }`.
 */
export function toolDefinition(entry: CatalogEntry, name: string = entry.name): ToolDefinitionShape {
  const definition: ToolDefinitionShape = {
    name,
    description: entry.description,
    inputSchema: { ...entry.inputSchema, type: 'object' },
  };
  const { outputSchema, ...presentation } = entry;
  copyPresentation(presentation, definition);
  // Servers' listings are checked on arrival: an output schema is an object schema.
  if (outputSchema !== undefined) definition.outputSchema = { ...outputSchema, type: 'object' };
  return definition;
}

export interface ToolSurfaceOptions {
  settings: ToolSearchSettings;
  /** The agent's context window; unknown or ≤ 0 uses the fixed 10,000-token leg. */
  contextLengthTokens?: number;
  /** `manage_connections` is in the session: the bridge is offered even with nothing deferred. */
  manageConnections?: boolean;
  /** @defaultValue `'toolbridge'` */
  listingAlgorithm?: ListingAlgorithm;
  /** Configured servers that are down, shown as one line each in the listing. */
  unavailable?: readonly UnavailableServer[];
}

/**
 * A tool listed directly, under the name the agent sees: its real name, or an alias when that
 * is not a valid direct tool name (see direct-names.ts). Same shape as the bridge's PinnedTool.
 */
export interface DirectEntry {
  entry: CatalogEntry;
  directName: string;
}

/**
 * What the agent gets for one catalog, settings and context length, plus the observability
 * record of the reference (activated, deferred count and tokens, budget, tier, form).
 */
export interface ToolSurfacePlan {
  /** The bridge (tool_search, tool_describe, tool_call) is listed. */
  activated: boolean;
  /** 0: pass-through. 1: bridge + a listing that names tools (full, names, mixed). 2: bridge + server summaries or no listing. */
  tier: 0 | 1 | 2;
  form: ListingForm;
  /** The listing budget (the reference's threshold_tokens). */
  budgetTokens: number;
  listing: Listing;
  /** Tools behind the bridge (empty when not activated). */
  deferred: CatalogEntry[];
  deferredCount: number;
  /** What the deferred tools' definitions would cost if they were listed directly. */
  deferredTokens: number;
  /** Tools listed directly, in catalog order: the pins, or every tool when tool search is off. */
  direct: DirectEntry[];
  directNames: DirectNames;
}

/** Tier 1 when the listing names tools, tier 2 when it only names servers or is absent. */
export function tierOf(form: ListingForm): 1 | 2 {
  return form === 'full' || form === 'names' || form === 'mixed' ? 1 : 2;
}

const NO_LISTING: Listing = { form: 'none', text: null, tokens: 0, groups: [] };

/**
 * Decides what the agent sees (reference §2.2). Tool search `off`: every tool direct, tier 0.
 * Otherwise the bridge activates iff at least one tool defers, or nothing defers but
 * `manage_connections` is present (tier 2, count 0, no listing). With the bridge active the
 * listing is built within the budget (`listing: off` → none); its form sets the tier.
 */
export function planToolSurface(catalog: ClassifiedCatalog, options: ToolSurfaceOptions): ToolSurfacePlan {
  const { settings } = options;
  const budgetTokens = listingBudget(settings, options.contextLengthTokens);
  const off = settings.enabled === 'off';
  const activated = !off && (catalog.deferrable.length > 0 || options.manageConnections === true);
  const deferred = activated ? catalog.deferrable : [];
  const directEntries = off ? catalog.entries : catalog.pinned;
  const directNames = assignDirectNames(directEntries.map((entry) => entry.name));
  const direct = directEntries.map((entry) => ({ entry, directName: directNames.toDirect(entry.name)! }));

  let listing = NO_LISTING;
  if (deferred.length > 0 && settings.listing !== 'off') {
    listing = buildListing(deferred, {
      budgetTokens,
      algorithm: options.listingAlgorithm ?? 'toolbridge',
      unavailable: options.unavailable ?? [],
    });
  }
  return {
    activated,
    tier: activated ? tierOf(listing.form) : 0,
    form: listing.form,
    budgetTokens,
    listing,
    deferred,
    deferredCount: deferred.length,
    deferredTokens: estimateToolTokens(deferred.map((entry) => toolDefinition(entry))),
    direct,
    directNames,
  };
}
