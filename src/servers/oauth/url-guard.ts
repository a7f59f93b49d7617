/**
 * SSRF guard for everything the OAuth flow fetches on a server's say-so (resource metadata,
 * authorization-server metadata, registration and token endpoints). Those URLs come from a
 * possibly hostile server, so they must be https and resolve only to public addresses, checked
 * after DNS and on every redirect hop, and the request then connects to exactly the addresses
 * that were checked (no second lookup a rebinding DNS server could answer differently). Two
 * exceptions: the origin the user typed (a local server the user chose may live on loopback over
 * http), and, for such a loopback server only, an authorization server on another loopback port
 * (a local development setup); a server anywhere else can never send us to loopback.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { errorMessage, ToolbridgeError } from '../../base/errors.js';
import { type PinnedFetch, pinnedFetch } from './pinned-fetch.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Resolves a host name to every address it has. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface UrlGuardOptions {
  /** Origins the user typed (`http://127.0.0.1:8123`): allowed over http and on private addresses. */
  trustedOrigins?: readonly string[];
  /** @defaultValue node:dns lookup with `all: true` */
  resolveHost?: ResolveHost;
  /** Redirect hops followed at most. @defaultValue 5 */
  maxRedirects?: number;
  /**
   * The server the user typed is itself on loopback: URLs on loopback (any port, http or https)
   * may then be fetched too, except `ownPorts`. Private, link-local and other non-public
   * addresses stay refused. @defaultValue false
   */
  loopbackResource?: boolean;
  /** Toolbridge's own listening ports (UI, agent endpoint): never fetched, even for a loopback server. */
  ownPorts?: () => readonly number[];
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8 (its IPv4-mapped form included) and ::1. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** True when a URL's host is a loopback address or `localhost` (RFC 6761: always loopback). */
export function isLoopbackUrl(url: URL): boolean {
  const host = bareHost(url);
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** True for loopback, private, link-local, ULA, CGNAT, multicast and unspecified addresses (IPv4-mapped included). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const defaultResolve: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

function refuse(url: string, why: string): ToolbridgeError {
  return new ToolbridgeError('DENIED', `Refused to fetch ${url}: ${why}.`);
}

/** Throws `DENIED` unless the URL may be fetched: https to public addresses only, or a trusted origin. */
export async function checkFetchUrl(raw: string | URL, options: UrlGuardOptions = {}): Promise<URL> {
  return (await checkTarget(raw, options)).url;
}

/**
 * `checkFetchUrl`, also giving the addresses that were checked: the request must connect to
 * those and no others. Undefined for a trusted origin, which may resolve anywhere.
 */
async function checkTarget(
  raw: string | URL,
  options: UrlGuardOptions,
): Promise<{ url: URL; addresses?: string[] }> {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw refuse(String(raw), 'it is not a valid URL');
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.username !== '' || url.password !== '') throw refuse(shown, 'it carries a user name or password');
  if (options.trustedOrigins?.includes(url.origin)) return { url };
  const toLoopback = options.loopbackResource === true && isLoopbackUrl(url);
  if (url.protocol !== 'https:' && !(toLoopback && url.protocol === 'http:')) {
    throw refuse(shown, 'only https is allowed for URLs a server supplies');
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (toLoopback && options.ownPorts?.().includes(port)) {
    throw refuse(shown, "it is one of Toolbridge's own ports");
  }
  // The WHATWG parser has already normalised 2130706433, 0x7f.1 and friends to dotted form.
  const host = bareHost(url);
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await (options.resolveHost ?? defaultResolve)(host);
    } catch (error) {
      throw refuse(shown, `its host could not be resolved (${errorMessage(error)})`);
    }
  }
  if (addresses.length === 0) throw refuse(shown, 'its host has no address');
  // A loopback name must resolve to loopback only (never to a private network).
  const allowed = toLoopback ? isLoopbackAddress : (address: string) => !isNonPublicAddress(address);
  const bad = addresses.find((address) => !allowed(address));
  if (bad !== undefined) {
    throw refuse(
      shown,
      `its host resolves to the ${toLoopback ? 'non-loopback' : 'non-public'} address ${bad}`,
    );
  }
  return { url, addresses };
}

/**
 * A fetch that checks the URL and every redirect hop with `checkFetchUrl`, and connects each hop
 * to the addresses its check resolved. `inner` sends one request (tests pass a recorder).
 */
export function guardedFetch(options: UrlGuardOptions = {}, inner: PinnedFetch = pinnedFetch): FetchLike {
  const maxRedirects = options.maxRedirects ?? 5;
  return async (input, init) => {
    let target = await checkTarget(input, options);
    let url = target.url;
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; ; hop++) {
      const response = await inner(url, request, target.addresses);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      if (hop >= maxRedirects) throw refuse(url.href, `more than ${maxRedirects} redirects`);
      await response.body?.cancel();
      target = await checkTarget(new URL(location, url), options);
      const next = target.url;
      if (next.origin !== url.origin) {
        // Credentials meant for one origin never follow a redirect to another.
        const headers = new Headers(request.headers);
        headers.delete('authorization');
        request = { ...request, headers };
      }
      url = next;
      // 303 (and 301/302 after a POST, as browsers do) continue as GET without a body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && request.method === 'POST')
      ) {
        const { body: _body, ...rest } = request;
        request = { ...rest, method: 'GET' };
      }
    }
  };
}
