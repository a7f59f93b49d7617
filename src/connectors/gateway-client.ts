/**
 * HTTP client for the connector gateway (docs/gateway-protocol.md). Every call answers with a
 * `GatewayResult`: the value, or one of four failure kinds the callers turn into agent-facing
 * text. Only the caller's own abort throws (`CANCELLED`). The token is read per request and
 * never logged or put into a message.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import {
  type ConnectionTarget,
  type GatewayConnectionRow,
  type GatewayConnectionStart,
  type GatewayExecuteResult,
  type GatewayExecuteTool,
  type GatewayRenameResult,
  type GatewaySchema,
  type GatewaySearchResponse,
  parseConnectionRow,
  parseConnectionStarts,
  parseConnectionsPage,
  parseErrorBody,
  parseExecuteResponse,
  parseRenameResponse,
  parseSchemasResponse,
  parseSearchResponse,
  parseToolsResponse,
} from './gateway-wire.js';

/**
 * - `dark`: no gateway configured, or it has no connector surface (404): stay silent, local only.
 * - `not_set_up`: a gateway is configured but there is no token yet.
 * - `sign_in_expired`: the gateway refused the token (401, UNAUTHORIZED, INVALID_TOKEN, TOKEN_EXPIRED).
 * - `unreachable`: anything else (transport failure, timeout, 5xx, 4xx, a body that is not the protocol).
 */
export type GatewayFailureKind = 'dark' | 'not_set_up' | 'sign_in_expired' | 'unreachable';

export interface GatewayFailure {
  kind: GatewayFailureKind;
  /** For people and logs; never carries the token. */
  message: string;
  status?: number;
  /** The gateway's error code, when it sent one. */
  code?: string;
  /** From `Retry-After` on a 429. */
  retryAfterMs?: number;
}

export type GatewayResult<T> = { ok: true; value: T } | { ok: false; failure: GatewayFailure };

/** Where the token comes from: a fixed value, or a function asked before every request. */
export type TokenSource = string | undefined | (() => string | undefined | Promise<string | undefined>);

export interface GatewayTimeouts {
  /** `POST v1/connectors/search`; never retried. @defaultValue 30_000 */
  searchMs: number;
  /** `POST v1/connectors/schemas`; one retry on 5xx or transport failure. @defaultValue 10_000 */
  schemasMs: number;
  /** `POST v1/connectors/execute`; one retry on 5xx or transport failure, same idempotency key. @defaultValue 60_000 */
  executeMs: number;
  /** Each page of `GET v1/connectors/connections`; one retry per page. @defaultValue 10_000 */
  listMs: number;
  /** `POST v1/connectors/connections`; never retried. @defaultValue 30_000 */
  connectMs: number;
  /** `GET v1/connectors/connections/{id}`; never retried (callers poll). @defaultValue 10_000 */
  statusMs: number;
  /** `POST v1/connectors/accounts/rename`; never retried. @defaultValue 10_000 */
  renameMs: number;
  /** `GET v1/connectors/tools`; one retry on 5xx or transport failure. @defaultValue 10_000 */
  toolsMs: number;
}

export const DEFAULT_GATEWAY_TIMEOUTS: Readonly<GatewayTimeouts> = Object.freeze({
  searchMs: 30_000,
  schemasMs: 10_000,
  executeMs: 60_000,
  listMs: 10_000,
  connectMs: 30_000,
  statusMs: 10_000,
  renameMs: 10_000,
  toolsMs: 10_000,
});

export interface GatewayClientOptions {
  /** The gateway's base URL from settings; absent means connectors are off (`dark`). */
  baseUrl: string | undefined;
  /** The bearer token, usually a function reading the secret store. Absent → `not_set_up`. */
  token: TokenSource;
  /** Per-endpoint timeouts; tests pass short ones. */
  timeouts?: Partial<GatewayTimeouts>;
  /** Pause before the one retry. @defaultValue 250 */
  retryDelayMs?: number;
  /** Sent as `returnTo` on execute and connect, e.g. `toolbridge-desktop`. @defaultValue none */
  returnTo?: string;
  /** Bodies larger than this count as `unreachable`. @defaultValue 8 MiB */
  maxResponseBytes?: number;
  /** Makes `x-idempotency-key` values. @defaultValue crypto.randomUUID */
  newIdempotencyKey?: () => string;
}

