/**
 * `npm run demo` as a newcomer runs it (scripts/start.js --demo): web mode in a fresh data folder
 * with the fixture connector gateway and the fixture server that needs sign-in. The SDK's real
 * client, as the agent, finds the gateway's tools and signs in to the server through the link
 * manage_connections gives; Ctrl-C stops everything and removes the data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { consentInBrowser } from '../../fixtures/oauth/oauth-mcp-server.js';
import { waitUntil } from '../../helpers/wait.js';
import { childPids, killGroups, lines } from './process-kit.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let demo: ChildProcess | undefined;

afterAll(() => {
  if (demo?.exitCode === null && demo.pid !== undefined) {
    killGroups(childPids(demo.pid));
    demo.kill('SIGKILL');
  }
});

async function callJson(agent: Client, name: string, args: Record<string, unknown>) {
  const result = (await agent.callTool({ name, arguments: args })) as CallToolResult;
  return JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
}

describe('npm run demo', () => {
  it('serves the gateway’s apps and a server to sign in to, then cleans up on Ctrl-C', async () => {
    demo = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--demo', '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = lines(demo.stdout!);
    const err = lines(demo.stderr!);
    // The first run compiles the two fixtures.
    await waitUntil(
      () => out.some((line) => line.startsWith('ui: ')),
      () => `the demo (stderr: ${err})`,
      120_000,
    );
    const printed = (label: string) => out.find((line) => line.startsWith(label))!.slice(label.length);
    const dataDir = /data in (\S+) \(removed on exit\)/.exec(out.join('\n'))?.[1];
    expect(dataDir !== undefined && existsSync(dataDir)).toBe(true);
    expect(err.join('\n')).toMatch(/"demo-sign-in" is not connected: Sign in to Sign-in demo/);

    const agent = new Client({ name: 'demo-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(printed('agent endpoint: ')), {
        requestInit: { headers: { Authorization: `Bearer ${printed('agent token: ')}` } },
      }),
    );
    const search = await callJson(agent, 'tool_search', { queries: ['create a github issue'] });
    const matches = (search.results as Array<{ matches: string[] }>)[0]!.matches;
    expect(matches.some((name) => name.startsWith('connectors__github__'))).toBe(true);

    // No browser holds the UI open, so authorize answers with the link to show the user.
    const authorize = () =>
      callJson(agent, 'manage_connections', {
        action: 'authorize',
        connectors: [{ name: 'demo-sign-in', mcp: true }],
      });
    const [row] = (await authorize()).results as Array<Record<string, string>>;
    expect(row).toMatchObject({ server: 'demo-sign-in', status: 'initiated' });
    expect((await consentInBrowser(row!.connect_url!)).status).toBe(200);
    // The server connects by itself once the user has allowed access.
    await waitUntil(
      async () => JSON.stringify(await authorize()).includes('Already connected'),
      'the server to connect after consent',
      15_000,
    );
    const found = await callJson(agent, 'tool_search', { queries: ['which client is signed in'] });
    expect((found.results as Array<{ matches: string[] }>)[0]!.matches).toContain(
      'mcp__demo-sign-in__whoami',
    );
    await agent.close();

    const exited = new Promise<number | null>((resolve) => demo!.on('exit', resolve));
    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(dataDir!)).toBe(false);
  }, 180_000);
});
