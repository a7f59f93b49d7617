/** Small helpers for tests that drive a whole host as the agent and as the person at the UI. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig, UiEventMap } from '../../src/api/ui-api.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY } from '../../src/base/secret-store.js';
import { createHost, type Host, type HostOptions } from '../../src/host/host.js';
import { FileSecretStore } from '../../src/store/file-secret-store.js';

const FIXTURE_SERVER = fileURLToPath(new URL('../fixtures/servers/fixture-server.mjs', import.meta.url));

type StdioConfig = Extract<ServerConfig, { transport: 'stdio' }>;

/** A stdio server config for the composable fixture server with `scenario` (a file in test/fixtures/servers). */
export function fixtureServer(
  id: string,
  scenario: string,
  extra: { env?: Record<string, string> } = {},
): StdioConfig {
  return fixtureServerOn(
    id,
    fileURLToPath(new URL(`../fixtures/servers/${scenario}.json`, import.meta.url)),
    extra,
  );
}

function fixtureServerOn(
  id: string,
  file: string,
  extra: { env?: Record<string, string> } = {},
): StdioConfig {
  return {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE_SERVER, file],
    ...extra,
    enabled: true,
  };
}

/**
 * One tool of a fixture-server scenario: its name, the behaviour that answers it and that
 * behaviour's parameters, and whatever it lists as given (description, inputSchema, annotations,
 * title, …); test/fixtures/servers/fixture-server.mjs says which.
 */
export interface ScenarioTool {
  name: string;
  behavior: string;
  [field: string]: unknown;
}

/**
 * Writes `<dir>/<id>.json`, a fixture-server scenario named `id` with these tools, and returns the
 * stdio config that runs it. The server reads the file when it starts, so writing it again with
 * other tools changes what a restart serves.
 */
export async function scenarioServer(dir: string, id: string, tools: ScenarioTool[]): Promise<StdioConfig> {
  const file = path.join(dir, `${id}.json`);
  await fs.writeFile(file, JSON.stringify({ name: id, tools }));
  return fixtureServerOn(id, file);
}

/**
 * Signs a data folder in to a connector gateway as the person does in Settings: its token goes to
 * the folder's secret file; the answer is the `connectors` settings section to write.
 */
export async function linkGateway(
  dataDir: string,
  gateway: { url: string; token: string },
): Promise<{ gatewayUrl: string; enabled: true }> {
  const { store } = await FileSecretStore.open(dataDir);
  await store.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  return { gatewayUrl: gateway.url, enabled: true };
}

/** Writes a data folder's settings.json (0600) as the host keeps it; `settings` may name an older version. */
export async function writeSettings(dataDir: string, settings: Record<string, unknown>): Promise<void> {
  await fs.writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ version: 2, ...settings }), {
    mode: 0o600,
  });
}

/** A real host on `dataDir` with these settings, on a free loopback port, quiet, and ready. */
export async function startHost(
  dataDir: string,
  settings: Record<string, unknown>,
  options: Partial<HostOptions> = {},
): Promise<Host> {
  await writeSettings(dataDir, settings);
  const host = await createHost({ dataDir, port: 0, log: () => undefined, ...options });
  await host.ready;
  return host;
}

/** Every payload of one UI event from now on, as the UI would receive them. */
export function recordEvents<E extends keyof UiEventMap>(host: Host, event: E): UiEventMap[E][] {
  const seen: UiEventMap[E][] = [];
  host.api.on(event, (payload) => seen.push(payload));
  return seen;
}

/** The SDK's real client as the default agent, over the host's Streamable HTTP endpoint. */
export async function connectDefaultAgent(host: Host, name: string): Promise<Client> {
  const token = (await host.agents.ensureDefault()).token;
  const agent = new Client({ name, version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(host.endpointUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return agent;
}

/** A tool's JSON answer, as the agent reads it. */
export async function callJson(
  agent: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = (await agent.callTool({ name, arguments: args }, undefined, {
    timeout: 60_000,
  })) as CallToolResult;
  return JSON.parse((result.content[0] as { text: string }).text);
}
