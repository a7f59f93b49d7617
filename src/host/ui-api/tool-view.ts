import { DEFAULT_CONTEXT_LENGTH_TOKENS } from '../../agents/agent-registry.js';
import type { ToolDefinitionView, ToolView } from '../../api/ui-api.js';
import { approvalHash } from '../../approvals/definition-hash.js';
import type { PolicyKey } from '../../approvals/policy.js';
import { toolPolicyView } from '../../approvals/policy-view.js';
import { toolKindOf } from '../../approvals/tool-key.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { JsonObject } from '../../base/json.js';
import { findSuspicious } from '../../base/suspicious-text.js';
import type { CatalogEntry, ToolDefinition } from '../../catalog/types.js';
import type { HostCatalog } from '../host-catalog.js';
import type { HostParts } from '../host-parts.js';

/** What a tool's row in the UI is built from (the tools, policies and reviews slices share it). */
export type ToolViewParts = Pick<HostParts, 'catalog' | 'settings' | 'approvals' | 'policyOverride'>;

/** The catalog's tool by its agent-facing name, or NOT_FOUND saying how to find the names. */
export function requireTool(catalog: Pick<HostCatalog, 'entry'>, name: string): CatalogEntry {
  const entry = typeof name === 'string' ? catalog.entry(name) : undefined;
  if (entry === undefined) {
    throw new ToolbridgeError('NOT_FOUND', `No tool "${String(name)}". List the tools to see the names.`);
  }
  return entry;
}

/** One tool as the UI lists it: choices, tier placement, effective policy and any held change. */
export function toolView(parts: ToolViewParts, name: string): ToolView {
  const { catalog, settings, approvals, policyOverride } = parts;
  const entry = requireTool(catalog, name);
  const current = settings.current;
  const choice = current.tools[name] ?? {};
  const suspicious = findSuspicious(entry.description);
  // Keyed as the gate keys it: the kind from the agent-facing name.
  const key: PolicyKey = {
    toolKind: toolKindOf(name) ?? 'mcp',
    serverId: entry.serverId,
    toolName: entry.toolName,
  };
  const decision = approvals.decide({
    ...key,
    definitionHash: approvalHash(entry, (name) => catalog.definitionHash(name)),
    annotations: entry.annotations,
    ...(suspicious.length > 0 ? { suspicious: true } : {}),
  });
  const plan = catalog.plan(DEFAULT_CONTEXT_LENGTH_TOKENS);
  const view: ToolView = {
    name,
    serverId: entry.serverId,
    toolName: entry.toolName,
    description: entry.description,
    enabled: choice.enabled !== false,
    pinned: choice.pinned === true,
    deferred: plan.deferred.some((deferred) => deferred.name === name),
    policy: toolPolicyView(key, decision, current.policies.tools[name], policyOverride.value !== undefined),
  };
  if (entry.inputSchema !== undefined) view.inputSchema = entry.inputSchema;
  if (suspicious.length > 0) view.suspicious = suspicious;
  const directName = plan.directNames.toDirect(name);
  if (directName !== undefined && directName !== name) view.directName = directName;
  if (entry.annotations?.readOnlyHint !== undefined) view.readOnlyHint = entry.annotations.readOnlyHint;
  const reviewed = catalog.heldAgainst(name);
  const definition = catalog.definition(name);
  if (reviewed !== undefined && definition !== undefined) {
    view.change = {
      reviewed: definitionView(reviewed.definition),
      reviewedAt: reviewed.reviewedAt,
      current: definitionView(definition),
    };
  }
  return view;
}

/** The parts of a definition the person reviews, as the UI shows them. */
function definitionView(definition: ToolDefinition): ToolDefinitionView {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(inputSchema === undefined ? {} : { inputSchema }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations: annotations as JsonObject }),
  };
}
