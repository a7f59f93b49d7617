import type { ServerView, ToolView } from '../../src/api/ui-api.js';
import { describeTransport } from '../drafts/server-draft.js';

/** Failing first (they need the person), then starting, then the rest; by name within each. */
const STATUS_ORDER: Record<ServerView['status'], number> = {
  error: 0,
  'needs-auth': 0,
  starting: 1,
  connected: 2,
  disabled: 3,
};

export function failingFirst(servers: readonly ServerView[]): ServerView[] {
  return [...servers].sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
}

export interface ServerMatch {
  server: ServerView;
  /** With a query: the server's tools it matched (empty when only the server itself matched). */
  tools: ToolView[];
}

/**
 * The servers a filter keeps, failing first: every word (any case) must appear in the server's
 * id, name or command, or in one tool's name or description; those tools are returned to show.
 */
export function filterServers(
  servers: readonly ServerView[],
  toolsOf: (serverId: string) => readonly ToolView[],
  query: string,
): ServerMatch[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const ordered = failingFirst(servers);
  if (words.length === 0) return ordered.map((server) => ({ server, tools: [] }));
  const out: ServerMatch[] = [];
  for (const server of ordered) {
    const own = `${server.id}\n${server.name}\n${describeTransport(server)}`.toLowerCase();
    const tools = toolsOf(server.id).filter((tool) => {
      const text = `${own}\n${tool.name}\n${tool.description}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
    if (tools.length > 0) out.push({ server, tools: words.every((w) => own.includes(w)) ? [] : tools });
    else if (words.every((word) => own.includes(word))) out.push({ server, tools: [] });
  }
  return out;
}

/** The tools of a server whose descriptions hide text. */
export function suspiciousTools(tools: readonly ToolView[]): ToolView[] {
  return tools.filter((tool) => (tool.suspicious?.length ?? 0) > 0);
}