export const MAX_USE_CASES = 7;
export const CONNECTIONS_PAGE_SIZE = 50;
export const MAX_CONNECTIONS_PAGES = 20;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const SIGN_IN_CODES: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'INVALID_TOKEN', 'TOKEN_EXPIRED']);

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface ExecuteOptions extends RequestOptions {
  /** Ties requests to one user-visible operation. */
  op?: string;
  /** Reuse a key (the client makes one per call otherwise). */
  idempotencyKey?: string;
}

export interface ConnectOptions extends RequestOptions {
  /** Start a new link even for connectors that are already active. */
  reinitiate?: boolean;
  op?: string;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** Sent as JSON. */
  body?: Record<string, unknown>;
  timeoutMs: number;
  retry: boolean;
  headers?: Record<string, string>;
  signal: AbortSignal | undefined;
}

/** One HTTP exchange's outcome before parsing. */
type Attempt =
  | { kind: 'response'; status: number; body: unknown; retryAfterMs?: number }
  | { kind: 'transport'; message: string };

export class GatewayClient {
  private readonly baseUrl: URL | undefined;
  private readonly token: TokenSource;
  private readonly timeouts: GatewayTimeouts;
  private readonly retryDelayMs: number;
  private readonly returnTo: string | undefined;
  private readonly maxResponseBytes: number;
  private readonly newIdempotencyKey: () => string;

  constructor(options: GatewayClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.token = options.token;
    this.timeouts = { ...DEFAULT_GATEWAY_TIMEOUTS, ...options.timeouts };
    for (const [key, value] of Object.entries(this.timeouts)) {
      if (!(value > 0))
        throw new ToolbridgeError('INVALID_ARGUMENT', `GatewayClient: timeout "${key}" must be > 0.`);
    }
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.returnTo = options.returnTo;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.newIdempotencyKey = options.newIdempotencyKey ?? randomUUID;
  }

  /** True when a base URL is configured; says nothing about the token or the network. */
  get configured(): boolean {
    return this.baseUrl !== undefined;
  }

