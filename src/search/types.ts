/** One tool as the engine sees it. `name` is the full agent-facing name, `server` its server id (the label). */
export interface IndexEntry {
  name: string;
  description?: string | null;
  inputSchema?: unknown;
  server?: string | null;
}

export interface SearchOptions {
  /** How many names to return at most. */
  limit?: number;
  /** Also return why each match ranked (gate token, answerable terms, per-term scores). */
  explain?: boolean;
}

export interface SearchResult {
  /** Names in rank order, verbatim as given to the index. */
  matches: string[];
}

export interface ToolIndex {
  readonly size: number;
  search(query: string, options?: SearchOptions): SearchResult;
}
