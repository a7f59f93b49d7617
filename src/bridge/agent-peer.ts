import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  Progress,
} from '@modelcontextprotocol/sdk/types.js';

/** Which client features the agent's MCP client declared when it connected. */
export interface AgentPeerSupport {
  /** `elicitation` (an empty object means form mode, per the spec) or `elicitation.form`. */
  elicitForm: boolean;
  /** `elicitation.url`. */
  elicitUrl: boolean;
  sampling: boolean;
  roots: boolean;
}

/**
 * The agent on the other end of a tool call, as the servers it reaches may ask it things:
 * elicitation, sampling and roots go to it when it declared them. The agent endpoint makes one
 * per session; requests go out on the session's standalone stream, so they arrive even though
 * the call itself is answered as plain JSON.
 */
export interface AgentPeer {
  readonly agentId: string;
  /** Read when a request comes: the agent declares its features only once it has initialized. */
  supports(): AgentPeerSupport;
  elicit(params: ElicitRequestParams, signal?: AbortSignal): Promise<ElicitResult>;
  createMessage(params: CreateMessageRequestParams, signal?: AbortSignal): Promise<CreateMessageResult>;
  listRoots(signal?: AbortSignal): Promise<ListRootsResult>;
}

/** Progress of one call as its server reports it; the endpoint forwards it under the agent's own token. */
export type ProgressListener = (progress: Progress) => void;