  /** Finds tools for 1–7 use cases; `results[i]` answers `useCases[i]`. */
  async search(
    useCases: readonly string[],
    options: RequestOptions = {},
  ): Promise<GatewayResult<GatewaySearchResponse>> {
    if (useCases.length === 0 || useCases.length > MAX_USE_CASES) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `The connector gateway takes 1 to ${MAX_USE_CASES} use cases per search; got ${useCases.length}.`,
      );
    }
    const result = await this.request({
      method: 'POST',
      path: 'v1/connectors/search',
      body: { queries: useCases.map((useCase) => ({ useCase })) },
      timeoutMs: this.timeouts.searchMs,
      retry: false,
      signal: options.signal,
    });
    return parsed(result, parseSearchResponse, 'search');
  }

  /** Schemas for the given slugs; unknown slugs are absent from the answer. */
  async schemas(
    slugs: readonly string[],
    options: RequestOptions = {},
  ): Promise<GatewayResult<Record<string, GatewaySchema>>> {
    if (slugs.length === 0) return { ok: true, value: {} };
    const result = await this.request({
      method: 'POST',
      path: 'v1/connectors/schemas',
      body: { tools: [...slugs] },
      timeoutMs: this.timeouts.schemasMs,
      retry: true,
      signal: options.signal,
    });
    return parsed(result, parseSchemasResponse, 'schemas');
  }

  /** Runs tools; one result per tool, in order. The idempotency key is reused on the retry. */
  async execute(
    tools: readonly GatewayExecuteTool[],
    options: ExecuteOptions = {},
  ): Promise<GatewayResult<GatewayExecuteResult[]>> {
    const body: Record<string, unknown> = { tools: tools.map((tool) => ({ ...tool })) };
    if (this.returnTo !== undefined) body.returnTo = this.returnTo;
    if (options.op !== undefined) body.op = options.op;
    const result = await this.request({
      method: 'POST',
      path: 'v1/connectors/execute',
      body,
      timeoutMs: this.timeouts.executeMs,
      retry: true,
      headers: { 'x-idempotency-key': options.idempotencyKey ?? this.newIdempotencyKey() },
      signal: options.signal,
    });
    return parsed(result, parseExecuteResponse, 'execute');
  }

  /** Every connector row, following the cursor for at most 20 pages of 50. */
  async listConnections(options: RequestOptions = {}): Promise<GatewayResult<GatewayConnectionRow[]>> {
    const rows: GatewayConnectionRow[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_CONNECTIONS_PAGES; page++) {
      const query = new URLSearchParams({ limit: String(CONNECTIONS_PAGE_SIZE) });
      if (cursor !== undefined) query.set('cursor', cursor);
      const result = parsed(
        await this.request({
          method: 'GET',
          path: `v1/connectors/connections?${query}`,
          timeoutMs: this.timeouts.listMs,
          retry: true,
          signal: options.signal,
        }),
        parseConnectionsPage,
        'connections list',
      );
      if (!result.ok) return result;
      rows.push(...result.value.connections);
      cursor = result.value.nextCursor;
      if (cursor === undefined) break;
    }
    return { ok: true, value: rows };
  }

  /**
   * Starts linking accounts: a bare connector links its default account, a target with an alias
   * the account under that alias (a new one when the alias is new). Never retried: a repeat could
   * mint a second link.
   */
  async initiateConnections(
    targets: ReadonlyArray<string | ConnectionTarget>,
    options: ConnectOptions = {},
  ): Promise<GatewayResult<GatewayConnectionStart[]>> {
    const body: Record<string, unknown> = {
      connectors: targets.map((target) => {
        if (typeof target === 'string') return target;
        // A bare name keeps the request readable by gateways with one account per connector.
        return target.alias === undefined
          ? target.connector
          : { connector: target.connector, alias: target.alias };
      }),
      reinitiate: options.reinitiate === true,
    };
    if (this.returnTo !== undefined) body.returnTo = this.returnTo;
    if (options.op !== undefined) body.op = options.op;
    const result = await this.request({
      method: 'POST',
      path: 'v1/connectors/connections',
      body,
      timeoutMs: this.timeouts.connectMs,
      retry: false,
      signal: options.signal,
    });
    return parsed(result, parseConnectionStarts, 'connect');
  }

  /** One connection's current row, for polling while a connection card is open. */
  async connectionStatus(
    connectionId: string,
    options: RequestOptions = {},
  ): Promise<GatewayResult<GatewayConnectionRow>> {
    const result = await this.request({
      method: 'GET',
      path: `v1/connectors/connections/${encodeURIComponent(connectionId)}`,
      timeoutMs: this.timeouts.statusMs,
      retry: false,
      signal: options.signal,
    });
    return parsed(result, parseConnectionRow, 'connection status');
  }

  /** Renames one account's alias. A refusal (unknown alias, alias taken) is a value, not a failure. */
  async renameAccount(
    connector: string,
    alias: string,
    to: string,
    options: RequestOptions = {},
  ): Promise<GatewayResult<GatewayRenameResult>> {
    const result = await this.request({
      method: 'POST',
      path: 'v1/connectors/accounts/rename',
      body: { connector, alias, to },
      timeoutMs: this.timeouts.renameMs,
      retry: false,
      signal: options.signal,
    });
    return parsed(result, parseRenameResponse, 'rename');
  }

  /**
   * Every tool of one connector app (for the person's per-tool policies). A gateway without this
   * endpoint answers 404, which comes back as a `dark` failure with status 404.
   */
  async listTools(connector: string, options: RequestOptions = {}): Promise<GatewayResult<GatewaySchema[]>> {
    const result = await this.request({
      method: 'GET',
      path: `v1/connectors/tools?${new URLSearchParams({ connector })}`,
      timeoutMs: this.timeouts.toolsMs,
      retry: true,
      signal: options.signal,
    });
    return parsed(result, parseToolsResponse, 'tools list');
  }

  private async request(call: Call): Promise<GatewayResult<unknown>> {
    if (this.baseUrl === undefined) {
      return failure('dark', 'No connector gateway is configured.');
    }
    let token: string | undefined;
    try {
      token = typeof this.token === 'function' ? await this.token() : this.token;
    } catch (error) {
      return failure('not_set_up', `The connector gateway token could not be read: ${errorMessage(error)}`);
    }
    if (token === undefined || token === '') {
      return failure('not_set_up', 'No one has signed in to the connector gateway yet.');
    }
    const url = new URL(call.path, this.baseUrl);
    let attempt = await this.attempt(url, token, call);
    if (call.retry && isRetryable(attempt)) {
      await delay(this.retryDelayMs, call.signal);
      attempt = await this.attempt(url, token, call);
    }
    return this.interpret(attempt, url);
  }

  private async attempt(url: URL, token: string, call: Call): Promise<Attempt> {
    throwIfCancelled(call.signal);
    const timeout = AbortSignal.timeout(call.timeoutMs);
    const signal = call.signal === undefined ? timeout : AbortSignal.any([call.signal, timeout]);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      ...call.headers,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
        redirect: 'error',
      });
      const text = await readLimited(response, this.maxResponseBytes);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const body = parseJson(text);
      return retryAfterMs === undefined
        ? { kind: 'response', status: response.status, body }
        : { kind: 'response', status: response.status, body, retryAfterMs };
    } catch (error) {
      throwIfCancelled(call.signal);
      if (timeout.aborted) {
        return { kind: 'transport', message: `no answer within ${formatSeconds(call.timeoutMs)}` };
      }
      return { kind: 'transport', message: describeTransportError(error) };
    }
  }

  private interpret(attempt: Attempt, url: URL): GatewayResult<unknown> {
    const where = `the connector gateway at ${url.origin}`;
    if (attempt.kind === 'transport') {
      return failure('unreachable', `Could not reach ${where}: ${attempt.message}.`);
    }
    const { status, body } = attempt;
    if (status >= 200 && status < 300) return { ok: true, value: body };
    const error = parseErrorBody(body);
    const detail = error.message === undefined ? '' : `: ${error.message}`;
    const extra = {
      status,
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(attempt.retryAfterMs === undefined ? {} : { retryAfterMs: attempt.retryAfterMs }),
    };
    if (status === 401 || (error.code !== undefined && SIGN_IN_CODES.has(error.code))) {
      return failure(
        'sign_in_expired',
        `${capitalize(where)} refused the sign-in (HTTP ${status})${detail}.`,
        extra,
      );
    }
    if (status === 404) {
      return failure('dark', `${capitalize(where)} has no connectors here (HTTP 404).`, extra);
    }
    return failure('unreachable', `${capitalize(where)} answered HTTP ${status}${detail}.`, extra);
  }
}

