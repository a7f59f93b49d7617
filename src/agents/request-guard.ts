/**
 * Checks every request to a loopback listener must pass (security checklist §1, M1–M4):
 * loopback bind, exact Host, exact Origin, bearer token from the header only.
 * Pure functions, shared by the agent endpoint and anything else mounted on the same port.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { parseRequestTarget } from './http-response.js';

/** Addresses the listener may bind without the unsafe flag. */
export function isLoopbackBindAddress(address: string): boolean {
  if (address === 'localhost' || address === '::1') return true;
  return isIP(address) === 4 && address.startsWith('127.');
}

/** The exact `Host` values a request to our port may carry (M3). */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** Our own origins: pages we serve on this port (the web UI) may call us. */
export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

export function isAllowedHost(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  return host !== undefined && allowed.has(host.toLowerCase());
}

/**
 * An absent Origin is a non-browser client (every MCP agent); a present one must be on the list
 * exactly: no substring, no wildcard, and `null` is never on it (M1).
 */
export function isAllowedOrigin(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin === undefined || allowed.has(origin);
}

/** The token from `Authorization: Bearer <token>`, or undefined. Never read from the URL (M4). */
export function readBearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
  return match?.[1];
}

/** True when the URL tries to carry a credential; such requests are refused outright (M4). */
export function hasCredentialInQuery(url: string | undefined): boolean {
  // An unparsable target may hide one too; the listener refuses those before any route.
  const query = parseRequestTarget(url)?.searchParams;
  if (query === undefined) return url !== undefined;
  return ['token', 'access_token', 'api_key', 'key', 'auth'].some((name) => query.has(name));
}

/** A fixed-length digest of a secret, so comparisons run in constant time whatever the input length. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
