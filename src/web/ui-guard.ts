import type { IncomingMessage } from 'node:http';
import { allowedHosts, isAllowedHost, ownOrigins } from '../agents/request-guard.js';

/**
 * UI-specific checks on top of the listener's Host/Origin guard (security checklist §1, O1–O9).
 * The port is the one the request arrived on, so the rules follow the listener we are mounted on.
 */

export function localPort(req: IncomingMessage): number {
  return req.socket.localPort ?? 0;
}

/**
 * For the WebSocket: the Host is ours and an Origin is present and exactly ours. Browsers always
 * send Origin on a WebSocket, so a missing one is a non-browser client, which has no business here.
 */
export function isOwnPageUpgrade(req: IncomingMessage): boolean {
  const port = localPort(req);
  const origin = req.headers.origin;
  return (
    isAllowedHost(req.headers.host, allowedHosts(port)) &&
    origin !== undefined &&
    ownOrigins(port).includes(origin)
  );
}

/** A state-changing request must be JSON, carry our CSRF header, and not come from another site (O5). */
export function isAllowedStateChange(req: IncomingMessage): boolean {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') return false;
  if (req.headers['x-toolbridge-csrf'] !== '1') return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
