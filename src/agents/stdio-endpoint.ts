import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { createAgentMcpServer, type SurfaceProvider } from './mcp-session.js';
import { refusalResponse, refuseAgentMessage } from './message-guard.js';
import type { UpstreamRelay } from './upstream-relay.js';

/** Longest message line read, as the HTTP endpoint's body limit. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

function invalidRequest(message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code: -32600, message } };
}

/**
 * The agent endpoint over stdio, for agents that spawn their tools (`toolbridge mcp`). The
 * process itself is the credential here: whoever spawned us is the agent, so no token.
 */
export class StdioEndpoint implements AsyncDisposable {
  private readonly server: Server;
  private readonly transport: StdioServerTransport;
  /** What the SDK transport reads: the agent's lines that passed the edge. */
  private readonly checked = new PassThrough();
  private readonly stdin: Readable;
  private pending = '';
  private closed = false;

  /** Resolves when the agent closes our stdin (or close() is called). */
  readonly done: Promise<void>;

  constructor(
    agentId: string,
    surfaces: SurfaceProvider,
    io: { stdin?: Readable; stdout?: Writable } = {},
    relay?: UpstreamRelay,
  ) {
    this.server = createAgentMcpServer(agentId, surfaces, relay);
    this.stdin = io.stdin ?? process.stdin;
    this.transport = new StdioServerTransport(this.checked, io.stdout);
    this.done = new Promise<void>((resolve) => {
      // The relay set its own first: keep it.
      const closed = this.server.onclose;
      this.server.onclose = () => {
        closed?.();
        resolve();
      };
      // The SDK transport does not notice the end of stdin; an agent that exits closes it.
      this.stdin.once('end', () => void this.close());
    });
  }

  async start(): Promise<void> {
    await this.server.connect(this.transport);
    this.stdin.on('data', this.onData);
    // An unheard stream error would end the process; a broken stdin ends this agent's session.
    this.stdin.on('error', this.onError);
  }

  /**
   * The same edge as over HTTP, one line (one message) at a time: a line that is not JSON, is
   * too long, or holds a request the edge refuses is answered here (the SDK would drop it
   * without a word, leaving the agent waiting); the rest goes on to the transport unchanged.
   */
  private readonly onData = (chunk: Buffer | string): void => this.screen(chunk.toString());
  private readonly onError = (): void => void this.close();

  private screen(text: string): void {
    this.pending += text;
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      if (line.trim() !== '') this.screenLine(line);
      newline = this.pending.indexOf('\n');
    }
    if (this.pending.length > MAX_LINE_CHARS) {
      this.pending = '';
      this.answer(
        invalidRequest(`A message is longer than ${MAX_LINE_CHARS} characters; send smaller messages.`),
      );
    }
  }

  private screenLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.answer({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a line is not JSON.' },
      });
      return;
    }
    const refusal = refuseAgentMessage(message);
    if (refusal === undefined) this.checked.write(`${line}\n`);
    else this.answer(refusalResponse(refusal));
  }

  private answer(message: JSONRPCMessage | Record<string, unknown>): void {
    this.transport.send(message as JSONRPCMessage).catch(() => undefined);
  }

  notifyToolsChanged(): void {
    if (this.closed) return;
    this.server.sendToolListChanged().catch(() => {
      // Not initialized yet, or the agent is gone: nothing to tell.
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Let go of stdin as the SDK transport would, or a flowing process.stdin keeps the process alive.
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.checked.end();
    await this.server.close();
  }
}
