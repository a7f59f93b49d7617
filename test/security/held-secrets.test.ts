/**
 * Issue #12: a secret Toolbridge holds never reaches a place it stores or shows. A real host, a
 * real stdio server (the fixture) whose MY_API_TOKEN lives in the secret store and which echoes it
 * in every encoding it can think of, the SDK's real client as the agent; then every sink is read.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { dispatchUiCall } from '../../src/host/ui-dispatcher.js';
import { connectDefaultAgent, fixtureServer, recordEvents, startHost } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';

const TOKEN = 'tbk_Xq7vN2pLr9sT4wYz8aBcD3eF6gH1jK5m';
const ROTATED = 'tbk_rotated_9sT4wYz8aBcD3eF6gH1jK5mXq';
const GATEWAY = 'gw_live_Zr81Kq0pWm3nB7vC5xL2aS9dF4gH6jQ';

/** The secret and every encoding a server could wrap it in. */
function forms(value: string): string[] {
  const half = Math.floor(value.length / 2);
  return [
    value,
    encodeURIComponent(value),
    Buffer.from(value).toString('hex'),
    // The middle of a base64 of it at any alignment (the edges mix with neighbours).
    ...[0, 1, 2].map((shift) =>
      Buffer.from(`${'x'.repeat(shift)}${value}`)
        .toString('base64')
        .slice(4, 24),
    ),
    value.slice(0, half),
    value.slice(half),
  ];
}

function expectClean(where: string, text: string, values: string[] = [TOKEN]): void {
  for (const value of values)
    for (const form of forms(value)) expect(text.includes(form), `${where} holds ${form}`).toBe(false);
}

let dataDir: string;
let host: Host;
let agent: Client;
const logLines: string[] = [];
let live: ActivityEntry[];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-held-secrets-'));
  host = await startHost(
    dataDir,
    { servers: [], policies: { default: 'allow' } },
    { log: (line) => logLines.push(line) },
  );
  live = recordEvents(host, 'activityAppended');
  await host.api.addServer(fixtureServer('leaky', 'leaky', { env: { MY_API_TOKEN: TOKEN } }));
  await waitUntil(
    () => host.servers.snapshot().some((s) => s.id === 'leaky' && s.status === 'connected'),
    'leaky connected',
    30_000,
  );
  agent = await connectDefaultAgent(host, 'held-secrets-agent');
});

afterAll(async () => {
  await agent?.close();
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name, arguments: args }] },
  }) as Promise<CallToolResult>;
}

async function everySink(): Promise<Array<[string, string]>> {
  const servers = await host.api.listServers();
  return [
    ['audit.jsonl', await fs.readFile(path.join(dataDir, 'audit.jsonl'), 'utf8')],
    ['Activity reply', JSON.stringify(await host.api.queryActivity({ limit: 500 }))],
    ['JSONL export', await host.api.exportActivity('jsonl')],
    ['CSV export', await host.api.exportActivity('csv')],
    ['live activity events', JSON.stringify(live)],
    ['server views (stderr tail, last error)', JSON.stringify(servers)],
    ['host log on stderr', logLines.join('\n')],
  ];
}

describe('issue #12: a server echoing its own secret', () => {
  it('the secret really is in the store, not in settings.json', async () => {
    const settings = await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8');
    expect(settings).not.toContain(TOKEN);
    expect(await host.secrets.get('leaky:env.MY_API_TOKEN')).toBe(TOKEN);
  });

  it('is masked in the audit log, Activity, both exports, live events, stderr tail and logs', async () => {
    const result = await call('mcp__leaky__leak_env', { name: 'MY_API_TOKEN' });
    expect(result.isError).toBe(true);
    const thrown = await call('mcp__leaky__leak_env', { name: 'MY_API_TOKEN', throw: true });
    expect(thrown.isError).toBe(true);
    // The agent itself sends it back as an argument, in a longer string and URL-encoded.
    await call('mcp__leaky__arguments', {
      note: `retry with ${TOKEN}`,
      url: `https://x/?k=${encodeURIComponent(TOKEN)}`,
    });
    await waitUntil(() => live.length >= 3, 'three activity events');
    await waitUntil(
      () =>
        (host.servers.snapshot().find((s) => s.id === 'leaky')?.stderrTail ?? []).some((l) =>
          l.includes('my token is'),
        ),
      'the stderr line',
    );
    for (const [where, text] of await everySink()) expectClean(where, text);
    // Masked, not dropped: the lines are still there and say where the secret was.
    const audit = await fs.readFile(path.join(dataDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('401 for token=[REDACTED]');
    expect(audit).toContain('upstream refused token [REDACTED]');
  });

  it('a rotated secret is masked at once, and the old value stays masked', async () => {
    await host.api.updateServer('leaky', fixtureServer('leaky', 'leaky', { env: { MY_API_TOKEN: ROTATED } }));
    await waitUntil(
      () => host.servers.snapshot().some((s) => s.id === 'leaky' && s.status === 'connected'),
      'leaky reconnected',
      30_000,
    );
    const before = live.length;
    await call('mcp__leaky__leak_env', { name: 'MY_API_TOKEN' });
    await call('mcp__leaky__arguments', { old: TOKEN });
    await waitUntil(() => live.length >= before + 2, 'two more events');
    for (const [where, text] of await everySink()) expectClean(where, text, [TOKEN, ROTATED]);
  });

  it('an error message the UI API answers (both transports share the dispatcher) is masked', async () => {
    const reply = await dispatchUiCall(
      host.api,
      'setToolPinned',
      [`mcp__leaky__${TOKEN}`, true],
      () => undefined,
    );
    expect(reply.ok).toBe(false);
    const text = JSON.stringify(reply);
    expect(text).toContain('[REDACTED]');
    expectClean('UI API error reply', text, [TOKEN, ROTATED]);
  });

  it('the connector gateway token and agent tokens are masked by value too', async () => {
    await host.api.signInConnectorGateway(GATEWAY);
    const agentToken = (await host.agents.ensureDefault()).token;
    const before = live.length;
    await call('mcp__leaky__arguments', { gateway: `token ${GATEWAY}`, mine: agentToken });
    await waitUntil(() => live.length > before, 'one more event');
    for (const [where, text] of await everySink()) expectClean(where, text, [GATEWAY, agentToken]);
  });
});
