import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../base/errors.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import type { AgentRecord } from './agent-registry.js';
import { parseRequestTarget } from './http-response.js';
import { createAgentMcpServer, type SurfaceProvider } from './mcp-session.js';
import { refusalResponse, refuseAgentMessage } from './message-guard.js';
import { hasCredentialInQuery, readBearerToken } from './request-guard.js';
import type { UpstreamRelay } from './upstream-relay.js';

/** Who a bearer token belongs to. The AgentRegistry is one. */
export interface AgentAuthenticator {
  authenticate(token: string | undefined): AgentRecord | undefined;
}

export interface AgentEndpointOptions {
  agents: AgentAuthenticator;
  surfaces: SurfaceProvider;
  /** Serves the servers' resources, prompts, completions and logs in every session. */
  relay?: UpstreamRelay;
  /**
   * Sessions one agent may hold open. Opening one more closes that agent's least recently used
   * session that has no request in flight; its next request is told why. When every one is busy,
   * the new session is refused instead.
   * @defaultValue `32`
   */
  maxSessionsPerAgent?: number;
  /**
   * Largest POST body read, in bytes; larger ones get 413.
   * @defaultValue `4 MiB`
   */
  maxBodyBytes?: number;
  /**
   * Answer each POST with one JSON body instead of an SSE stream. A JSON answer costs about half
   * as much per call, but what belongs to a call (its progress, a server's elicitation, sampling
   * or roots request) cannot travel with it: the SDK drops it, and on the GET stream progress
   * arrives after the answer, which the agent then discards. So calls are answered as streams.
   * @defaultValue `false`
   */
  jsonResponse?: boolean;
}

interface Session {
  id: string;
  agentId: string;
  /** Streamable HTTP (`/mcp`), or legacy SSE (`GET /sse` + `POST /messages`) for 2024-11-05 clients. */
  transport: StreamableHTTPServerTransport | SSEServerTransport;
  server: Server;
  /** Order of last use (a counter, not a clock: only the order matters). */
  lastUsed: number;
  /** POSTs not yet answered; a standing GET stream does not count, every client keeps one. */
  inFlight: number;
}

/** How many closed session ids are remembered to tell their client why. */
const EVICTED_MEMORY = 1024;

/** Where a legacy SSE client posts its messages; the stream's `endpoint` event names it with the session id. */
export const LEGACY_MESSAGES_PATH = '/messages';

const TOKEN_HELP =
  'Send the agent token in the header "Authorization: Bearer <agent token>". ' +
  '`toolbridge serve` prints it at start (the line "agent token: …"); the app shows each agent\'s token, ' +
  'with copy-paste client configs, in the Agents view.';

/**
 * The agent-facing MCP endpoint over Streamable HTTP: mount `handle` at `/mcp` on a
 * LoopbackServer (which has already checked Host and Origin). Every request carries the agent's
 * bearer token; a session id only works for the agent that opened it (M5).
 */
export class AgentEndpoint implements AsyncDisposable {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessionsPerAgent: number;
  private readonly maxBodyBytes: number;
  /** Session ids closed to make room, and whose they were. Oldest first; bounded. */
  private readonly evicted = new Map<string, string>();
  private uses = 0;
  private closed = false;

  constructor(private readonly options: AgentEndpointOptions) {
    this.maxSessionsPerAgent = options.maxSessionsPerAgent ?? 32;
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  }

