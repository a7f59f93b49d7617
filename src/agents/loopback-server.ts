import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorMessage, errorSummary, ToolbridgeError } from '../base/errors.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { endSocketWithStatus, requestTarget, sendPlain, setSecurityHeaders } from './http-response.js';
import {
  allowedHosts,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackBindAddress,
  ownOrigins,
} from './request-guard.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void | Promise<void>;

export interface LoopbackServerOptions {
  /**
   * Address to bind.
   * @defaultValue `'127.0.0.1'`
   */
  host?: string;
  /**
   * Port to bind; 0 picks a free one.
   * @defaultValue `0`
   */
  port?: number;
  /**
   * Allow a non-loopback bind address. Anyone on the network could then reach the endpoint;
   * only for setups that put their own authentication in front.
   * @defaultValue `false`
   */
  unsafeAllowNonLoopback?: boolean;
  /**
   * Extra browser origins allowed besides our own (`http://127.0.0.1:<port>` etc.), exact strings.
   * @defaultValue `[]`
   */
  extraOrigins?: string[];
  /**
   * Where a failed handler is reported: one line, never the error's message (it may quote a body).
   * @defaultValue `console.warn`
   */
  log?: (line: string) => void;
  /** Timeouts and the connection cap against slow or hoarding clients; see `ListenerLimits`. */
  limits?: Partial<ListenerLimits>;
}

/** What a slow or hoarding client may cost the listener. */
export interface ListenerLimits {
  /** A request's headers must arrive within this (a silent or trickling client is dropped). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. Answering may take longer. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused at once. Agents hold one or two each. */
  maxConnections: number;
}

export const DEFAULT_LISTENER_LIMITS: Readonly<ListenerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
};

const BAD_TARGET =
  'Bad request: the request target must be a path starting with "/" (no scheme, host, spaces or control characters).';

/**
 * One HTTP listener on loopback that checks `Host` and `Origin` on every request and every
 * upgrade before any route sees it, then dispatches by path prefix. The agent endpoint mounts
 * `/mcp`; the web UI mounts its own routes and WebSocket upgrade on the same port.
 */
export class LoopbackServer implements AsyncDisposable {
  private readonly server: Server;
  private readonly routes = new Map<string, RouteHandler>();
  private readonly upgrades = new Map<string, UpgradeHandler>();
  private readonly bindHost: string;
  private readonly requestedPort: number;
  private readonly extraOrigins: string[];
  private readonly log: (line: string) => void;
  private hosts = new Set<string>();
  private origins = new Set<string>();
  private boundPort: number | undefined;
  private closed = false;

