import { describe, expect, it } from 'vitest';
import { failingFirst, filterServers, suspiciousTools } from '../../../renderer/lib/server-filter.js';
import type { ServerView, ToolView } from '../../../src/api/ui-api.js';

const server = (id: string, status: ServerView['status'], command = 'node'): ServerView => ({
  id,
  name: id,
  status,
  enabled: true,
  trusted: false,
  config: { id, transport: 'stdio', command, args: [`${id}.js`], enabled: true },
  toolCount: 1,
  stderrTail: [],
});

const tool = (
  serverId: string,
  toolName: string,
  description: string,
  patch: Partial<ToolView> = {},
): ToolView => ({
  name: `mcp__${serverId}__${toolName}`,
  serverId,
  toolName,
  description,
  enabled: true,
  pinned: false,
  deferred: true,
  policy: { effective: 'ask', source: 'default', reason: 'The default policy.' },
  ...patch,
});

const servers = [
  server('alpha', 'connected'),
  server('beta', 'error'),
  server('gamma', 'starting'),
  server('delta', 'needs-auth'),
];
const tools: Record<string, ToolView[]> = {
  alpha: [tool('alpha', 'create_issue', 'Create an issue'), tool('alpha', 'list', 'List things')],
  beta: [tool('beta', 'send', 'Send a message')],
};
const toolsOf = (id: string) => tools[id] ?? [];

describe('issue #16: failing servers first', () => {
  it('puts errors and sign-ins first, then starting, then the rest, by name', () => {
    expect(failingFirst(servers).map((s) => s.id)).toEqual(['beta', 'delta', 'gamma', 'alpha']);
  });
});

describe('issue #16: the filter over servers and tools', () => {
  it('keeps every server, failing first, when empty', () => {
    expect(filterServers(servers, toolsOf, '  ').map((m) => [m.server.id, m.tools.length])).toEqual([
      ['beta', 0],
      ['delta', 0],
      ['gamma', 0],
      ['alpha', 0],
    ]);
  });

  it('matches a server by id or command, and shows its tools only when a tool matched', () => {
    expect(filterServers(servers, toolsOf, 'GAMMA').map((m) => m.server.id)).toEqual(['gamma']);
    expect(filterServers(servers, toolsOf, 'beta.js').map((m) => m.server.id)).toEqual(['beta']);
    const byTool = filterServers(servers, toolsOf, 'create issue');
    expect(byTool.map((m) => m.server.id)).toEqual(['alpha']);
    expect(byTool[0]?.tools.map((t) => t.toolName)).toEqual(['create_issue']);
    expect(filterServers(servers, toolsOf, 'alpha message')).toEqual([]);
  });

  it('lists the tools whose description hides text', () => {
    const flagged = tool('alpha', 'x', 'x', { suspicious: ['zero-width characters'] });
    expect(suspiciousTools([flagged, ...toolsOf('alpha')])).toEqual([flagged]);
  });
});
