import { getSupportedElicitationModes } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type ProgressToken,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentPeer, ProgressListener } from '../bridge/agent-peer.js';

/**
 * How long the agent may take to answer a relayed request. Elicitation and sampling wait for a
 * person or a model, so this is the card timeout's order, not the SDK's 60 s.
 */
export const AGENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** The request's own channel back to the agent: the SDK handler's `extra`. */
type CallChannel = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  'sendRequest' | 'sendNotification'
>;

/**
 * The agent behind one tool call. While the call runs, its requests and progress go out tied to
 * it, on the call's own answer stream, in order before the answer: the SDK drops whatever is tied
 * to a request answered as plain JSON, and on the standalone stream progress can arrive after the
 * answer (issue #14), so the endpoint answers calls as streams. Once the call has ended (a
 * server asking for roots later), requests go out on the session's standalone stream.
 */
export function agentCallPeer(
  server: Server,
  agentId: string,
  channel: CallChannel,
): { peer: AgentPeer; ended(): void } {
  let running = true;
  const send = <T extends AnySchema>(
    request: ServerRequest,
    schema: T,
    signal?: AbortSignal,
  ): Promise<SchemaOutput<T>> => {
    const options = { timeout: AGENT_REQUEST_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) };
    return running ? channel.sendRequest(request, schema, options) : server.request(request, schema, options);
  };
  const peer: AgentPeer = {
    agentId,
    supports() {
      const capabilities = server.getClientCapabilities();
      const modes = getSupportedElicitationModes(capabilities?.elicitation);
      return {
        elicitForm: modes.supportsFormMode,
        elicitUrl: modes.supportsUrlMode,
        sampling: capabilities?.sampling !== undefined,
        roots: capabilities?.roots !== undefined,
      };
    },
    elicit: (params, signal) => send({ method: 'elicitation/create', params }, ElicitResultSchema, signal),
    createMessage: (params, signal) =>
      send({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, signal),
    listRoots: (signal) => send({ method: 'roots/list' }, ListRootsResultSchema, signal),
  };
  return {
    peer,
    ended: () => {
      running = false;
    },
  };
}

/** Forwards a call's progress to the agent under the token it sent, tied to the call. */
export function progressRelay(channel: CallChannel, progressToken: ProgressToken): ProgressListener {
  return (progress) => {
    channel
      .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } })
      .catch(() => {
        // The agent went away mid-call; the call itself ends with its session.
      });
  };
}
