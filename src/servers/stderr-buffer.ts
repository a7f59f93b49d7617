/**
 * The last lines a server wrote to stderr, bounded in lines and bytes so a chatty or hostile server
 * cannot grow our memory. Lines pass through `redact` before they are stored.
 */
export interface StderrBufferOptions {
  /** @defaultValue 200 */
  maxLines?: number;
  /** Total characters kept across lines. @defaultValue 65536 */
  maxChars?: number;
  /** Longer lines are cut and marked. @defaultValue 2000 */
  maxLineChars?: number;
  redact?: (line: string) => string;
}

export const DEFAULT_STDERR_OPTIONS = Object.freeze({
  maxLines: 200,
  maxChars: 64 * 1024,
  maxLineChars: 2000,
});

export class StderrBuffer {
  private readonly lines: string[] = [];
  private chars = 0;
  private partial = '';
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly maxLineChars: number;
  redact: (line: string) => string;

  constructor(options: StderrBufferOptions = {}) {
    this.maxLines = options.maxLines ?? DEFAULT_STDERR_OPTIONS.maxLines;
    this.maxChars = options.maxChars ?? DEFAULT_STDERR_OPTIONS.maxChars;
    this.maxLineChars = options.maxLineChars ?? DEFAULT_STDERR_OPTIONS.maxLineChars;
    this.redact = options.redact ?? ((line) => line);
  }

  /** Appends decoded text; an unfinished last line waits for the rest. */
  write(text: string): void {
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = this.cut(parts.pop() ?? '');
    for (const line of parts) this.push(line);
  }

  /** A note of our own (e.g. why the server stopped), marked so nobody takes it for the server's. */
  note(text: string): void {
    this.flush();
    this.push(`[toolbridge] ${text}`);
  }

  /** Ends a pending partial line (e.g. when the process exits). */
  flush(): void {
    if (this.partial === '') return;
    const line = this.partial;
    this.partial = '';
    this.push(line);
  }

  /** Oldest first, the unfinished line last. */
  tail(count = this.maxLines): string[] {
    const all = this.partial === '' ? this.lines : [...this.lines, this.redact(this.partial)];
    return all.slice(-count);
  }

  clear(): void {
    this.lines.length = 0;
    this.chars = 0;
    this.partial = '';
  }

  private cut(line: string): string {
    return line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… [cut]` : line;
  }

  private push(line: string): void {
    const stored = this.redact(this.cut(line));
    this.lines.push(stored);
    this.chars += stored.length;
    while (this.lines.length > this.maxLines || (this.chars > this.maxChars && this.lines.length > 1)) {
      this.chars -= this.lines.shift()?.length ?? 0;
    }
  }
}