  constructor(options: LoopbackServerOptions = {}) {
    this.bindHost = options.host ?? '127.0.0.1';
    this.requestedPort = options.port ?? 0;
    this.extraOrigins = options.extraOrigins ?? [];
    this.log = options.log ?? ((line) => console.warn(line));
    if (!isLoopbackBindAddress(this.bindHost) && options.unsafeAllowNonLoopback !== true) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Refusing to listen on "${this.bindHost}": the agent endpoint only binds to loopback (127.0.0.1 or ::1). ` +
          'Anyone on your network could reach it otherwise.',
      );
    }
    if (!Number.isInteger(this.requestedPort) || this.requestedPort < 0 || this.requestedPort > 65535) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `Port ${this.requestedPort} is not valid: use 0–65535.`);
    }
    // A missing Host is refused by our guard (403 with our headers), not by Node's bare 400.
    const limits = { ...DEFAULT_LISTENER_LIMITS, ...options.limits };
    this.server = createServer(
      {
        requireHostHeader: false,
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        // Node checks the two timeouts only this often (30 s by default, which let slowloris in).
        connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 4)),
      },
      (req, res) => this.onRequest(req, res),
    );
    this.server.keepAliveTimeout = limits.keepAliveTimeoutMs;
    this.server.maxConnections = limits.maxConnections;
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.onUpgrade(req, socket, head),
    );
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
      this.onClientError(error, socket),
    );
    // After listen(), an accept failure (EMFILE) is reported here; unheard it would end the process.
    this.server.on('error', (error) => {
      if (this.server.listening) this.log(`toolbridge: the listener reported ${errorSummary(error)}`);
    });
  }

  /** Starts listening; resolves once the port is bound. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(
          new ToolbridgeError(
            'INVALID_ARGUMENT',
            error.code === 'EADDRINUSE'
              ? `Port ${this.requestedPort} is already in use. Pick another with --port, or 0 for a free one.`
              : `Cannot listen on ${this.bindHost}:${this.requestedPort}: ${errorMessage(error)}.`,
            { cause: error },
          ),
        );
      };
      this.server.once('error', onError);
      this.server.listen(this.requestedPort, this.bindHost, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    this.boundPort = (this.server.address() as AddressInfo).port;
    this.hosts = allowedHosts(this.boundPort);
    if (!isLoopbackBindAddress(this.bindHost)) this.hosts.add(`${this.bindHost}:${this.boundPort}`);
    this.origins = new Set([...ownOrigins(this.boundPort), ...this.extraOrigins]);
  }

  get port(): number {
    if (this.boundPort === undefined) throw new Error('LoopbackServer.port read before listen()');
    return this.boundPort;
  }

  /** Base URL, e.g. `http://127.0.0.1:43117`. */
  get url(): string {
    const host = this.bindHost.includes(':') ? `[${this.bindHost}]` : this.bindHost;
    return `http://${host}:${this.port}`;
  }

  /** The underlying Node server, for callers that need its events. Routes go through `route`. */
  get httpServer(): Server {
    return this.server;
  }

  /** Serves every path equal to `prefix` or below it; the longest matching prefix wins. */
  route(prefix: string, handler: RouteHandler): void {
    if (this.routes.has(prefix)) throw new Error(`route "${prefix}" is already mounted`);
    this.routes.set(prefix, handler);
  }

  /** Takes WebSocket (or other) upgrades on exactly `path`. */
  upgrade(path: string, handler: UpgradeHandler): void {
    if (this.upgrades.has(path)) throw new Error(`upgrade "${path}" is already mounted`);
    this.upgrades.set(path, handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private guardFailure(req: IncomingMessage): { status: number; text: string } | undefined {
    // Node keeps the first of two Host (or Origin) lines; a proxy may keep the last. Refuse both.
    if ((req.headersDistinct.host?.length ?? 0) > 1 || (req.headersDistinct.origin?.length ?? 0) > 1) {
      return { status: 400, text: 'Bad request: send one Host and at most one Origin header' };
    }
    if (!isAllowedHost(req.headers.host, this.hosts))
      return { status: 403, text: 'Forbidden: Host not allowed' };
    if (!isAllowedOrigin(req.headers.origin, this.origins)) {
      return { status: 403, text: 'Forbidden: Origin not allowed' };
    }
    return undefined;
  }

  /** The port responses are built for; requests only arrive after listen(). */
  private portFor(req: IncomingMessage): number {
    return this.boundPort ?? req.socket.localPort ?? 0;
  }

  /**
   * Nothing a request carries may throw past here: a handler's throw or rejection is logged in one
   * line and answered 500, and the listener keeps serving everyone else.
   */
  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    try {
      setSecurityHeaders(res, this.portFor(req));
      const target = requestTarget(req);
      if (target === undefined) {
        sendPlain(res, 400, BAD_TARGET, { Connection: 'close' });
        return;
      }
      const failure = this.guardFailure(req);
      if (failure !== undefined) {
        sendPlain(res, failure.status, failure.text, { Connection: 'close' });
        return;
      }
      const handler = this.findRoute(target.pathname);
      if (handler === undefined) {
        sendPlain(res, 404, 'Not found', { Connection: 'close' });
        return;
      }
      Promise.resolve()
        .then(() => handler(req, res))
        .catch((error: unknown) => this.requestFailed(res, error));
    } catch (error) {
      this.requestFailed(res, error);
    }
  }

  private requestFailed(res: ServerResponse, error: unknown): void {
    this.log(`toolbridge: a request handler failed: ${errorSummary(error)}`);
    try {
      if (!res.headersSent) sendPlain(res, 500, 'Internal error; the host keeps running. See its log.');
      else res.end();
    } catch {
      res.destroy();
    }
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node hands the socket over without an error listener; a reset peer would otherwise end the process.
    socket.on('error', () => socket.destroy());
    const port = this.portFor(req);
    try {
      const target = requestTarget(req);
      const failure = target === undefined ? { status: 400, text: BAD_TARGET } : this.guardFailure(req);
      const handler = target === undefined ? undefined : this.upgrades.get(target.pathname);
      if (failure !== undefined || handler === undefined) {
        const refusal = failure ?? { status: 404, text: 'Not found' };
        endSocketWithStatus(socket, port, refusal.status, refusal.text);
        return;
      }
      const pending = handler(req, socket, head);
      if (pending instanceof Promise) pending.catch((error: unknown) => this.upgradeFailed(socket, error));
    } catch (error) {
      this.upgradeFailed(socket, error);
    }
  }

  private upgradeFailed(socket: Duplex, error: unknown): void {
    this.log(`toolbridge: an upgrade handler failed: ${errorSummary(error)}`);
    socket.destroy();
  }

  /** Bytes Node could not parse as HTTP: answer once if the socket is still ours to answer, then drop it. */
  private onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    // A response already under way on this socket (a pipelined request) cannot be followed by another.
    const busy = (socket as { _httpMessage?: unknown })._httpMessage != null;
    if (error.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    const port = this.boundPort ?? 0;
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      endSocketWithStatus(socket, port, 431, 'Request headers too large.');
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      endSocketWithStatus(socket, port, 408, 'Request timed out: send the whole request promptly.');
    } else {
      endSocketWithStatus(socket, port, 400, 'Bad request: not valid HTTP/1.1.');
    }
  }

  private findRoute(path: string): RouteHandler | undefined {
    let best: string | undefined;
    for (const prefix of this.routes.keys()) {
      const matches =
        path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || prefix === '/';
      if (matches && (best === undefined || prefix.length > best.length)) best = prefix;
    }
    return best === undefined ? undefined : this.routes.get(best);
  }
}
