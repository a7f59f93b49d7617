/**
 * Binary search in a file of lines sorted bytewise by their first field (a dictionary, WordNet's
 * index): the file stays bytes, so loading it parses nothing and a look-up costs a few steps.
 */

const SPACE = 32;
const NEWLINE = 10;

/** Where the line whose first field is `key` (lower-case ASCII) starts, or -1. */
export function findSortedLine(lines: Uint8Array, key: string): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const start = lineStart(lines, (low + high) >>> 1, low);
    const order = compareField(lines, start, key);
    if (order === 0) return start;
    if (order < 0) low = lineEnd(lines, start) + 1;
    else high = start;
  }
  return -1;
}

/** The end of the line starting at `start` (its newline, or the end of the file). */
export function lineEnd(lines: Uint8Array, start: number): number {
  const end = lines.indexOf(NEWLINE, start);
  return end < 0 ? lines.length : end;
}

function lineStart(lines: Uint8Array, at: number, floor: number): number {
  let start = at;
  while (start > floor && lines[start - 1] !== NEWLINE) start--;
  return start;
}

/** The line's first field against `key`: < 0 when it sorts before, 0 when equal, > 0 after. */
function compareField(lines: Uint8Array, start: number, key: string): number {
  for (let i = 0; ; i++) {
    const code = lines[start + i] ?? NEWLINE;
    const ended = code === SPACE || code === NEWLINE;
    if (i === key.length) return ended ? 0 : 1;
    if (ended) return -1;
    if (code !== key.charCodeAt(i)) return code - key.charCodeAt(i);
  }
}
