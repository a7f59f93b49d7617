/**
 * MCP's stdio framing (one JSON-RPC message per line) with a bound on a line's length. A longer
 * line is skipped up to its newline, keeping only its first and last bytes (where a response's
 * `id` sits), so one oversized message costs that message, never the connection, and never more
 * memory than the bound.
 */

/** Bytes kept from each end of an oversized line. */
const EDGE_BYTES = 256;

export interface OversizedLine {
  /** The whole line's length in bytes (without the newline). */
  bytes: number;
  head: string;
  tail: string;
}

export type LineEvent = { line: string } | { oversized: OversizedLine };

export class LineReader {
  private parts: Buffer[] = [];
  private length = 0;
  private skipped: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(readonly maxLineBytes: number) {}

  /** The complete lines (or oversized-line reports) that `chunk` finishes, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline < 0 ? chunk.length : newline);
      this.take(piece);
      if (newline < 0) break;
      events.push(this.endLine());
      start = newline + 1;
    }
    return events;
  }

  /** Drops a partial line (on close). */
  clear(): void {
    this.parts = [];
    this.length = 0;
    this.skipped = undefined;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipped) {
      this.skipped.bytes += piece.length;
      this.skipped.tail = lastBytes(Buffer.concat([this.skipped.tail, piece]));
      return;
    }
    if (this.length + piece.length <= this.maxLineBytes) {
      this.parts.push(piece);
      this.length += piece.length;
      return;
    }
    const all = [...this.parts, piece];
    const bytes = this.length + piece.length;
    this.skipped = {
      bytes,
      head: Buffer.concat(all, Math.min(EDGE_BYTES, bytes)),
      tail: lastBytes(Buffer.concat(all.slice(-2))),
    };
    this.parts = [];
    this.length = 0;
  }

  private endLine(): LineEvent {
    if (this.skipped) {
      const { bytes, head, tail } = this.skipped;
      this.skipped = undefined;
      return { oversized: { bytes, head: head.toString('utf8'), tail: tail.toString('utf8') } };
    }
    const line = Buffer.concat(this.parts, this.length).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.length = 0;
    return { line };
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,"result":…` (id first, as many servers write it). */
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"`,
);
/** `{"result":…,"jsonrpc":"2.0","id":7}` (id last, as the MCP SDK writes it). */
const RESULT_FIRST = /^\s*\{\s*"(?:result|error)"\s*:/;
const ID_LAST = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The `id` of a JSON-RPC response whose line was too long to parse, read from its first and last
 * bytes; undefined when the line does not look like a response (a request, a notification, noise).
 */
export function responseIdOf(line: OversizedLine): string | number | undefined {
  const match = ID_FIRST.exec(line.head) ?? (RESULT_FIRST.test(line.head) ? ID_LAST.exec(line.tail) : null);
  if (!match?.[1]) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}
