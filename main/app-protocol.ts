import type { Protocol } from 'electron';
import { readStaticFile } from '../src/web/static-files.js';
import { APP_HOST, APP_SCHEME } from './window.js';

/** The page's CSP in the desktop app: like web mode's, without the WebSocket. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Call before `ready`: `app://` behaves like a secure, standard origin (E1). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Answers one `app://` request from the built renderer only; anything else, traversal included, is 404 (E18). */
export async function serveAppRequest(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  const file = url.host === APP_HOST ? await readStaticFile(rendererDir, url.pathname) : undefined;
  const headers = { 'Content-Security-Policy': APP_CSP, 'X-Content-Type-Options': 'nosniff' };
  if (file === undefined) return new Response('Not found', { status: 404, headers });
  return new Response(new Uint8Array(file.body), {
    headers: { ...headers, 'Content-Type': file.contentType },
  });
}

export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rendererDir, request.url));
}
