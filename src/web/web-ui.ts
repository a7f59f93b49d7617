import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { endSocketWithStatus, requestTarget, sendPlain } from '../agents/http-response.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { readStaticFile } from './static-files.js';
import { isAllowedStateChange, isOwnPageUpgrade, localPort } from './ui-guard.js';
import { readCookies, sessionCookie, sessionCookieName, UiSessions } from './ui-sessions.js';
import { UiSocketServer, type UiSocketServerOptions } from './ws-server.js';

export interface WebUiOptions {
  /** The API the page drives (the host's `HostApi`, whose `attachUi` counts open pages). */
  api: UiSocketServerOptions['api'];
  /** The built renderer (`out/renderer`); nothing outside it is ever served. */
  rendererDir: string;
  /** Limits and clocks for the WebSocket; see `UiSocketServerOptions`. */
  socket?: Omit<UiSocketServerOptions, 'api'>;
  /**
   * Lets `toolbridge ui-link` ask for a fresh launch URL: `POST /api/ui-link` with this key as a
   * bearer token and no Origin (a page cannot send it). Absent: the route answers 404.
   */
  linkKey?: string;
}

/** Where a listener mounts us: the agent endpoint's `LoopbackServer` has this shape. */
export interface UiMountPoint {
  route(prefix: string, handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): void;
  upgrade(path: string, handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void;
}

export const UI_SOCKET_PATH = '/api/ws';
const SESSION_PATH = '/api/session';
export const UI_LINK_PATH = '/api/ui-link';
const MAX_SESSION_BODY_BYTES = 4096;
/** Close code the page reads as "signed out": it stops reconnecting and asks for a new link. */
export const SESSION_REVOKED_CLOSE_CODE = 4001;

/**
 * The web UI: the built renderer as static files, a one-time launch secret traded for a session
 * cookie, and the UI API over a WebSocket that needs that cookie (security checklist §1, O1–O9).
 * It mounts on the listener that already checks Host and Origin for every route.
 */
export class WebUi implements AsyncDisposable {
  private readonly sessions = new UiSessions();
  private readonly sockets: UiSocketServer;

  constructor(private readonly options: WebUiOptions) {
    this.sockets = new UiSocketServer({ ...options.socket, api: options.api });
  }

  /** Serves the page on every path the listener does not route elsewhere, and the socket on `/api/ws`. */
  mount(server: UiMountPoint): void {
    server.route('/', this.handleRequest);
    server.upgrade(UI_SOCKET_PATH, this.handleUpgrade);
  }

  /**
   * A launch URL with a fresh one-time secret in the fragment (never sent to a server, never in
   * logs or Referer). Issuing one spends any earlier unused secret; open sessions stay.
   */
  launchUrl(baseUrl: string): string {
    return `${baseUrl.replace(/\/$/, '')}/#secret=${this.sessions.issueLaunchSecret()}`;
  }

  /** Signs every page out: sessions forgotten, sockets closed. Returns a new launch URL (O8). */
  rotate(baseUrl: string): string {
    this.sessions.revokeAll();
    this.sockets.closeAll(SESSION_REVOKED_CLOSE_CODE, 'Signed out; open a new launch link.');
    return this.launchUrl(baseUrl);
  }

  get connectionCount(): number {
    return this.sockets.connectionCount;
  }

  async close(): Promise<void> {
    this.sessions.revokeAll();
    await this.sockets.close();
  }

  readonly handleRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The listener has set the security headers and refused targets it cannot parse.
    const path = requestTarget(req)?.pathname;
    if (path === undefined) return sendPlain(res, 400, 'Bad request target');
    if (path === SESSION_PATH) return this.handleSession(req, res);
    if (path === UI_LINK_PATH && this.options.linkKey !== undefined) return this.handleUiLink(req, res);
    if (path.startsWith('/api/')) return sendPlain(res, 404, 'Not found');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendPlain(res, 405, 'Method not allowed');
    }
    const file = await readStaticFile(this.options.rendererDir, path);
    if (file === undefined) {
      return sendPlain(res, 404, path === '/' ? 'The UI is not built; run `npm run build`.' : 'Not found');
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', file.body.length);
    res.setHeader('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!isOwnPageUpgrade(req)) {
      endSocketWithStatus(
        socket,
        localPort(req),
        403,
        'Forbidden: only the Toolbridge page may open this socket',
      );
    } else if (!this.sessions.isValidSession(readCookies(req, sessionCookieName(localPort(req))))) {
      endSocketWithStatus(socket, localPort(req), 401, 'Not signed in: open the newest ui: link');
    } else {
      this.sockets.accept(req, socket, head);
    }
  };

  /** A new launch URL for `toolbridge ui-link`, on the address the request came in on. */
  private handleUiLink(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Cache-Control', 'no-store');
    const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendPlain(res, 405, 'Method not allowed');
    } else if (req.headers.origin !== undefined) {
      sendPlain(res, 403, 'Forbidden: not for pages');
    } else if (given === undefined || !sameSecret(given, this.options.linkKey!)) {
      sendPlain(res, 401, 'Wrong or missing ui-link key');
    } else {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ url: this.launchUrl(`http://${req.headers.host}`) }));
    }
  }

  /** `GET` says whether the cookie is still good; `POST {secret}` trades the launch secret for one. */
  private async handleSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const port = localPort(req);
    if (req.method === 'GET') {
      const valid = this.sessions.isValidSession(readCookies(req, sessionCookieName(port)));
      return sendPlain(res, valid ? 200 : 401, valid ? 'Signed in' : 'Not signed in');
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      return sendPlain(res, 405, 'Method not allowed');
    }
    if (!isAllowedStateChange(req)) {
      return sendPlain(
        res,
        403,
        'Forbidden: send JSON with the X-Toolbridge-CSRF header from the page itself',
      );
    }
    const secret = await readSecret(req);
    const session = secret === undefined ? undefined : this.sessions.exchange(secret);
    if (session === undefined) {
      return sendPlain(res, 401, 'This launch link was already used or is wrong; open the newest ui: link');
    }
    res.setHeader('Set-Cookie', sessionCookie(port, session));
    sendPlain(res, 200, 'Signed in');
  }
}

async function readSecret(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SESSION_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const secret =
      typeof body === 'object' && body !== null ? (body as { secret?: unknown }).secret : undefined;
    return typeof secret === 'string' && secret.length > 0 ? secret : undefined;
  } catch {
    return undefined;
  }
}

/** Compares in constant time, so the key cannot be guessed a byte at a time. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
