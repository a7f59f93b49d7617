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

/** The descriptions of the given top-level parameters, space-separated. */
export function parameterDescriptions(properties: Record<string, unknown>, names: readonly string[]): string {
  return names
    .map((key) => {
      const property = properties[key];
      return isPlainObject(property) && typeof property.description === 'string' ? property.description : '';
    })
    .filter((text) => text !== '')
    .join(' ');
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
  const parameters = properties === undefined ? [] : Object.keys(properties);
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

const isNameSeparator = (char: string | undefined): boolean => char === undefined || /[_.:\-\s]/.test(char);

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
    lastLabelIsOneWord = !/[_.:\-\s]/.test(label);
  }
  if (!lastLabelIsOneWord) return false;
  for (let at = name.indexOf(label, start); at >= 0; at = name.indexOf(label, at + 1)) {
    if ((at === start || isNameSeparator(name[at - 1])) && isNameSeparator(name[at + label.length])) {
      return true;
    }
  }
  return false;
}