function parseBaseUrl(value: string | undefined): URL | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ToolbridgeError('INVALID_ARGUMENT', `The connector gateway URL "${value}" is not a valid URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The connector gateway URL must be http or https, not ${url.protocol}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      'The connector gateway URL must not contain a user name or password; the token goes in the secret store.',
    );
  }
  // Paths resolve relative to the base, so it must end with a slash to keep its last segment.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return url;
}

function failure(
  kind: GatewayFailureKind,
  message: string,
  extra: Omit<GatewayFailure, 'kind' | 'message'> = {},
): { ok: false; failure: GatewayFailure } {
  return { ok: false, failure: { kind, message, ...extra } };
}

function parsed<T>(
  result: GatewayResult<unknown>,
  parse: (body: unknown) => T | undefined,
  what: string,
): GatewayResult<T> {
  if (!result.ok) return result;
  const value = parse(result.value);
  if (value === undefined) {
    return failure(
      'unreachable',
      `The connector gateway sent a ${what} answer that is not in the expected form.`,
    );
  }
  return { ok: true, value };
}

function isRetryable(attempt: Attempt): boolean {
  return attempt.kind === 'transport' || attempt.status >= 500;
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolbridgeError('CANCELLED', 'The connector gateway request was cancelled.');
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref?.();
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new Error(`the answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Node's fetch hides the socket error in `cause`; that is the useful part. */
function describeTransportError(error: unknown): string {
  const cause =
    isPlainObject(error) || error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return errorMessage(error);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
