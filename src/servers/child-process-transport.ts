/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport, with what a host that
 * supervises many servers needs on top:
 * - the child leads its own process group, and stopping signals the whole group, so a server's own
 *   children (a shell's background job, a wrapper's worker) never outlive it;
 * - stderr is always drained into a callback (never inherited, never left to fill a pipe);
 * - the environment is the SDK's short default list plus the server's own env, never ours whole.
 * Stopping: end stdin, wait, SIGTERM the group, wait, SIGKILL the group; all timers are unref'd.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolbridgeError } from '../base/errors.js';
import { delay, groupAlive, PROCESS_GROUPS, signalGroup, waitGroupGone } from './process-group.js';

export interface ChildProcessTransportOptions {
  command: string;
  args?: string[];
  /** Added to the SDK's default environment (HOME, PATH, …). */
  env?: Record<string, string>;
  cwd?: string;
  /** Wait at each shutdown step before escalating. @defaultValue 2000 */
  stopGraceMs?: number;
  /** A single message (line) larger than this closes the connection. @defaultValue 10 MiB */
  maxMessageBytes?: number;
  /** Receives stderr text as it arrives (UTF-8 decoded). */
  onStderr?: (text: string) => void;
  /** Called once the child runs, with its pid (= its process group id). */
  onSpawn?: (pid: number) => void;
}

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
  private readonly readBuffer: ReadBuffer;
  private readonly stopGraceMs: number;
  private readonly maxMessageBytes: number;
  private failureReason: string | undefined;

  constructor(private readonly options: ChildProcessTransportOptions) {
    this.stopGraceMs = options.stopGraceMs ?? 2_000;
    this.maxMessageBytes = options.maxMessageBytes ?? 10 * 1024 * 1024;
    this.readBuffer = new ReadBuffer({ maxBufferSize: this.maxMessageBytes });
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  /** The child's pid, which is also its process group id (POSIX). */
  get pid(): number | undefined {
    return this.childPid;
  }

  /** Why the transport closed itself (a protocol fault), if it did. */
  get failure(): string | undefined {
    return this.failureReason;
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
        env: { ...getDefaultEnvironment(), ...env },
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
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
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
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      this.failureReason = `it sent a message over ${Math.round(this.maxMessageBytes / 1024 / 1024)} MiB`;
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    while (true) {
      try {
        const message = this.readBuffer.readMessage();
        if (message === null) break;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC: report it and read on.
        this.onerror?.(error as Error);
      }
    }
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (child && !this.closed) {
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      if (!(await this.waitClosed())) {
        this.signalGroup('SIGTERM');
        if (!(await this.waitClosed())) {
          this.signalGroup('SIGKILL');
          await this.waitClosed();
        }
      }
    }
    // The server may be gone while others in its group live on (a background job): end them too.
    if (this.groupAlive()) {
      this.signalGroup('SIGTERM');
      if (!(await this.waitGroupGone())) {
        this.signalGroup('SIGKILL');
        await this.waitGroupGone();
      }
    }
    this.readBuffer.clear();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.resolveClosed();
  }

  private async waitClosed(): Promise<boolean> {
    if (this.closed) return true;
    return Promise.race([this.closedPromise.then(() => true), delay(this.stopGraceMs).then(() => false)]);
  }

  private groupAlive(): boolean {
    return this.childPid !== undefined && groupAlive(this.childPid);
  }

  private waitGroupGone(): Promise<boolean> {
    return this.childPid === undefined
      ? Promise.resolve(true)
      : waitGroupGone(this.childPid, this.stopGraceMs);
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
