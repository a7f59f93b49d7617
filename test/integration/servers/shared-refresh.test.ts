/**
 * One refresh for everyone sharing a data folder: `toolbridge serve` and `toolbridge mcp` (its
 * own host) keep the same remote server's tokens, and the fixture OAuth server rotates refresh
 * tokens (each works once). Whoever refreshes first spends the refresh token; the others must
 * wait on the lock and use its result, or they would present a spent token and be signed out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/host.js';
import { McpOAuthClient } from '../../../src/servers/oauth/mcp-oauth.js';
import { FileSecretStore } from '../../../src/store/file-secret-store.js';
import {
  consentInBrowser,
  type OAuthFixture,
  startOAuthMcpServer,
} from '../../fixtures/oauth/oauth-mcp-server.js';
import { waitUntil } from '../../helpers/wait.js';
import { writeRemoteServerSettings } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** A private JavaScript copy of src/, beside dist/ so paths like ../../resources resolve alike. */
const OUT = path.join(ROOT, 'dist-oauth-test');
const MAIN = path.join(OUT, 'cli', 'main.js');
const TTL_SECONDS = 3600;
const WHOAMI = { name: 'tool_call', arguments: { calls: [{ name: 'mcp__remote__whoami', arguments: {} }] } };

let fixture: OAuthFixture;
let dataDir: string;

const refreshes = () => fixture.tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token');

/** The text an agent got back; fails the test on an error result. */
function answer(result: CallToolResult): string {
  const text = JSON.stringify(result.content);
  expect(result.isError, text).not.toBe(true);
  return text;
}

const writeSettings = () => writeRemoteServerSettings(dataDir, 'remote', fixture.url);

beforeAll(async () => {
  fixture = await startOAuthMcpServer({ accessTokenTtlSeconds: TTL_SECONDS });
});

afterAll(async () => {
  await fixture?.close();
});

describe('two hosts with their own secret stores on one data folder', () => {
  let writer: Host | undefined;
  let reader: Host | undefined;
  afterEach(async () => {
    await reader?.close();
    await writer?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('refresh an expiring and then a rejected token once between them, and both keep working', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-shared-refresh-'));
    await writeSettings();
    let now = Date.now();
    const signIn = { clock: () => now };
    const quiet = () => undefined;
    // The app or `toolbridge serve`: it signs in.
    writer = await createHost({ dataDir, listen: false, policyOverride: 'allow', log: quiet, signIn });
    await writer.ready;
    await consentInBrowser((await writer.api.authorizeServer('remote')).authorizationUrl);
    await waitUntil(() => writer!.servers.snapshotOf('remote').status === 'connected', 'the sign-in', 20_000);
    // `toolbridge mcp` beside it: read-only settings, its own secret store on the same file.
    reader = await createHost({
      dataDir,
      listen: false,
      readOnlySettings: true,
      policyOverride: 'allow',
      log: quiet,
      signIn,
    });
    await reader.ready;
    expect(reader.servers.snapshotOf('remote').status).toBe('connected');
    expect(reader.secrets).not.toBe(writer.secrets);
    const hosts = [writer, reader];
    const callAll = () =>
      Promise.all(
        hosts.flatMap((host) =>
          [1, 2, 3].map(() =>
            host.surfaceFor('agent').callTool(WHOAMI.name, WHOAMI.arguments, { agentId: 'a' }),
          ),
        ),
      );

    // Inside the refresh margin on both hosts at once.
    now += TTL_SECONDS * 1000 - 30_000;
    for (const result of await callAll()) expect(answer(result)).toContain('signed in as client-1');
    expect(refreshes()).toHaveLength(1);

    // The server drops every access token: each host gets a 401 and wants to refresh.
    fixture.expireAccessTokens();
    for (const result of await callAll()) expect(answer(result)).toContain('signed in as client-1');
    expect(refreshes()).toHaveLength(2);
    for (const host of hosts) expect(host.servers.snapshotOf('remote').status).toBe('connected');
    const stored = JSON.parse((await writer.secrets.get('remote:oauth.tokens'))!) as { access_token: string };
    expect(fixture.mcpAuthorizations.at(-1)).toBe(`Bearer ${stored.access_token}`);
    expect(await fs.readdir(dataDir)).not.toContain('oauth-refresh.remote.lock');
  });
});

describe('toolbridge serve and toolbridge mcp, two real processes on one data folder', () => {
  const processes: ChildProcess[] = [];
  const stderr: string[] = [];
  const agents: Client[] = [];

  beforeAll(async () => {
    // Every source file on its own, as `tsc --isolatedModules` would emit it: no type check needed.
    const ts = await import('typescript');
    const src = path.join(ROOT, 'src');
    await fs.rm(OUT, { recursive: true, force: true });
    for (const file of await fs.readdir(src, { recursive: true })) {
      if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
      const source = await fs.readFile(path.join(src, file), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      await fs.mkdir(path.dirname(path.join(OUT, file)), { recursive: true });
      await fs.writeFile(path.join(OUT, file.replace(/\.ts$/, '.js')), outputText);
    }
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-two-processes-'));
    await writeSettings();
  }, 120_000);

  afterAll(async () => {
    for (const agent of agents) await agent.close().catch(() => undefined);
    for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
    await fs.rm(OUT, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('spend a rotating refresh token once; both processes keep answering their agents', async () => {
    // Signed in beforehand, as a person would have done in the app.
    const { store } = await FileSecretStore.open(dataDir);
    await new McpOAuthClient({
      serverId: 'remote',
      serverUrl: fixture.url,
      store,
      openUrl: async (url) => void (await consentInBrowser(url)),
    }).signIn();
    const before = refreshes().length;
    const signedIn = `signed in as client-${fixture.registrations.length}`;

    const token = 'agent-token-for-the-two-process-test-0123456789';
    const serve = spawn(
      process.execPath,
      [MAIN, 'serve', '--data-dir', dataDir, '--port', '0', '--agent-token', token, '--policy', 'allow'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    processes.push(serve);
    const printed: string[] = [];
    serve.stdout!.setEncoding('utf8').on('data', (chunk: string) => printed.push(...chunk.split('\n')));
    serve.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    await waitUntil(
      () => printed.some((line) => line.startsWith('ui: ')),
      () => `serve to start (${stderr})`,
      20_000,
    );
    const endpoint = printed.find((line) => line.startsWith('agent endpoint: '))!.slice(16);
    const overHttp = new Client({ name: 'http-agent', version: '1.0.0' });
    await overHttp.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    agents.push(overHttp);

    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--data-dir', dataDir, '--policy', 'allow'],
      env: getDefaultEnvironment(),
      stderr: 'pipe',
    });
    stdio.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const overStdio = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await overStdio.connect(stdio);
    agents.push(overStdio);

    const callBoth = async () =>
      (
        await Promise.all(
          agents.flatMap((agent) => [1, 2].map(() => agent.callTool(WHOAMI) as Promise<CallToolResult>)),
        )
      ).map(answer);
    for (const text of await callBoth()) expect(text).toContain(signedIn);
    expect(refreshes()).toHaveLength(before);

    // Both processes meet a 401 at once and want to refresh.
    fixture.expireAccessTokens();
    for (const text of await callBoth()) expect(text).toContain(signedIn);
    expect(refreshes()).toHaveLength(before + 1);
    // And both go on with the new token.
    for (const text of await callBoth()) expect(text).toContain(signedIn);
    expect(refreshes()).toHaveLength(before + 1);

    const logs = stderr.join('');
    for (const issued of fixture.issuedTokens) expect(logs).not.toContain(issued);
  });
});
