import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../base/json.js';
import type { AsyncDisposable } from '../base/lifecycle.js';

export interface StdioRelayOptions {
  /** The running host's agent endpoint, e.g. `http://127.0.0.1:43117/mcp`. */
  endpointUrl: string;
  token: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Where relay problems are reported; never stdout, which carries the protocol. */
  log?: (line: string) => void;
}

/**
 * `toolbridge mcp --connect URL`: passes JSON-RPC messages unchanged between an agent on stdio
 * and a running host's HTTP endpoint, so approvals, cards and servers stay in that one host.
 */
export class StdioRelay implements AsyncDisposable {
  private readonly stdio: StdioServerTransport;
  private readonly http: StreamableHTTPClientTransport;
  private readonly log: (line: string) => void;
  private readonly endpointUrl: string;
  private closed = false;
  private resolveDone!: () => void;

  /** Resolves when either side has closed. */
  readonly done = new Promise<void>((resolve) => {
    this.resolveDone = resolve;
  });

  constructor(options: StdioRelayOptions) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.endpointUrl = options.endpointUrl;
    this.stdio = new StdioServerTransport(options.stdin, options.stdout);
    this.http = new StreamableHTTPClientTransport(new URL(options.endpointUrl), {
      requestInit: { headers: { Authorization: `Bearer ${options.token}` } },
    });
    this.stdio.onmessage = (message) => {
      this.http.send(message).catch((error: unknown) => this.fail(message, error));
    };
    this.http.onmessage = (message) => {
      this.learnProtocolVersion(message);
      this.stdio.send(message).catch(() => void this.close());
    };
    this.http.onerror = (error) => this.log(`toolbridge mcp: endpoint error: ${error.message}`);
    this.stdio.onclose = () => void this.close();
    this.http.onclose = () => void this.close();
    (options.stdin ?? process.stdin).once('end', () => void this.close());
  }

  async start(): Promise<void> {
    await this.http.start();
    await this.stdio.start();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.http.terminateSession().catch(() => undefined);
    await Promise.allSettled([this.http.close(), this.stdio.close()]);
    this.resolveDone();
  }

  /** Later requests must carry the negotiated version, as the SDK client would send it. */
  private learnProtocolVersion(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message)) return;
    const version = isPlainObject(message.result) ? message.result.protocolVersion : undefined;
    if (typeof version === 'string') this.http.setProtocolVersion(version);
  }

  /** A request that never reached the host gets an error answer, so the agent does not wait forever. */
  private fail(message: JSONRPCMessage, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.log(`toolbridge mcp: could not reach the host at ${this.endpointUrl}: ${reason}`);
    if ('id' in message && 'method' in message) {
      void this.stdio
        .send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `Toolbridge host unreachable: ${reason}` },
        })
        .catch(() => undefined);
    }
  }
}
