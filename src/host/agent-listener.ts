/**
 * The host's HTTP side: the loopback listener and the agent endpoint on it (Streamable HTTP at
 * /mcp, legacy SSE beside it). The web UI mounts its routes on the same listener.
 */
import { AgentEndpoint, LEGACY_MESSAGES_PATH } from '../agents/agent-endpoint.js';
import type { AgentRegistry } from '../agents/agent-registry.js';
import { type ListenerLimits, LoopbackServer } from '../agents/loopback-server.js';
import type { SurfaceProvider } from '../agents/mcp-session.js';
import type { UpstreamRelay } from '../agents/upstream-relay.js';
import type { Event } from '../base/emitter.js';
import type { DisposableStore } from '../base/lifecycle.js';

export interface AgentListenerOptions {
  bindAddress?: string;
  port?: number;
  unsafeAllowNonLoopback?: boolean;
  listenerLimits?: Partial<ListenerLimits>;
  log: (line: string) => void;
}

export interface AgentListener {
  http: LoopbackServer;
  endpoint: AgentEndpoint;
}

/**
 * Listens on loopback (see HostOptions for the options' defaults) with the agent endpoint routed;
 * both are added to `store`. The endpoint tells its agents when their tools change and closes a
 * revoked agent's sessions.
 */
export async function openAgentListener(
  options: AgentListenerOptions,
  parts: {
    agents: AgentRegistry;
    surfaces: SurfaceProvider;
    relay: UpstreamRelay;
    onDidChangeAgentTools: Event<void>;
    store: DisposableStore;
  },
): Promise<AgentListener> {
  const http = new LoopbackServer({
    host: options.bindAddress ?? '127.0.0.1',
    port: options.port ?? 0,
    ...(options.unsafeAllowNonLoopback ? { unsafeAllowNonLoopback: true } : {}),
    ...(options.listenerLimits === undefined ? {} : { limits: options.listenerLimits }),
    log: options.log,
  });
  const endpoint = new AgentEndpoint({ agents: parts.agents, surfaces: parts.surfaces, relay: parts.relay });
  http.route('/mcp', endpoint.handle);
  // Legacy SSE (protocol 2024-11-05) for clients that predate Streamable HTTP.
  http.route('/sse', endpoint.handleLegacyStream);
  http.route(LEGACY_MESSAGES_PATH, endpoint.handleLegacyMessage);
  await http.listen();
  parts.store.add(http);
  parts.store.add(endpoint);
  parts.store.add(parts.onDidChangeAgentTools(() => endpoint.notifyToolsChanged()));
  parts.store.add(parts.agents.onDidRevokeAgent((id) => void endpoint.closeAgentSessions(id)));
  return { http, endpoint };
}
