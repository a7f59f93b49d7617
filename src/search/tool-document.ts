import { isPlainObject } from '../base/json.js';
import type { IndexEntry } from './types.js';

/** The text of one tool, per field, before tokenizing (reference §1.1). */
export interface ToolDocumentText {
  /** The name with a leading `mcp__` removed (its `_ . : -` separate words like any non-alphanumeric). */
  name: string;
  /** The server label, or '' when the entry has none or it is already one of the name words. */
  server: string;
  description: string;
  /** Top-level parameter names. */
  parameters: string[];
  /** Descriptions of the top-level parameters, space-separated. */
  parameterDescriptions: string;
  /** The entry's own extra search words. */
  keywords: string;
}

const MCP_PREFIX = 'mcp__';

/** Where a tool name's words start: after a leading `mcp__`. */
export function nameWordsStart(name: string): number {
  return name.startsWith(MCP_PREFIX) ? MCP_PREFIX.length : 0;
}

/** The entry's server label, or '' when it has none or the label is already one of its name words. */
export function serverLabel(entry: IndexEntry): string {
  const label = typeof entry.server === 'string' ? entry.server : '';
  return label !== '' && !isNameWord(entry.name, nameWordsStart(entry.name), label) ? label : '';
}

/** The schema's top-level `properties`, when it has any. */
export function schemaProperties(schema: unknown): Record<string, unknown> | undefined {
  const properties = isPlainObject(schema) ? schema.properties : undefined;
  return isPlainObject(properties) ? properties : undefined;
}

/**
 * The names of the schema's top-level parameters, as `Object.keys` gives them. Read through
 * `Object.entries`: `Object.keys` builds a cache on each new shape of object, and the parameter
 * objects of 100,000 tools come in about as many shapes, which made reading their names over a
 * tenth of a first build.
 */
export function parameterNames(properties: Record<string, unknown>): string[] {
  const pairs = Object.entries(properties);
  const names = new Array<string>(pairs.length);
  for (let i = 0; i < pairs.length; i++) names[i] = pairs[i]![0];
  return names;
}

/**
 * How many words of a tool's parameter descriptions are read. Their opening says in everyday words
 * what the tool takes (`head: the branch where your changes are`); past it an OpenAPI schema goes
 * on into formats, enums and examples, which make the tool long and hold every word. Measured at
 * weight 0.5: all of them cost dev keyword .007 and known items .013 (a long schema drowned
 * `cloudflare update waiting room`) and made a build 2.5 times as long; 60 and 80 words gain the
 * paraphrases a little more and cost known items 2 to 4 queries; 30 words gain half as much.
 */
export const PARAMETER_DESCRIPTION_WORDS = 40;

/**
 * The descriptions of the given top-level parameters, space-separated, up to
 * {@link PARAMETER_DESCRIPTION_WORDS} whitespace-separated words.
 */
export function parameterDescriptions(properties: Record<string, unknown>, names: readonly string[]): string {
  let joined = '';
  let words = 0;
  for (const key of names) {
    const property = properties[key];
    if (!isPlainObject(property) || typeof property.description !== 'string') continue;
    const text = property.description.trim();
    if (text === '') continue;
    const end = endAfterWords(text, PARAMETER_DESCRIPTION_WORDS - words);
    joined = joined === '' ? text.slice(0, end) : `${joined} ${text.slice(0, end)}`;
    words += lastWordCount;
    if (words >= PARAMETER_DESCRIPTION_WORDS) break;
  }
  return joined;
}

// What `\s` matches below U+0080, by table: every tool's parameter descriptions are read here on
// a first build, and a pattern over them was a tenth of it.
const ASCII_SPACES = new Uint8Array(128);
for (const char of ' \t\n\v\f\r') ASCII_SPACES[char.charCodeAt(0)] = 1;
const WIDE_SPACE = /\s/;

const isSpace = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return code < 128 ? ASCII_SPACES[code] === 1 : WIDE_SPACE.test(text[at]!);
};

// How many words the last `endAfterWords` kept (a second result without an object per call).
let lastWordCount = 0;

/** Where `text` (trimmed) ends after its `most`-th whitespace-separated word; sets `lastWordCount`. */
function endAfterWords(text: string, most: number): number {
  let words = 1;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text, i)) continue;
    if (words === most) {
      lastWordCount = words;
      return i;
    }
    words += 1;
    while (i + 1 < text.length && isSpace(text, i + 1)) i++;
  }
  lastWordCount = words;
  return text.length;
}

/** The entry's extra search words, space-separated ('' for a missing or malformed list). */
export function keywordText(entry: IndexEntry): string {
  return Array.isArray(entry.keywords)
    ? entry.keywords.filter((word): word is string => typeof word === 'string').join(' ')
    : '';
}

/**
 * Reads any entry safely: a missing or malformed description, schema or keyword list is empty
 * text. Parameter descriptions are read only when asked for (they are most of a schema's text).
 */
export function toolDocumentText(entry: IndexEntry, withParameterDescriptions = false): ToolDocumentText {
  const properties = schemaProperties(entry.inputSchema);
  const parameters = properties === undefined ? [] : parameterNames(properties);
  return {
    name: entry.name.slice(nameWordsStart(entry.name)),
    server: serverLabel(entry),
    description: typeof entry.description === 'string' ? entry.description : '',
    parameters,
    parameterDescriptions:
      withParameterDescriptions && properties !== undefined
        ? parameterDescriptions(properties, parameters)
        : '',
    keywords: keywordText(entry),
  };
}

const NAME_SEPARATOR = /[_.:\-\s]/;
// ASCII by table (every tool name is read here on a first build), anything else by the pattern.
const ASCII_NAME_SEPARATORS = new Uint8Array(128);
for (const char of '_.:- \t\n\v\f\r') ASCII_NAME_SEPARATORS[char.charCodeAt(0)] = 1;

/** Whether `text[at]` separates name words (`_ . : -` or whitespace), as the end of the text does. */
function isNameSeparator(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return true;
  const code = text.charCodeAt(at);
  return code < 128 ? ASCII_NAME_SEPARATORS[code] === 1 : NAME_SEPARATOR.test(text[at]!);
}

// The last label checked, and whether it can be a name word at all: most tools of a catalog share one.
let lastLabel = '';
let lastLabelIsOneWord = true;

/**
 * Whether `label` is one of the name's words, the name from `start` split at `_ . : -` and
 * whitespace. Compared as an untokenised string, as the reference does, so a label like
 * `cloudflare-api` never is.
 */
function isNameWord(name: string, start: number, label: string): boolean {
  if (label !== lastLabel) {
    lastLabel = label;
    lastLabelIsOneWord = !NAME_SEPARATOR.test(label);
  }
  if (!lastLabelIsOneWord) return false;
  for (let at = name.indexOf(label, start); at >= 0; at = name.indexOf(label, at + 1)) {
    if ((at === start || isNameSeparator(name, at - 1)) && isNameSeparator(name, at + label.length)) {
      return true;
    }
  }
  return false;
}
