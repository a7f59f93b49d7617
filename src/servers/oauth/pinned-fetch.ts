/**
 * One HTTP request to addresses already checked, never resolving the host again: the SSRF guard
 * resolves a name, checks every address, and this connects to exactly those (no DNS-rebinding
 * window between the check and the connect). TLS still names the original host (SNI and the
 * certificate check) and so does the Host header. Redirects are returned, never followed, so the
 * guard can check each hop. The body is read whole, up to PINNED_FETCH_MAX_BODY_BYTES, before
 * the response is returned: its callers (OAuth metadata, registration and token requests) only
 * ever want small JSON, and a hostile server must not be able to stream without end.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ToolbridgeError } from '../../base/errors.js';

/**
 * Sends one request for `url`, connecting only to `addresses` when given (else the system's DNS,
 * for origins the user typed). Returns redirects as they are. Network failures reject with a
 * `TypeError`, as `fetch` does; a body over the size limit rejects with `SERVER_UNAVAILABLE` (not
 * a `TypeError`, which callers such as the SDK's discovery take for a network failure and skip).
 */
export type PinnedFetch = (
  url: URL,
  init: RequestInit,
  addresses: readonly string[] | undefined,
) => Promise<Response>;

/** A socket that stays silent this long fails the request. */
export const PINNED_FETCH_IDLE_TIMEOUT_MS = 30_000;

/** A whole request, body included, must be done within this (a server may send a byte at a time). */
export const PINNED_FETCH_TOTAL_TIMEOUT_MS = 60_000;

/**
 * The largest response body read (1 MiB). Authorization-server metadata, a registered client and
 * a token answer are a few KiB; anything past this is refused, not read to the end.
 */
export const PINNED_FETCH_MAX_BODY_BYTES = 1024 * 1024;

/** Statuses whose responses never carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** `pinnedFetch` with another overall deadline (tests use a short one). */
export function pinnedFetchWithin(totalTimeoutMs: number): PinnedFetch {
  return (url, init, addresses) => send(url, init, addresses, totalTimeoutMs);
}

export const pinnedFetch: PinnedFetch = pinnedFetchWithin(PINNED_FETCH_TOTAL_TIMEOUT_MS);

async function send(
  url: URL,
  init: RequestInit,
  addresses: readonly string[] | undefined,
  totalTimeoutMs: number,
): Promise<Response> {
  const deadline = AbortSignal.timeout(totalTimeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  // The caller's abort keeps its reason; anything else fails as fetch does.
  const failure = (error: unknown) =>
    init.signal?.aborted
      ? init.signal.reason
      : new TypeError('fetch failed', {
          cause: deadline.aborted ? new Error(`no complete answer within ${totalTimeoutMs / 1000} s`) : error,
        });
  const request = new Request(url, { ...init, redirect: 'manual' });
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  // We do not decompress: ask for the plain body.
  headers['accept-encoding'] = 'identity';
  if (body !== undefined) headers['content-length'] = String(body.length);
  const options: RequestOptions = {
    method: request.method,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers,
    ...(addresses === undefined ? {} : { lookup: pinnedLookup(addresses) }),
    signal,
  };
  const open = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = open(options, resolve);
    req.setTimeout(PINNED_FETCH_IDLE_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${PINNED_FETCH_IDLE_TIMEOUT_MS / 1000} s`)),
    );
    req.on('error', (error) => reject(failure(error)));
    req.end(body);
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) {
    response.destroy();
    throw new TypeError('fetch failed', { cause: new Error(`unexpected HTTP status ${status}`) });
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      responseHeaders.append(name, item);
    }
  }
  const empty = NULL_BODY_STATUSES.has(status) || request.method === 'HEAD';
  if (empty) response.resume();
  const content = empty ? null : await readBody(response, url, failure);
  return new Response(content, {
    status,
    statusText: response.statusMessage ?? '',
    headers: responseHeaders,
  });
}

/** The whole body, or a refusal naming the limit as soon as it is passed (the socket is closed then). */
async function readBody(
  response: IncomingMessage,
  url: URL,
  failure: (error: unknown) => unknown,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => {
    response.destroy();
    return new ToolbridgeError(
      'SERVER_UNAVAILABLE',
      `The answer from ${url.origin}${url.pathname} is larger than ${PINNED_FETCH_MAX_BODY_BYTES / (1024 * 1024)} MiB, the most Toolbridge reads from an OAuth server; it was not read.`,
    );
  };
  // A declared length over the limit is refused before reading anything.
  if (Number(response.headers['content-length']) > PINNED_FETCH_MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > PINNED_FETCH_MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (ToolbridgeError.is(error)) throw error;
    throw failure(error);
  }
  return Buffer.concat(chunks);
}

/** A `lookup` that answers with the checked addresses, whatever the name. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    const first = entries[0];
    if (first === undefined) {
      callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
    } else if ((options as { all?: boolean }).all === true) {
      (callback as unknown as (error: null, all: typeof entries) => void)(null, entries);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