  /** The `/mcp` route handler. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const agent = this.authorize(req, res);
    if (agent === undefined) return;

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessionFor(sessionId, agent.id, res, StreamableHTTPServerTransport);
      if (session === undefined) return;
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      session.inFlight++;
      res.once('close', () => session.inFlight--);
      const posted = await this.readMessages(req, res);
      if (posted !== undefined) await session.transport.handleRequest(req, res, posted);
      return;
    }
    if (req.method !== 'POST')
      return sendRpcError(res, 400, 'Bad request: no session; send initialize first.');

    const body = await this.readMessages(req, res);
    if (body === undefined) return;
    if (!isInitializeRequest(body)) {
      return sendRpcError(res, 400, 'Bad request: no session; send initialize first.');
    }
    if (!this.makeRoomFor(agent.id)) return this.sendNoRoom(res);
    const transport = await this.openSession(agent.id);
    await transport.handleRequest(req, res, body);
  };

  /**
   * The `/sse` route: a legacy SSE client (protocol 2024-11-05) opens its event stream with GET;
   * the first event names `/messages?sessionId=…`, where it posts every message. Same token,
   * session binding and per-agent cap as `/mcp`.
   */
  readonly handleLegacyStream = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const agent = this.authorize(req, res);
    if (agent === undefined) return;
    if (req.method !== 'GET') {
      return sendRpcError(
        res,
        405,
        `Legacy SSE: open the event stream with GET /sse, then POST each message to the ${LEGACY_MESSAGES_PATH}?sessionId=… address it names. Current clients use Streamable HTTP at /mcp instead.`,
        -32000,
        { Allow: 'GET' },
      );
    }
    if (!this.makeRoomFor(agent.id)) return this.sendNoRoom(res);
    const server = createAgentMcpServer(agent.id, this.options.surfaces, this.options.relay);
    const transport = new SSEServerTransport(LEGACY_MESSAGES_PATH, res);
    const session: Session = {
      id: transport.sessionId,
      agentId: agent.id,
      server,
      transport,
      lastUsed: ++this.uses,
      inFlight: 0,
    };
    this.sessions.set(session.id, session);
    // Set before connect(), as for /mcp: the SDK chains an existing onclose.
    transport.onclose = () => {
      if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    };
    await server.connect(transport);
    countRequestsInFlight(session, transport);
  };

  /** The `/messages` route: one JSON-RPC message of a legacy SSE session; answers go out on its stream. */
  readonly handleLegacyMessage = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const agent = this.authorize(req, res);
    if (agent === undefined) return;
    if (req.method !== 'POST') {
      return sendRpcError(
        res,
        405,
        'Legacy SSE: POST each message here; the event stream is GET /sse.',
        -32000,
        {
          Allow: 'POST',
        },
      );
    }
    const sessionId = parseRequestTarget(req.url)?.searchParams.get('sessionId');
    if (!sessionId) {
      return sendRpcError(
        res,
        400,
        'Bad request: no sessionId. Open the event stream with GET /sse first and post to the address its endpoint event names.',
      );
    }
    const session = this.sessionFor(sessionId, agent.id, res, SSEServerTransport);
    if (session === undefined) return;
    const body = await readJsonBody(req, this.maxBodyBytes);
    if (!body.ok) return sendRpcError(res, body.status, body.message, body.rpcCode);
    const refusal = refuseAgentMessage(body.value);
    if (refusal !== undefined) {
      // The answer belongs on the stream, like every answer of this transport.
      await session.transport.send(refusalResponse(refusal));
      res.writeHead(202).end('Accepted');
      return;
    }
    await session.transport.handlePostMessage(req, res, body.value);
  };

  /** The agent behind the request's bearer token, or undefined once a helpful 401 (or 503) went out. */
  private authorize(req: IncomingMessage, res: ServerResponse): AgentRecord | undefined {
    if (this.closed) {
      sendRpcError(res, 503, 'Toolbridge is shutting down.');
      return undefined;
    }
    if (hasCredentialInQuery(req.url)) {
      sendUnauthorized(res, `Credentials in the URL are not accepted. ${TOKEN_HELP}`, 'invalid_request');
      return undefined;
    }
    const header = req.headers.authorization;
    const token = readBearerToken(header);
    const agent = this.options.agents.authenticate(token);
    if (agent !== undefined) return agent;
    // Never echo what was sent: it may be a real token pasted in the wrong place.
    if (header === undefined || header.trim() === '') sendUnauthorized(res, `No agent token. ${TOKEN_HELP}`);
    else if (token === undefined) {
      sendUnauthorized(
        res,
        `The Authorization header is not of the form "Bearer <agent token>". ${TOKEN_HELP}`,
        'invalid_request',
      );
    } else {
      sendUnauthorized(
        res,
        `This agent token is not valid: it was revoked, regenerated or mistyped. ${TOKEN_HELP}`,
        'invalid_token',
      );
    }
    return undefined;
  }

  /**
   * The agent's own session of this transport, touched as used; else undefined once a 404 went
   * out. Another agent's session looks exactly like one that does not exist.
   */
  private sessionFor<T extends Session['transport']>(
    sessionId: string,
    agentId: string,
    res: ServerResponse,
    kind: abstract new (...args: never[]) => T,
  ): (Session & { transport: T }) | undefined {
    const session = this.sessions.get(sessionId);
    if (session === undefined || session.agentId !== agentId || !(session.transport instanceof kind)) {
      const why = this.evicted.get(sessionId) === agentId ? evictedMessage(this.maxSessionsPerAgent) : '';
      sendRpcError(res, 404, `Session not found.${why}`);
      return undefined;
    }
    session.lastUsed = ++this.uses;
    return session as Session & { transport: T };
  }

  private sendNoRoom(res: ServerResponse): void {
    sendRpcError(
      res,
      429,
      `This agent token already has ${this.maxSessionsPerAgent} sessions, each with a request in flight. ` +
        'Close one (DELETE /mcp with its Mcp-Session-Id, or end its /sse stream) or wait for its answer, then connect again.',
    );
  }

  /**
   * The POST body as JSON-RPC for the SDK, or undefined when it was answered here: too large, not
   * JSON, or holding a request the agent-message edge refuses (answered -32602 by id, HTTP 200, so
   * the agent's client reads it as the error of that request).
   */
  private async readMessages(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const body = await readJsonBody(req, this.maxBodyBytes);
    if (!body.ok) {
      sendRpcError(res, body.status, body.message, body.rpcCode);
      return undefined;
    }
    const messages = Array.isArray(body.value) ? body.value : [body.value];
    const refusals = messages.map(refuseAgentMessage);
    if (refusals.every((refusal) => refusal === undefined)) return body.value;
    const answers = refusals.flatMap((refusal) => (refusal === undefined ? [] : [refusalResponse(refusal)]));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body.value) ? answers : answers[0]));
    return undefined;
  }

  /** Tells every connected agent to fetch tools/list again. */
  notifyToolsChanged(): void {
    if (this.closed) return;
    for (const session of this.sessions.values()) {
      session.server.sendToolListChanged().catch(() => {
        // The agent went away between the change and the notification; its session closes itself.
      });
    }
  }

  /** Open sessions, optionally of one agent. */
  sessionCount(agentId?: string): number {
    let count = 0;
    for (const session of this.sessions.values())
      if (agentId === undefined || session.agentId === agentId) count++;
    return count;
  }

  /** Closes every session of an agent, e.g. after its token was revoked. */
  async closeAgentSessions(agentId: string): Promise<void> {
    const closing = [...this.sessions.values()].filter((session) => session.agentId === agentId);
    await Promise.all(closing.map((session) => this.closeSession(session)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.sessions.values()].map((session) => this.closeSession(session)));
  }

  /**
   * Below the cap there is room; at it, the agent's least recently used idle session is closed
   * and remembered, so its client learns why. False when every session has a request in flight.
   */
  private makeRoomFor(agentId: string): boolean {
    const own = [...this.sessions.values()].filter((session) => session.agentId === agentId);
    if (own.length < this.maxSessionsPerAgent) return true;
    const idle = own.filter((session) => session.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    const victim = idle[0];
    if (victim === undefined) return false;
    this.evicted.set(victim.id, agentId);
    for (const id of this.evicted.keys()) {
      if (this.evicted.size <= EVICTED_MEMORY) break;
      this.evicted.delete(id);
    }
    void this.closeSession(victim);
    return true;
  }

  private async openSession(agentId: string): Promise<StreamableHTTPServerTransport> {
    const server = createAgentMcpServer(agentId, this.options.surfaces, this.options.relay);
    let session: Session | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(24).toString('base64url'),
      enableJsonResponse: this.options.jsonResponse ?? false,
      onsessioninitialized: (id) => {
        session = { id, agentId, server, transport, lastUsed: ++this.uses, inFlight: 0 };
        this.sessions.set(id, session);
      },
    });
    // Set before connect(): the SDK chains an existing onclose but a later assignment would replace its own.
    transport.onclose = () => {
      if (session !== undefined && this.sessions.get(session.id) === session)
        this.sessions.delete(session.id);
    };
    await server.connect(transport);
    return transport;
  }

  private async closeSession(session: Session): Promise<void> {
    this.sessions.delete(session.id);
    try {
      await session.server.close();
    } catch (error) {
      console.warn('toolbridge: closing an agent session failed:', errorMessage(error));
    }
  }
}

