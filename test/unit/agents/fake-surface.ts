import type { Readable, Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import type { AgentSurface, CallContext } from '../../../src/bridge/types.js';

/** A surface with an echo tool, a tool that waits for its abort signal, and a switchable extra tool. */
export class FakeSurface implements AgentSurface {
  extraTool = false;
  readonly aborted: string[] = [];
  readonly calls: CallContext[] = [];
  constructor(private readonly label: string) {}

  listTools(): Tool[] {
    const tools: Tool[] = [
      { name: 'echo', description: `echo for ${this.label}`, inputSchema: { type: 'object' } },
      { name: 'wait', description: 'waits until cancelled', inputSchema: { type: 'object' } },
    ];
    if (this.extraTool) tools.push({ name: 'extra', inputSchema: { type: 'object' } });
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult> {
    this.calls.push(context);
    if (name === 'echo')
      return { content: [{ type: 'text', text: `${this.label}: ${String(args.message)}` }] };
    if (name === 'wait') {
      return new Promise((_, reject) => {
        context.signal?.addEventListener('abort', () => {
          this.aborted.push(context.agentId);
          reject(new ToolbridgeError('CANCELLED', 'cancelled'));
        });
      });
    }
    throw new ToolbridgeError('NOT_FOUND', `Unknown tool "${name}".`);
  }
}

/** The client end of a stdio pipe pair: what an agent that spawned us would hold. */
export class StreamClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
    this.input.on('end', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.output.end();
    this.onclose?.();
  }
}
