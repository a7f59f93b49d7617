/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport, with what a host that
 * supervises many servers needs on top:
 * - the child leads its own process group, and stopping signals the whole group, so a server's own
 *   children (a shell's background job, a wrapper's worker) never outlive it;
 * - stderr is always drained into a callback (never inherited, never left to fill a pipe);
 * - the environment is the SDK's short default list plus the server's own env, never ours whole.
 * - the environment carries a lease token (`TOOLBRIDGE_LEASE`), so descendants that leave the group
 *   (setsid) are found and stopped too (process-reaper.ts).
 * Stopping takes one grace period at most: end stdin, wait up to half of it, SIGTERM the group and
 * every process with our token, wait out the rest, SIGKILL whatever is left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ToolbridgeError } from '../base/errors.js';
import { LineReader, type OversizedLine, responseIdOf } from './line-reader.js';
import { delay, PROCESS_GROUPS, signalGroup } from './process-group.js';
import { LEASE_TOKEN_ENV, newLeaseToken, stopProcesses, within } from './process-reaper.js';

export interface ChildProcessTransportOptions {
  command: string;
  args?: string[];
  /** Added to the SDK's default environment (HOME, PATH, …). */
  env?: Record<string, string>;
  cwd?: string;
  /** The longest a stop waits before SIGKILL (half for stdin's end, the rest after SIGTERM). @defaultValue 2000 */
  stopGraceMs?: number;
  /** Put in the child's environment as `TOOLBRIDGE_LEASE`. @defaultValue a new random token */
  leaseToken?: string;
  /**
   * A single message (line) larger than this is skipped, not parsed: the request it answers fails
   * with an error naming the size (see MESSAGE_TOO_LARGE) and the connection stays. @defaultValue 10 MiB
   */
  maxMessageBytes?: number;
  /** Receives stderr text as it arrives (UTF-8 decoded). */
  onStderr?: (text: string) => void;
  /** Called once the child runs, with its pid (= its process group id) and lease token. */
  onSpawn?: (pid: number, leaseToken: string) => void;
}

/** `error.data.reason` of the answer that replaces one over `maxMessageBytes`. */
export const MESSAGE_TOO_LARGE = 'message-too-large';

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private childPid: number | undefined;
  private exitInfo: ChildExit | undefined;
  private closed = false;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;
  private shutdown: Promise<void> | undefined;
  private readonly lines: LineReader;
  /** Ids of our requests still waiting for an answer, to fail the one an oversized line answers. */
  private readonly pending = new Set<RequestId>();
  private readonly stopGraceMs: number;
  private readonly maxMessageBytes: number;
  private readonly leaseToken: string;

  constructor(private readonly options: ChildProcessTransportOptions) {
    this.stopGraceMs = options.stopGraceMs ?? 2_000;
    this.leaseToken = options.leaseToken ?? newLeaseToken();
    this.maxMessageBytes = options.maxMessageBytes ?? 10 * 1024 * 1024;
    this.lines = new LineReader(this.maxMessageBytes);
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  /** The child's pid, which is also its process group id (POSIX). */
  get pid(): number | undefined {
    return this.childPid;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child || this.shutdown) throw new Error('ChildProcessTransport already started');
    const { command, args = [], env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      let spawned = false;
      const child = spawn(command, args, {
        env: { ...getDefaultEnvironment(), ...env, [LEASE_TOKEN_ENV]: this.leaseToken },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: PROCESS_GROUPS,
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.once('spawn', () => {
        spawned = true;
        this.childPid = child.pid;
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid, this.leaseToken);
        resolve();
      });
      child.on('error', (error) => {
        if (spawned) {
          this.onerror?.(error);
          return;
        }
        this.markClosed();
        reject(
          new ToolbridgeError(
            'SERVER_UNAVAILABLE',
            `Could not start "${command}": ${error.message}. Check that the command exists and is executable${cwd ? ` in ${cwd}` : ''}.`,
            { cause: error },
          ),
        );
      });
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        if (this.shutdown) return;
        // It died on its own: whatever it started may still hold our pipes open; end them too.
        this.signalGroup('SIGTERM');
        delay(this.stopGraceMs).then(() => {
          if (!this.closed) this.signalGroup('SIGKILL');
        });
      });
      child.once('close', () => {
        this.markClosed();
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.options.onStderr?.(text));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || this.shutdown) throw new Error('Not connected');
    if ('method' in message && 'id' in message) this.pending.add(message.id);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      this.pending.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    }
    if (!stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => stdin.once('drain', resolve));
    }
  }

  close(): Promise<void> {
    this.shutdown ??= this.stop();
    return this.shutdown;
  }

  private receive(chunk: Buffer): void {
    if (this.shutdown) return;
    for (const event of this.lines.push(chunk)) {
      if ('oversized' in event) {
        this.skipOversized(event.oversized);
        continue;
      }
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(event.line);
      } catch (error) {
        // A line that is not JSON-RPC: report it and read on.
        this.onerror?.(error as Error);
        continue;
      }
      if (!('method' in message) && 'id' in message && message.id !== undefined)
        this.pending.delete(message.id);
      this.onmessage?.(message);
    }
  }

  /** Fails the request an oversized answer was for (if its id can be read), and reads on. */
  private skipOversized(line: OversizedLine): void {
    const id = responseIdOf(line);
    const size = `${mebibytes(line.bytes)} (${line.bytes} bytes)`;
    const limit = mebibytes(this.maxMessageBytes);
    if (id === undefined || !this.pending.delete(id)) {
      this.onerror?.(new Error(`skipped a stdout line of ${size}, over the ${limit} limit for one message`));
      return;
    }
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InternalError,
        message: `The server's answer was ${size}, over the ${limit} limit for one message from a stdio server; it was dropped and the server stays connected.`,
        data: { reason: MESSAGE_TOO_LARGE, bytes: line.bytes, limitBytes: this.maxMessageBytes },
      },
    });
  }

  private async stop(): Promise<void> {
    const deadline = Date.now() + this.stopGraceMs;
    const child = this.child;
    if (child && !this.closed) {
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      await this.waitClosed(this.stopGraceMs / 2);
    }
    if (!PROCESS_GROUPS) {
      if (!this.closed) child?.kill('SIGKILL');
    } else if (this.childPid !== undefined) {
      // The server, what is left of its group (a background job) and descendants that left it.
      await stopProcesses(
        { groups: [this.childPid], tokens: [this.leaseToken] },
        Math.max(0, deadline - Date.now()),
      );
    }
    // A survivor holding our pipes would keep 'close' from firing: let go of them.
    if (!(await this.waitClosed(this.stopGraceMs / 2))) {
      for (const stream of [child?.stdin, child?.stdout, child?.stderr]) stream?.destroy();
    }
    this.lines.clear();
    this.pending.clear();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.resolveClosed();
  }

  /** Waits (keeping the process alive) until the child's pipes closed, or `ms`; true when closed. */
  private async waitClosed(ms: number): Promise<boolean> {
    return this.closed || within(this.closedPromise, ms);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.childPid === undefined) return;
    if (PROCESS_GROUPS) signalGroup(this.childPid, signal);
    else {
      try {
        this.child?.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
