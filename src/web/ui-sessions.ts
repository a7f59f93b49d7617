import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may use the web UI. The launch URL carries a one-time secret; the page trades it for a
 * session cookie (HttpOnly, SameSite=Strict) and the secret is spent. Sessions are kept as hashes,
 * so a heap dump or log line never shows a usable cookie.
 */
export class UiSessions {
  private launchSecretHash: Buffer | undefined;
  private readonly sessionHashes = new Set<string>();

  /** A fresh one-time secret (256 random bits); any earlier unspent one stops working. */
  issueLaunchSecret(): string {
    const secret = randomToken();
    this.launchSecretHash = digest(secret);
    return secret;
  }

  /** Spends the launch secret and returns a new session id, or undefined if the secret is wrong or spent. */
  exchange(secret: string): string | undefined {
    const expected = this.launchSecretHash;
    if (expected === undefined || !timingSafeEqual(digest(secret), expected)) return undefined;
    this.launchSecretHash = undefined;
    const session = randomToken();
    this.sessionHashes.add(digest(session).toString('hex'));
    return session;
  }

  /** True when any of the presented session values is one we issued. */
  isValidSession(sessions: readonly string[]): boolean {
    return sessions.some((session) => this.sessionHashes.has(digest(session).toString('hex')));
  }

  /** Forgets every session and the unspent secret (rotation, lock, shutdown). */
  revokeAll(): void {
    this.sessionHashes.clear();
    this.launchSecretHash = undefined;
  }
}

/**
 * Cookies do not separate ports, so two hosts on one machine would overwrite each other's cookie;
 * the port in the name keeps them apart.
 */
export function sessionCookieName(port: number): string {
  return `toolbridge_ui_${port}`;
}

export function sessionCookie(port: number, session: string): string {
  return `${sessionCookieName(port)}=${session}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * Every value of the cookie `name` in the request, in the order sent. Another localhost port can
 * set a cookie of the same name (cookies do not separate ports) with a longer Path, which the
 * browser sends first; a session is valid when any of the values is (cookie tossing).
 */
export function readCookies(req: IncomingMessage, name: string): string[] {
  const header = req.headers.cookie;
  if (header === undefined) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
