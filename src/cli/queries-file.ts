import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { isPlainObject } from '../base/json.js';
import { readTextFile } from './cli-catalog.js';

/** One line of a queries file (JSON Lines), as `search --queries` and `eval` read it. */
export interface QueryLine {
  /** As given; the 1-based line number when the line has none. */
  id: string | number;
  query: string;
  style?: string;
  /** Relevant tools, `<server id>/<tool name>` or full agent-facing names. */
  relevant?: string[];
  /** Which servers the query is meant for: a server id, or a pattern with `*` (`livemcp-*`). */
  scope?: string;
}

/** Reads a JSON Lines file of queries. Blank lines are skipped; anything malformed names its line. */
export function readQueriesFile(path: string): QueryLine[] {
  const lines = readTextFile(path, 'queries file').split(/\r?\n/);
  const queries: QueryLine[] = [];
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const where = `${path} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `${where} is not valid JSON: ${errorMessage(error)}.`);
    }
    if (!isPlainObject(value) || typeof value.query !== 'string' || value.query.trim() === '') {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `${where} needs a JSON object with a non-empty string "query", like {"id": "q1", "query": "github create issue"}.`,
      );
    }
    const id = value.id === undefined ? index + 1 : value.id;
    if (typeof id !== 'string' && typeof id !== 'number') {
      throw new ToolbridgeError('INVALID_ARGUMENT', `${where}: "id" must be a string or a number.`);
    }
    const line: QueryLine = { id, query: value.query };
    if (typeof value.style === 'string') line.style = value.style;
    if (typeof value.scope === 'string') line.scope = value.scope;
    if (value.relevant !== undefined) {
      if (!Array.isArray(value.relevant) || !value.relevant.every((name) => typeof name === 'string')) {
        throw new ToolbridgeError('INVALID_ARGUMENT', `${where}: "relevant" must be an array of tool names.`);
      }
      line.relevant = value.relevant;
    }
    queries.push(line);
  });
  if (queries.length === 0) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The queries file "${path}" has no queries (one JSON object per line).`,
    );
  }
  return queries;
}
