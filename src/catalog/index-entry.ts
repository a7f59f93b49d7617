import type { IndexEntry } from '../search/types.js';
import type { CatalogEntry } from './types.js';

/**
 * What the search engine indexes for a catalog tool. A tool of no known source gets no server
 * label, as in the reference (§1.1: unregistered entries are indexed without one).
 */
export function toIndexEntry(entry: CatalogEntry): IndexEntry {
  return {
    name: entry.name,
    description: entry.description,
    inputSchema: entry.inputSchema,
    server: entry.source === 'other' || entry.serverId === '' ? null : entry.serverId,
  };
}
