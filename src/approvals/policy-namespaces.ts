/**
 * MCP servers and connector apps are two namespaces: a server may be called `github` while the
 * gateway has a `github` app. Policies keep them apart (`toolKind` on rules, `policies.servers`
 * for MCP servers and `policies.connectors` for apps). Settings written before that kept one
 * namespace; this reads them without losing what they said. Pure.
 */
import { connectorApprovalHash } from './definition-hash.js';
import { agentFacingName, type ToolKind } from './tool-key.js';

/** What an older rule says about itself. */
export interface UnkindedRule {
  serverId: string;
  toolName?: string;
  definitionHash?: string;
  account?: unknown;
}

/**
 * The namespaces an older rule without `toolKind` was about. An account, or an approval bound to
 * a connector tool's name, says "connector app"; a definition bound to a local tool says "MCP
 * server". Otherwise its id decides: the id of a configured MCP server means that server (the UI
 * only ever set such a rule for it; covering the same-named app too was the defect); any other id
 * held for both (a server added later, or an app), and still does, as two rules.
 */
export function ruleToolKinds(rule: UnkindedRule, mcpServerIds: ReadonlySet<string>): ToolKind[] {
  if (rule.account !== undefined) return ['connectors'];
  if (rule.definitionHash !== undefined && rule.toolName !== undefined) {
    const name = agentFacingName('connectors', { serverId: rule.serverId, toolName: rule.toolName });
    return [rule.definitionHash === connectorApprovalHash(name) ? 'connectors' : 'mcp'];
  }
  return serverPolicyKinds(rule.serverId, mcpServerIds);
}

/** Where an older `policies.servers` entry (one written before `policies.connectors`) holds: as for a rule without tool or hash. */
export function serverPolicyKinds(id: string, mcpServerIds: ReadonlySet<string>): ToolKind[] {
  return mcpServerIds.has(id) ? ['mcp'] : ['mcp', 'connectors'];
}

/** The ids of the MCP servers a raw settings document configures (unchecked input). */
export function rawMcpServerIds(raw: Record<string, unknown>): Set<string> {
  const servers = Array.isArray(raw.servers) ? raw.servers : [];
  return new Set(
    servers.flatMap((server: unknown) =>
      typeof server === 'object' && server !== null && typeof (server as { id?: unknown }).id === 'string'
        ? [(server as { id: string }).id]
        : [],
    ),
  );
}
