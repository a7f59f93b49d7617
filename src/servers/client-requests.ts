/**
 * What Toolbridge answers when a server asks its client something (MCP client features):
 * elicitation and sampling go to the handler the host gives (the agent, or a card); roots come
 * from the agent when it has them, else from the server's own `roots` setting. The capabilities
 * each connection declares are decided here, in one place.
 */
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequestParams,
  ElicitRequestSchema,
  type ElicitResult,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  ListRootsRequestSchema,
  type ListRootsResult,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../base/errors.js';
import type { AgentPeer } from '../bridge/agent-peer.js';

/** Where a server's request came from, as far as Toolbridge can tell. */
export interface ServerRequestOrigin {
  serverId: string;
  /**
   * The tool call in flight on that connection. MCP does not say which call a server's request
   * belongs to, so it is the one started last; absent when none is running.
   */
  call?: { toolName: string; peer?: AgentPeer };
  /** Aborted when the server cancels its request, or the call it came with ends. */
  signal: AbortSignal;
  /** Notes a line in the server's log (what was declined and why). */
  note(line: string): void;
}

/** Decides elicitation and sampling requests (the host: agent relay, cards, or a refusal). */
export interface ClientRequestHandler {
  elicit(params: ElicitRequestParams, origin: ServerRequestOrigin): Promise<ElicitResult>;
  createMessage(
    params: CreateMessageRequestParams,
    origin: ServerRequestOrigin,
  ): Promise<CreateMessageResult>;
}

/** The client capabilities a connection declares: roots always, the rest when someone can answer. */
export function clientCapabilities(handler: ClientRequestHandler | undefined): ClientCapabilities {
  return {
    roots: { listChanged: true },
    ...(handler === undefined ? {} : { elicitation: { form: {}, url: {} }, sampling: {} }),
  };
}

export interface ClientRequestWiring {
  handler: ClientRequestHandler | undefined;
  /** The origin of a request arriving now; `signal` is the server's own for that request. */
  origin(signal: AbortSignal): ServerRequestOrigin;
  /** The server's `roots` setting (absolute paths or file: URIs). */
  configuredRoots(): readonly string[];
  /** The agent whose call reached this server last, for a roots/list outside any call. */
  lastPeer(): AgentPeer | undefined;
}

/** Installs the handlers for what `clientCapabilities` declared. */
export function serveClientRequests(client: Client, wiring: ClientRequestWiring): void {
  const { handler } = wiring;
  if (handler !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      handler.elicit(request.params, wiring.origin(extra.signal)),
    );
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      handler.createMessage(request.params, wiring.origin(extra.signal)),
    );
  }
  client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => {
    const origin = wiring.origin(extra.signal);
    const peer = origin.call?.peer ?? wiring.lastPeer();
    if (peer?.supports().roots) {
      try {
        return await peer.listRoots(origin.signal);
      } catch (error) {
        origin.note(
          `the agent's roots could not be read (${errorMessage(error)}); sending the configured ones`,
        );
      }
    }
    return configuredRootsResult(wiring.configuredRoots());
  });
}

/**
 * Lets a server's progress reach its call before the call's answer when both come in one read
 * (a stdio chunk, one SSE batch): the SDK hands a notification to its handler a microtask later
 * but settles a response at once, dropping the progress that preceded it. Call after connect.
 */
export function deliverProgressFirst(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      queueMicrotask(() => deliver(message, extra));
    } else deliver(message, extra);
  };
}

/** The `roots` setting as MCP roots: a path becomes its file: URI, named after its last segment. */
export function configuredRootsResult(roots: readonly string[]): ListRootsResult {
  return { roots: roots.map(toRoot) };
}

function toRoot(root: string): Root {
  const uri = root.startsWith('file:') ? root : pathToFileURL(root).href;
  const name = decodeURIComponent(uri.replace(/\/+$/, '').split('/').pop() ?? '');
  return name === '' ? { uri } : { uri, name };
}
