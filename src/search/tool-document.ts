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

/**
 * Reads any entry safely: a missing or malformed description, schema or keyword list is empty
 * text. Parameter descriptions are read only when asked for (they are most of a schema's text).
 */
export function toolDocumentText(entry: IndexEntry, withParameterDescriptions = false): ToolDocumentText {
  const name = entry.name.startsWith(MCP_PREFIX) ? entry.name.slice(MCP_PREFIX.length) : entry.name;
  const label = typeof entry.server === 'string' ? entry.server : '';
  const server = label !== '' && !isNameWord(name, label) ? label : '';
  const properties = isPlainObject(entry.inputSchema) ? entry.inputSchema.properties : undefined;
  const parameterNames = isPlainObject(properties) ? Object.keys(properties) : [];
  const parameterDescriptions = (withParameterDescriptions ? parameterNames : [])
    .map((key) => {
      const property = (properties as Record<string, unknown>)[key];
      return isPlainObject(property) && typeof property.description === 'string' ? property.description : '';
    })
    .filter((text) => text !== '');
  const keywords = Array.isArray(entry.keywords)
    ? entry.keywords.filter((word): word is string => typeof word === 'string')
    : [];
  return {
    name,
    server,
    description: typeof entry.description === 'string' ? entry.description : '',
    parameters: parameterNames,
    parameterDescriptions: parameterDescriptions.join(' '),
    keywords: keywords.join(' '),
  };
}

const isNameSeparator = (char: string | undefined): boolean => char === undefined || /[_.:\-\s]/.test(char);

/**
 * Whether `label` is one of the name's words, the name split at `_ . : -` and whitespace. Compared
 * as an untokenised string, as the reference does, so a label like `cloudflare-api` never is.
 */
function isNameWord(name: string, label: string): boolean {
  if (/[_.:\-\s]/.test(label)) return false;
  for (let at = name.indexOf(label); at >= 0; at = name.indexOf(label, at + 1)) {
    if (isNameSeparator(name[at - 1]) && isNameSeparator(name[at + label.length])) return true;
  }
  return false;
}
