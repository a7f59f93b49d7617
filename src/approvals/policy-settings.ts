import type { PolicyConfig, PolicyKey, PolicyRule, ServerPolicy } from './policy.js';
import { CONNECTOR_NAME_PREFIX, MCP_NAME_PREFIX } from './tool-key.js';
import type { Policy } from './types.js';

/**
 * The policy part of the settings file (`policies` in approvals/settings.ts), with its `rules`:
 * "always allow" rules bound to a definition hash, and per-tool `redactOutbound`.
 */
export interface PolicySettingsLike {
  default: Policy;
  /** MCP server id → the fallback for that server's tools. */
  servers: Record<string, Policy>;
  /** Connector app id → the fallback for that app's tools (apart from a server of the same id). */
  connectors: Record<string, Policy>;
  /** Agent-facing tool name → policy for that tool. */
  tools: Record<string, Policy>;
  rules?: readonly PolicyRule[];
}

export interface ServerSettingsLike {
  id: string;
  /** "Trust read-only tools of this server". */
  trusted?: boolean;
}

/**
 * Builds the policy config the gate reads from the settings document. Tool names are split into
 * keys with the configured server ids; a name two ids could claim (`mcp__a__b__c` with servers
 * `a` and `a__b`) yields a deny or ask rule for both readings and no allow rule at all.
 */
export function policyConfigFromSettings(
  policies: PolicySettingsLike,
  servers: readonly ServerSettingsLike[],
): PolicyConfig {
  const serverPolicies: Record<string, ServerPolicy> = {};
  for (const server of servers) {
    if (server.trusted === true) serverPolicies[server.id] = { trusted: true };
  }
  for (const [serverId, policy] of Object.entries(policies.servers)) {
    serverPolicies[serverId] = { ...serverPolicies[serverId], policy };
  }
  const connectorPolicies: Record<string, ServerPolicy> = {};
  for (const [connector, policy] of Object.entries(policies.connectors))
    connectorPolicies[connector] = { policy };
  const serverIds = servers.map((server) => server.id);
  const rules: PolicyRule[] = [];
  for (const [name, policy] of Object.entries(policies.tools)) {
    const keys = keysForName(name, serverIds);
    if (policy === 'allow' && keys.length !== 1) continue;
    for (const key of keys) rules.push({ ...key, policy });
  }
  rules.push(...(policies.rules ?? []));
  return { defaultPolicy: policies.default, servers: serverPolicies, connectors: connectorPolicies, rules };
}

/** Every (server, tool) reading of an agent-facing name. Connector ids never contain `__`. */
export function keysForName(name: string, serverIds: readonly string[]): PolicyKey[] {
  if (name.startsWith(CONNECTOR_NAME_PREFIX)) {
    const rest = name.slice(CONNECTOR_NAME_PREFIX.length);
    const split = rest.indexOf('__');
    return split > 0 && split + 2 < rest.length
      ? [{ toolKind: 'connectors', serverId: rest.slice(0, split), toolName: rest.slice(split + 2) }]
      : [];
  }
  if (!name.startsWith(MCP_NAME_PREFIX)) return [];
  const rest = name.slice(MCP_NAME_PREFIX.length);
  const keys = serverIds
    .filter((id) => rest.startsWith(`${id}__`) && rest.length > id.length + 2)
    .map((id): PolicyKey => ({ toolKind: 'mcp', serverId: id, toolName: rest.slice(id.length + 2) }));
  if (keys.length > 0) return keys;
  // A server that is not configured (any more): read up to the first `__`.
  const split = rest.indexOf('__');
  return split > 0 && split + 2 < rest.length
    ? [{ toolKind: 'mcp', serverId: rest.slice(0, split), toolName: rest.slice(split + 2) }]
    : [];
}
