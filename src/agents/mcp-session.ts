import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { AgentSurface } from '../bridge/types.js';
import { agentCallPeer, progressRelay } from './agent-peer.js';
import { RELAY_CAPABILITIES, type UpstreamRelay } from './upstream-relay.js';

/** Returns the surface for an agent as it is now; called on every request so changes show at once. */
export type SurfaceProvider = (agentId: string) => AgentSurface;

export const SERVER_INFO = { name: 'toolbridge', version: '0.1.0' } as const;

/**
 * Everything the agent endpoint declares, in one place: tools, plus what the relay serves
 * (resources, prompts, completions, logging) when there is one.
 */
export function agentCapabilities(relayed: boolean): ServerCapabilities {
  const tools: ServerCapabilities = { tools: { listChanged: true } };
  return relayed ? { ...tools, ...RELAY_CAPABILITIES } : tools;
}

/**
 * One SDK `Server` for one agent session (HTTP) or one stdio connection. tools/list and
 * tools/call come from the agent's surface; the request's abort signal (aborted when the agent
 * sends notifications/cancelled, or the session closes) is passed into the call, with the agent
 * as the peer its servers may ask things of and, when it sent a progress token, where the
 * server's progress goes. With a relay, the servers' resources, prompts, completions and logs are
 * served too, and the session opens with the servers' instructions digested.
 */
export function createAgentMcpServer(
  agentId: string,
  surfaces: SurfaceProvider,
  relay?: UpstreamRelay,
): Server {
  const instructions = surfaces(agentId).instructions?.();
  const server = new Server(SERVER_INFO, {
    capabilities: agentCapabilities(relay !== undefined),
    ...(instructions === undefined ? {} : { instructions }),
  });
  relay?.attach(server, agentId);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: surfaces(agentId).listTools() }));
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => surfaces(agentId).rootsChanged?.());
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const progressToken = request.params._meta?.progressToken;
    const call = agentCallPeer(server, agentId, extra);
    try {
      return await surfaces(agentId).callTool(name, args, {
        agentId,
        signal: extra.signal,
        peer: call.peer,
        ...(progressToken === undefined ? {} : { onProgress: progressRelay(extra, progressToken) }),
      });
    } catch (error) {
      return toAgentError(name, error);
    } finally {
      call.ended();
    }
  });
  return server;
}

/**
 * A malformed call (unknown tool, bad envelope) is a protocol error, as in the SDK's McpServer;
 * any other expected failure is a tool result with isError so the model can read it. A bug never
 * leaks its details to the agent.
 */
function toAgentError(name: string, error: unknown): CallToolResult {
  if (ToolbridgeError.is(error)) {
    if (error.code === 'INVALID_ARGUMENT' || error.code === 'NOT_FOUND') {
      throw new McpError(ErrorCode.InvalidParams, error.message);
    }
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
  if (error instanceof McpError) throw error;
  console.warn(`toolbridge: calling "${name}" failed unexpectedly:`, errorMessage(error));
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `Toolbridge hit an internal error running "${name}". The app's log has details.`,
      },
    ],
  };
}
