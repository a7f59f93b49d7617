import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Names of Android apps drawn in the Arcticons icon pack (`@iconify-json/arcticons`, CC BY-SA 4.0):
 * some 15,000 apps from around the world (`tado`, `agoda`, `wolt`) that the brand lists mostly
 * lack. One-word names of at least four letters, starting with a letter.
 *
 * The pack's `icons.json` is 12 MB of drawings, one icon a few lines, keyed by name in code-unit
 * order (names starting with a digit come first). Reading and scanning it whole took a first query
 * about 25 ms, so a name is found by binary search over the file's byte offsets, each step reading
 * one small window; the aliases, 17 KB at the file's end, are read whole. A test checks the order
 * and compares the look-up with a scan of the whole file.
 */

// An icon's key at the start of its line: two tabs in, then `"name": {` (drawings are one line, three tabs in).
const KEY_START = Buffer.from('\n\t\t"', 'latin1');
const ALIASES_START = Buffer.from('\n\t"aliases": {', 'latin1');
const ALIAS_KEY = /\n\t\t"([a-z0-9]+)": \{/g;
const NAME = /^[a-z][a-z0-9]*$/;
const MIN_LETTERS = 4;
// Keys are at most a few kilobytes apart: a window holds the next one, or is read again further on.
const WINDOW_BYTES = 16 * 1024;
const TAIL_BYTES = 64 * 1024;

// The file stays open for the process's look-ups, as a loaded list would stay in memory.
interface IconFile {
  fd: number;
  iconsEnd: number;
  aliases: ReadonlySet<string>;
  window: Buffer;
}

let file: IconFile | undefined;
const answers = new Map<string, boolean>();

export function isAppIconName(word: string): boolean {
  if (!NAME.test(word) || word.replace(/[0-9]/g, '').length < MIN_LETTERS) return false;
  let answer = answers.get(word);
  if (answer === undefined) {
    file ??= openIconFile();
    answer = file.aliases.has(word) || firstKeyFrom(file, searchKey(file, word))?.key === word;
    answers.set(word, answer);
  }
  return answer;
}

const ICON_FILE = createRequire(import.meta.url).resolve('@iconify-json/arcticons/icons.json');

/** The path of the pack's icon file. */
export function iconFilePath(): string {
  return ICON_FILE;
}

function openIconFile(): IconFile {
  const fd = openSync(ICON_FILE, 'r');
  try {
    const size = fstatSync(fd).size;
    const tailStart = Math.max(0, size - TAIL_BYTES);
    const tail = Buffer.alloc(size - tailStart);
    readSync(fd, tail, 0, tail.length, tailStart);
    const at = tail.lastIndexOf(ALIASES_START);
    if (at < 0) throw new Error(`${ICON_FILE}: no "aliases" near the end; the icon pack's layout changed`);
    const aliases = new Set<string>();
    for (const [, key] of tail.toString('latin1', at).matchAll(ALIAS_KEY)) aliases.add(key!);
    return { fd, iconsEnd: tailStart + at, aliases, window: Buffer.alloc(WINDOW_BYTES) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The offset where the first icon key not below `word` starts its line (or the icons' end). */
function searchKey(icons: IconFile, word: string): number {
  let low = 0;
  let high = icons.iconsEnd;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const found = firstKeyFrom(icons, middle);
    if (found !== undefined && found.at < high && found.key < word) low = found.at + 1;
    else high = middle;
  }
  return low;
}

/** The first icon key whose line starts at or after `from`, and where. */
function firstKeyFrom(icons: IconFile, from: number): { key: string; at: number } | undefined {
  const { fd, window, iconsEnd } = icons;
  for (let start = from; start < iconsEnd; start += WINDOW_BYTES - KEY_START.length) {
    const read = readSync(fd, window, 0, Math.min(WINDOW_BYTES, iconsEnd - start), start);
    const at = window.subarray(0, read).indexOf(KEY_START);
    if (at < 0) continue;
    const keyStart = at + KEY_START.length;
    const keyEnd = window.indexOf(0x22, keyStart);
    // A key cut by the window's end: read again from its line.
    if (keyEnd < 0 || keyEnd >= read) {
      if (at === 0) return undefined; // longer than a window: not this file's layout
      start += at - (WINDOW_BYTES - KEY_START.length);
      continue;
    }
    return { key: window.toString('latin1', keyStart, keyEnd), at: start + at };
  }
  return undefined;
}
