/**
 * Which activity entries a filter keeps: one rule for the audit log's query (host) and for entries
 * that reach the UI live (renderer), so a live row never shows up under a filter the host would
 * not have matched. Pure; the types are the fields it reads, so `base` needs no domain type.
 */

export interface FilterableEntry {
  time: string;
  agentId: string;
  toolName: string;
  serverId: string;
  decision: string;
  decidedBy: string;
  arguments: unknown;
  account?: { alias: string } | { default: true };
  message?: string;
}

export interface ActivityFilter {
  toolName?: string;
  serverId?: string;
  agentId?: string;
  decision?: string;
  /** ISO times, both ends included. */
  since?: string;
  until?: string;
  /** Words to find, case-insensitive, each anywhere in the tool, server, agent, decision, account, message or arguments. */
  text?: string;
}

/** `filter` with its times parsed once; a time that is not an ISO date is reported by name. */
export function compileActivityFilter(
  filter: ActivityFilter,
): { ok: true; matches: (entry: FilterableEntry) => boolean } | { ok: false; field: 'since' | 'until' } {
  const since = filter.since === undefined ? undefined : Date.parse(filter.since);
  const until = filter.until === undefined ? undefined : Date.parse(filter.until);
  if (since !== undefined && Number.isNaN(since)) return { ok: false, field: 'since' };
  if (until !== undefined && Number.isNaN(until)) return { ok: false, field: 'until' };
  const words = (filter.text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  return {
    ok: true,
    matches(entry) {
      if (filter.toolName !== undefined && entry.toolName !== filter.toolName) return false;
      if (filter.serverId !== undefined && entry.serverId !== filter.serverId) return false;
      if (filter.agentId !== undefined && entry.agentId !== filter.agentId) return false;
      if (filter.decision !== undefined && entry.decision !== filter.decision) return false;
      if (since !== undefined || until !== undefined) {
        const time = Date.parse(entry.time);
        if ((since !== undefined && time < since) || (until !== undefined && time > until)) return false;
      }
      if (words.length === 0) return true;
      const haystack = searchableText(entry);
      return words.every((word) => haystack.includes(word));
    },
  };
}

function searchableText(entry: FilterableEntry): string {
  return [
    entry.toolName,
    entry.serverId,
    entry.agentId,
    entry.decision,
    `by ${entry.decidedBy}`,
    entry.account !== undefined && 'alias' in entry.account ? entry.account.alias : '',
    entry.message ?? '',
    JSON.stringify(entry.arguments) ?? '',
  ]
    .join('\n')
    .toLowerCase();
}
