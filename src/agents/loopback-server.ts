import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import {
  allowedHosts,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackBindAddress,
  ownOrigins,
} from './request-guard.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

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
}

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
  private hosts = new Set<string>();
  private origins = new Set<string>();
  private boundPort: number | undefined;
  private closed = false;

  constructor(options: LoopbackServerOptions = {}) {
    this.bindHost = options.host ?? '127.0.0.1';
    this.requestedPort = options.port ?? 0;
    this.extraOrigins = options.extraOrigins ?? [];
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
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.onUpgrade(req, socket, head),
    );
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

  private guardFailure(req: IncomingMessage): string | undefined {
    if (!isAllowedHost(req.headers.host, this.hosts)) return 'Forbidden: Host not allowed';
    if (!isAllowedOrigin(req.headers.origin, this.origins)) return 'Forbidden: Origin not allowed';
    return undefined;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const failure = this.guardFailure(req);
    if (failure !== undefined) {
      sendPlain(res, 403, failure);
      return;
    }
    const handler = this.findRoute(pathOf(req));
    if (handler === undefined) {
      sendPlain(res, 404, 'Not found');
      return;
    }
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        console.warn('toolbridge: a request handler failed:', errorMessage(error));
        if (!res.headersSent) sendPlain(res, 500, 'Internal error');
        else res.end();
      });
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const failure = this.guardFailure(req);
    const handler = failure === undefined ? this.upgrades.get(pathOf(req)) : undefined;
    if (handler === undefined) {
      const status = failure === undefined ? '404 Not Found' : '403 Forbidden';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    handler(req, socket, head);
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

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
}

export function sendPlain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}