type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; status: number; message: string; rpcCode: number };

async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      return {
        ok: false,
        status: 413,
        message: `Request body is larger than ${maxBytes} bytes.`,
        rpcCode: -32600,
      };
    }
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    // JSON.parse itself may give up on absurd nesting (RangeError); it is not valid input either way.
    return { ok: false, status: 400, message: 'Parse error: the body is not valid JSON.', rpcCode: -32700 };
  }
}

/**
 * A legacy SSE POST is answered 202 at once and its response goes out on the stream later, so a
 * request counts as in flight from its arrival until its response is sent (eviction spares it).
 */
function countRequestsInFlight(session: Session, transport: SSEServerTransport): void {
  const pending = new Set<string | number>();
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) pending.add(message.id);
    session.inFlight = pending.size;
    deliver?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) pending.delete(message.id);
    }
    session.inFlight = pending.size;
    return send(message);
  };
}

function evictedMessage(cap: number): string {
  return (
    ` It was closed because this agent token opened more than ${cap} sessions, and it was the least recently used one. ` +
    'Send initialize again (without Mcp-Session-Id) to open a new session.'
  );
}

/** 401 with the JSON-RPC error shape and an RFC 6750 challenge; the message says how to send the token. */
function sendUnauthorized(
  res: ServerResponse,
  message: string,
  error?: 'invalid_request' | 'invalid_token',
): void {
  const challenge = `Bearer realm="toolbridge"${error === undefined ? '' : `, error="${error}"`}`;
  sendRpcError(res, 401, message, -32001, { 'WWW-Authenticate': challenge });
}

function sendRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  rpcCode = -32000,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: rpcCode, message }, id: null }));
}
