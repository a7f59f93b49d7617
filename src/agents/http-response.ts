/**
 * What every loopback response is built from: the request target parsed without throwing, the
 * security headers (one place, so 400/403/404/413/500 carry them too), plain-text answers and the
 * raw answers written to a socket that never became an HTTP response (upgrades, client errors).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The parsed origin-form target (`/path?query`) of a request. */
export interface RequestTarget {
  /** As sent (percent-encoding kept); decode with care, it may be invalid. */
  pathname: string;
  searchParams: URLSearchParams;
}

/** Longer targets are refused; nothing we serve needs more. */
export const MAX_TARGET_LENGTH = 8192;

/**
 * Parses a request target, or undefined when it is not an origin-form path we serve: absolute-form
 * (`http://…`), authority-form (`host:port`, CONNECT), `*`, control characters, or over
 * `MAX_TARGET_LENGTH`. Never throws: a target like `//[` or `//x:99999` is only a path here.
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget | undefined {
  if (raw === undefined || raw.length === 0 || raw.length > MAX_TARGET_LENGTH || raw[0] !== '/') {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u0020\u007f]/.test(raw)) return undefined;
  try {
    // Prefixing the origin keeps `//host` from being read as an authority.
    const url = new URL(`http://127.0.0.1${raw}`);
    return { pathname: url.pathname, searchParams: url.searchParams };
  } catch {
    return undefined;
  }
}

const targets = new WeakMap<IncomingMessage, RequestTarget | undefined>();

/** The request's parsed target, parsed once per request. */
export function requestTarget(req: IncomingMessage): RequestTarget | undefined {
  if (!targets.has(req)) targets.set(req, parseRequestTarget(req.url));
  return targets.get(req);
}

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
    `connect-src 'self' ws://127.0.0.1:${port}`,
  ].join('; ');
}

/** Headers on every response of the listener on `port`, errors included (O9). Never ACAO (O6). */
export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export function setSecurityHeaders(res: ServerResponse, port: number): void {
  for (const [name, value] of Object.entries(securityHeaders(port))) res.setHeader(name, value);
}

/** A short plain-text answer; the security headers are already on `res` (the listener sets them). */
export function sendPlain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Ends a socket that never became an HTTP response (a refused upgrade, a request Node could not
 * parse) with a complete HTTP/1.1 answer carrying the same headers as every other response.
 */
export function endSocketWithStatus(socket: Duplex, port: number, status: number, text: string): void {
  if (socket.destroyed) return;
  const body = `${text}\n`;
  const headers = {
    ...securityHeaders(port),
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${head}\r\n${body}`);
  // Whatever the peer does next, the socket does not outlive a short grace.
  setTimeout(() => socket.destroy(), 1000).unref();
}
