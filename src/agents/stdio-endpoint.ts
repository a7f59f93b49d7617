import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { createAgentMcpServer, type SurfaceProvider } from './mcp-session.js';
import { refusalResponse, refuseAgentMessage } from './message-guard.js';

/**
 * The agent endpoint over stdio, for agents that spawn their tools (`toolbridge mcp`). The
 * process itself is the credential here: whoever spawned us is the agent, so no token.
 */
export class StdioEndpoint implements AsyncDisposable {
  private readonly server: Server;
  private readonly transport: StdioServerTransport;
  private closed = false;

  /** Resolves when the agent closes our stdin (or close() is called). */
  readonly done: Promise<void>;

  constructor(agentId: string, surfaces: SurfaceProvider, io: { stdin?: Readable; stdout?: Writable } = {}) {
    this.server = createAgentMcpServer(agentId, surfaces);
    this.transport = new StdioServerTransport(io.stdin, io.stdout);
    this.done = new Promise<void>((resolve) => {
      this.server.onclose = () => resolve();
      // The SDK transport does not notice the end of stdin; an agent that exits closes it.
      (io.stdin ?? process.stdin).once('end', () => void this.close());
    });
  }

  async start(): Promise<void> {
    await this.server.connect(this.transport);
    // The same edge as over HTTP: refused requests are answered here and never reach the server.
    const deliver = this.transport.onmessage;
    this.transport.onmessage = (message: JSONRPCMessage) => {
      const refusal = refuseAgentMessage(message);
      if (refusal === undefined) return deliver?.(message);
      this.transport.send(refusalResponse(refusal)).catch(() => undefined);
    };
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
    await this.server.close();
  }
}
