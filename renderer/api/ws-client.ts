import {
  type ToolbridgeApi,
  UI_METHODS,
  type UiEventMap,
  type UiMethod,
  type UiSocketMessage,
  type UiSocketRequest,
} from '../../src/api/ui-api.js';
import { ToolbridgeError } from '../../src/base/errors.js';
import { rebuildError } from './rebuild-error.js';

/** The part of the browser's WebSocket we use, so tests can hand in the `ws` package's client. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'signed-out';

export interface WsClientOptions {
  url: string;
  /** @defaultValue the browser's `WebSocket` */
  createSocket?: (url: string) => SocketLike;
  /** Told about every connection change; `open` after a reconnect means "reload, events were missed". */
  onConnectionChange?: (state: ConnectionState) => void;
  /**
   * Asked after a socket drops: false means the session is gone (the page shows how to sign in
   * again) and the client stops reconnecting. @defaultValue always true
   */
  isStillSignedIn?: () => Promise<boolean>;
  /** Waits between reconnect attempts; the last one repeats. @defaultValue `[250, 1000, 2000, 5000]` */
  reconnectDelaysMs?: number[];
}

/** The host's close code for "signed out" (see src/web/web-ui.ts). */
const SESSION_REVOKED = 4001;
const OPEN = 1;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  frame: string;
  sent: boolean;
}

/**
 * `ToolbridgeApi` over the web UI's WebSocket. Calls made while disconnected wait for the next
 * connection; calls in flight when it drops fail with SERVER_UNAVAILABLE (the host may or may not
 * have run them). Errors come back as `ToolbridgeError`, rebuilt from the reply's code and message.
 */
export class WsClient {
  readonly api: ToolbridgeApi;
  private socket: SocketLike | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private currentState: ConnectionState = 'connecting';

  constructor(private readonly options: WsClientOptions) {
    const methods = Object.fromEntries(
      UI_METHODS.map((method) => [method, (...params: unknown[]) => this.request(method, params)]),
    );
    this.api = {
      ...methods,
      on: (event, listener) => this.subscribe(event, listener as (payload: unknown) => void),
    } as ToolbridgeApi;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  connect(): void {
    if (this.stopped) return;
    const create =
      this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    const socket = create(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.setState('open');
      for (const pending of this.pending.values()) {
        if (!pending.sent) {
          pending.sent = true;
          socket.send(pending.frame);
        }
      }
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {};
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.failInFlight();
      if (event.code === SESSION_REVOKED) this.signOut();
      else void this.scheduleReconnect();
    };
  }

  /** Stops for good: closes the socket and fails every waiting call. */
  close(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.close(1000, 'closing');
    this.socket = undefined;
    this.failAll(closedError());
  }

  private request(method: UiMethod, params: unknown[]): Promise<unknown> {
    if (this.stopped)
      return Promise.reject(this.currentState === 'signed-out' ? signedOutError() : closedError());
    const id = this.nextId++;
    // Optional trailing parameters left out would cross JSON as null; drop them instead.
    const trimmed = [...params];
    while (trimmed.length > 0 && trimmed[trimmed.length - 1] === undefined) trimmed.pop();
    const frame: UiSocketRequest = { id, method, params: trimmed };
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, frame: JSON.stringify(frame), sent: false };
      this.pending.set(id, pending);
      if (this.socket?.readyState === OPEN) {
        pending.sent = true;
        this.socket.send(pending.frame);
      }
    });
  }

  private subscribe(event: keyof UiEventMap, listener: (payload: unknown) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  private receive(data: unknown): void {
    let message: UiSocketMessage;
    try {
      message = JSON.parse(String(data)) as UiSocketMessage;
    } catch {
      return;
    }
    if (message.type === 'event') {
      for (const listener of [...(this.listeners.get(message.event) ?? [])]) {
        try {
          listener(message.payload);
        } catch (error) {
          console.error('toolbridge: an event listener threw', error);
        }
      }
      return;
    }
    if (message.id === null) return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    const reply = message.reply;
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(rebuildError(reply.error));
  }

  private async scheduleReconnect(): Promise<void> {
    if (this.stopped) return;
    this.setState('reconnecting');
    const signedIn = await (this.options.isStillSignedIn?.() ?? Promise.resolve(true)).catch(() => true);
    if (!signedIn) {
      this.signOut();
      return;
    }
    const delays = this.options.reconnectDelaysMs ?? [250, 1000, 2000, 5000];
    const delay = delays[Math.min(this.attempt, delays.length - 1)] ?? 1000;
    this.attempt++;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private signOut(): void {
    this.stopped = true;
    this.setState('signed-out');
    this.failAll(signedOutError());
  }

  private failInFlight(): void {
    for (const [id, pending] of this.pending) {
      if (!pending.sent) continue;
      this.pending.delete(id);
      pending.reject(
        new ToolbridgeError(
          'SERVER_UNAVAILABLE',
          'Lost the connection to Toolbridge before it answered; it may or may not have run. Check and retry.',
        ),
      );
    }
  }

  private failAll(error: ToolbridgeError): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private setState(state: ConnectionState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    this.options.onConnectionChange?.(state);
  }
}

function closedError(): ToolbridgeError {
  return new ToolbridgeError('CANCELLED', 'The page closed its connection to Toolbridge; reload it.');
}

function signedOutError(): ToolbridgeError {
  return new ToolbridgeError(
    'UNAUTHORIZED',
    'This page is signed out. Open the newest ui: link that `toolbridge serve` printed.',
  );
}
