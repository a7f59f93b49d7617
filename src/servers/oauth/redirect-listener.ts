/**
 * The loopback listener the browser returns to after the user signs in (RFC 8252 §7.3). It binds
 * 127.0.0.1 only, answers one exact path, and accepts a callback only with a `state` it issued:
 * random, single-use, expiring. Anything else gets an error page and resolves nothing.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolbridgeError } from '../../base/errors.js';
import type { AsyncDisposable } from '../../base/lifecycle.js';

export interface RedirectListenerOptions {
  /** Port to bind; 0 picks a free one. Pre-registered clients need the fixed port they registered. @defaultValue 0 */
  port?: number;
  /** @defaultValue '/oauth/callback' */
  path?: string;
  /** How long an issued state stays valid. @defaultValue 600_000 (10 minutes) */
  stateTtlMs?: number;
  /** @defaultValue Date.now */
  clock?: () => number;
}

/** What the authorization server sent back. */
export interface AuthorizationResponse {
  code: string;
  /** RFC 9207 issuer identifier, when the server sends one. */
  iss: string | undefined;
}

interface Pending {
  expiresAt: number;
  resolve(response: AuthorizationResponse): void;
  reject(error: ToolbridgeError): void;
  settled: boolean;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export class RedirectListener implements AsyncDisposable {
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly redirectUrl: string,
    private readonly path: string,
    private readonly port: number,
    private readonly stateTtlMs: number,
    private readonly clock: () => number,
  ) {
    server.on('request', (req, res) => this.handle(req, res));
  }

  static async start(options: RedirectListenerOptions = {}): Promise<RedirectListener> {
    const path = options.path ?? '/oauth/callback';
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    return new RedirectListener(
      server,
      `http://127.0.0.1:${port}${path}`,
      path,
      port,
      options.stateTtlMs ?? 600_000,
      options.clock ?? Date.now,
    );
  }

  /**
   * Issues a fresh state and waits for the callback that carries it. Call this only after the
   * user has agreed to sign in. Rejects with `TIMEOUT` when the state expires, `DENIED` when the
   * user declined, `CANCELLED` on the signal.
   */
  expect(signal?: AbortSignal): { state: string; response: Promise<AuthorizationResponse> } {
    if (this.closed) throw new ToolbridgeError('CANCELLED', 'The sign-in listener is closed.');
    const state = randomBytes(32).toString('base64url');
    const response = new Promise<AuthorizationResponse>((resolve, reject) => {
      const entry: Pending = {
        expiresAt: this.clock() + this.stateTtlMs,
        settled: false,
        resolve: (value) => settle(() => resolve(value)),
        reject: (error) => settle(() => reject(error)),
      };
      const timer = setTimeout(
        () =>
          entry.reject(
            new ToolbridgeError('TIMEOUT', 'The sign-in was not completed in time. Start it again.'),
          ),
        this.stateTtlMs,
      );
      timer.unref();
      const onAbort = () => entry.reject(new ToolbridgeError('CANCELLED', 'The sign-in was cancelled.'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (finish: () => void) => {
        if (entry.settled) return;
        entry.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(state);
        finish();
      };
      this.pending.set(state, entry);
      if (signal?.aborted) onAbort();
    });
    // A caller that gave up early (the browser never opened) must not leave an unhandled rejection.
    response.catch(() => {});
    return { state, response };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const entry of [...this.pending.values()]) {
      entry.reject(new ToolbridgeError('CANCELLED', 'The sign-in listener closed.'));
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // Only the browser on this machine, addressing us by a loopback name (DNS rebinding).
    const host = req.headers.host;
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
      page(res, 403, 'This address only answers sign-in redirects.');
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (req.method !== 'GET' || url.pathname !== this.path) {
      page(res, 404, 'Not found.');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    const entry = this.pending.get(state);
    // Single use: whatever happens next, this state is spent.
    this.pending.delete(state);
    if (entry === undefined || entry.settled) {
      page(
        res,
        400,
        'This sign-in response is not valid: it was already used, has expired, or was never asked for.',
      );
      return;
    }
    if (this.clock() > entry.expiresAt) {
      entry.reject(new ToolbridgeError('TIMEOUT', 'The sign-in was not completed in time. Start it again.'));
      page(res, 400, 'This sign-in response has expired. Start the sign-in again in Toolbridge.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      const reason =
        error === 'access_denied' ? 'The sign-in was declined.' : `The sign-in failed (${error}).`;
      entry.reject(new ToolbridgeError('DENIED', reason));
      page(res, 200, `${reason} You can close this window.`);
      return;
    }
    const code = url.searchParams.get('code');
    if (code === null || code === '') {
      entry.reject(
        new ToolbridgeError('INVALID_ARGUMENT', 'The sign-in response carried no authorization code.'),
      );
      page(res, 400, 'The sign-in response carried no authorization code.');
      return;
    }
    entry.resolve({ code, iss: url.searchParams.get('iss') ?? undefined });
    page(res, 200, 'Signed in. You can close this window and return to Toolbridge.');
  }
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, PAGE_HEADERS);
  // The text is ours, never echoed from the request.
  res.end(
    `<!doctype html><html><head><title>Toolbridge sign-in</title></head><body><p>${text}</p></body></html>`,
  );
}
