import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ValidateFunction } from 'ajv';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { endSocketWithStatus } from '../agents/http-response.js';
import {
  type ToolbridgeApi,
  UI_EVENTS,
  UI_METHODS,
  type UiSocketMessage,
  type UiSocketRequest,
} from '../api/ui-api.js';
import { errorSummary } from '../base/errors.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { ajvMessage, dispatchUiCall, uiAjv } from '../host/ui-dispatcher.js';

export interface UiSocketServerOptions {
  /**
   * The one API every call goes to; its events are forwarded to every socket. `attachUi`, when
   * the API has it (the host's does), counts each open page as a UI that can show cards.
   */
  api: ToolbridgeApi & { attachUi?(): { dispose(): void } };
  /**
   * Frames a socket may send: `burst` at once, refilled at `perSecond`. A socket that floods is
   * closed with 1008; the page reconnects.
   * @defaultValue `{ perSecond: 50, burst: 200 }`
   */
  rateLimit?: { perSecond: number; burst: number };
  /**
   * How often to ping; a socket that has not answered the previous ping is dropped.
   * @defaultValue 30_000
   */
  pingIntervalMs?: number;
  /** Clock for the rate limit (tests). @defaultValue `Date.now` */
  now?: () => number;
  /** Where unexpected errors go. @defaultValue one line on `console.error`, without the error's message */
  log?: (message: string, error?: unknown) => void;
}

/** Largest frame we accept; ws closes a bigger one with 1009 before reading it all. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** A socket whose unsent data grows past this is too slow to keep. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * The UI API over WebSocket: each frame names a method in `UI_METHODS`, is schema-checked and
 * forwarded to the same `ToolbridgeApi` the Electron IPC uses; replies go back as `UiReply` by id
 * and every `UI_EVENTS` event is pushed to every open socket. Authorisation (cookie, Origin,
 * Host) happens before `accept`.
 */
export class UiSocketServer implements AsyncDisposable {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
    clientTracking: true,
  });
  private readonly alive = new WeakSet<WebSocket>();
  private readonly pingTimer: NodeJS.Timeout;
  private readonly rate: { perSecond: number; burst: number };
  private readonly now: () => number;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(private readonly options: UiSocketServerOptions) {
    // A handshake ws refuses (bad key, version, method, subprotocol) is answered with our headers.
    this.wss.on('wsClientError', (error: Error, socket: Duplex, req: IncomingMessage) =>
      endSocketWithStatus(
        socket,
        req.socket.localPort ?? 0,
        req.method === 'GET' ? 400 : 405,
        `Bad WebSocket handshake: ${error.message}. Send GET with Upgrade: websocket, Sec-WebSocket-Version: 13 and a base64 16-byte Sec-WebSocket-Key.`,
      ),
    );
    this.rate = options.rateLimit ?? { perSecond: 50, burst: 200 };
    this.now = options.now ?? Date.now;
    this.log =
      options.log ??
      ((message, error) =>
        console.error(`toolbridge: ${message}${error === undefined ? '' : ` (${errorSummary(error)})`}`));
    this.pingTimer = setInterval(() => this.pingAll(), options.pingIntervalMs ?? 30_000);
    this.pingTimer.unref();
  }

  get connectionCount(): number {
    return this.wss.clients.size;
  }

  /** Completes an upgrade the caller has already authorised. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws));
  }

  /** Closes every open socket, e.g. when the UI secret is rotated or the UI is locked. */
  closeAll(code: number, reason: string): void {
    for (const ws of this.wss.clients) ws.close(code, reason);
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private serve(ws: WebSocket): void {
    this.alive.add(ws);
    const unsubscribes = UI_EVENTS.map((event) =>
      this.options.api.on(event, (payload) => this.send(ws, { type: 'event', event, payload })),
    );
    let tokens = this.rate.burst;
    let refilledAt = this.now();
    ws.on('pong', () => this.alive.add(ws));
    // Protocol errors (oversized or malformed frames) close the socket; ws reports them here first.
    ws.on('error', () => ws.terminate());
    const presence = this.options.api.attachUi?.();
    ws.on('close', () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      presence?.dispose();
    });
    ws.on('message', (data, isBinary) => {
      const now = this.now();
      tokens = Math.min(this.rate.burst, tokens + ((now - refilledAt) / 1000) * this.rate.perSecond);
      refilledAt = now;
      if (tokens < 1) {
        ws.close(1008, 'Too many messages; slow down and reconnect.');
        return;
      }
      tokens -= 1;
      // No frame may throw past here: a bug closes this one socket (the page reconnects), nothing else.
      this.handleFrame(ws, data, isBinary).catch((error: unknown) => {
        this.log('a UI frame could not be answered', error);
        ws.close(1011, 'Internal error; reconnect.');
      });
    });
  }

  private async handleFrame(ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    const request = this.parse(data, isBinary);
    if ('error' in request) {
      this.send(ws, { type: 'reply', id: request.id, reply: { ok: false, error: request.error } });
      return;
    }
    const reply = await dispatchUiCall(this.options.api, request.method, request.params, this.log);
    this.send(ws, { type: 'reply', id: request.id, reply });
  }

  private parse(
    data: RawData,
    isBinary: boolean,
  ): UiSocketRequest | { id: number | null; error: { code: string; message: string } } {
    const invalid = (id: number | null, message: string) => ({
      id,
      error: { code: 'INVALID_ARGUMENT', message },
    });
    if (isBinary) return invalid(null, 'Binary frames are not accepted; send JSON text.');
    let frame: unknown;
    try {
      frame = JSON.parse(rawToString(data));
    } catch {
      return invalid(null, 'The frame is not valid JSON.');
    }
    const id = frameId(frame);
    const validateRequest = requestValidator();
    if (!validateRequest(frame)) {
      return invalid(id, `The frame is not a UI request: ${ajvMessage(validateRequest)}.`);
    }
    // The parameters are checked by the dispatcher, the same as for IPC.
    return frame;
  }

  private send(ws: WebSocket, message: UiSocketMessage): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(JSON.stringify(message));
  }

  private pingAll(): void {
    for (const ws of this.wss.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}

/** The frame's envelope; compiled once per process. */
let compiled: ValidateFunction<UiSocketRequest> | undefined;

function requestValidator(): ValidateFunction<UiSocketRequest> {
  compiled ??= uiAjv().compile<UiSocketRequest>({
    type: 'object',
    required: ['id', 'method', 'params'],
    properties: {
      id: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      method: { enum: [...UI_METHODS] },
      params: { type: 'array', maxItems: 8 },
    },
    additionalProperties: false,
  });
  return compiled;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

function frameId(frame: unknown): number | null {
  if (typeof frame !== 'object' || frame === null) return null;
  const id = (frame as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null;
}
