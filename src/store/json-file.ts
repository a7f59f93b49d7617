/** A small JSON document on disk (read whole, written whole through the atomic writer, 0600). */
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

export interface JsonFile {
  /** The parsed value; undefined when the file is missing or not JSON. */
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
}

/**
 * The JSON file at `filePath`. `readOnly` (a process beside the app, `toolbridge mcp`) reads it
 * and drops its writes, so what it records holds for its own run only.
 */
export function jsonFile(filePath: string, options: { readOnly?: boolean } = {}): JsonFile {
  return {
    async read() {
      try {
        return JSON.parse(await fs.readFile(filePath, 'utf8'));
      } catch {
        return undefined;
      }
    },
    async write(value) {
      if (options.readOnly === true) return;
      return writeFileAtomic(filePath, `${JSON.stringify(value, null, 2)}\n`);
    },
  };
}
