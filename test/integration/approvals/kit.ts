/**
 * Shared by the approvals integration tests: a real host (createHost) in a temp data folder with
 * real MCP servers over stdio, agents that connect with the SDK's Client over the real HTTP
 * endpoint, and event-driven waits on the host API.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalCardView, Policy } from '../../../src/host/api.js';
import { createHost, type Host, type HostOptions } from '../../../src/host/host.js';
import { defaultServerConfigs } from '../../../src/servers/default-servers.js';
import type { ServerConfig } from '../../../src/servers/types.js';

export interface RunningHost {
  host: Host;
  token: string;
  clients: Client[];
  /** Closes the agents, then the host. */
  close(): Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'tb-approvals-'));
}

/** The reference servers by id: everything, filesystem, memory (memory keeps its graph in the data folder). */
export async function referenceServers(dataDir: string, ...ids: string[]): Promise<ServerConfig[]> {
  const all = await defaultServerConfigs(dataDir);
  return ids.map((id) => {
    const config = all.find((candidate) => candidate.id === id);
    if (config === undefined) throw new Error(`no reference server ${id}`);
    return config;
  });
}

export async function writeSettings(dataDir: string, settings: Record<string, unknown>): Promise<void> {
  await fs.writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ version: 2, ...settings }), {
    mode: 0o600,
  });
}

export async function startHost(
  dataDir: string,
  options: Partial<HostOptions> & { policyOverride?: Policy } = {},
): Promise<RunningHost> {
  const host = await createHost({ dataDir, port: 0, log: () => undefined, ...options });
  await host.ready;
  const token = (await host.agents.ensureDefault()).token;
  const clients: Client[] = [];
  return {
    host,
    token,
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await host.close();
    },
  };
}

export async function connectAgent(running: RunningHost): Promise<Client> {
  const client = new Client({ name: 'approvals-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.host.endpointUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${running.token}` } },
    }),
  );
  running.clients.push(client);
  return client;
}

/** One tool_call of one entry, as a model would send it. No client-side timeout: cards wait. */
export function toolCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return client.callTool(
    { name: 'tool_call', arguments: { calls: [{ name, arguments: args }] } },
    undefined,
    {
      timeout: 120_000,
    },
  ) as Promise<CallToolResult>;
}

export function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The `{code, message}` of a refusal, or the whole JSON of another error payload. */
export function errorOf(result: CallToolResult): { code: string; message: string } {
  const value = JSON.parse(text(result)) as Record<string, unknown>;
  if (typeof value.code === 'string') return value as { code: string; message: string };
  const error = value.error as { code: string; message: string } | undefined;
  if (error !== undefined) return error;
  throw new Error(`not an error payload: ${text(result)}`);
}

/** Resolves with the next `count` approval cards the host opens (listens before the caller acts). */
export function approvalCards(host: Host, count = 1): Promise<ApprovalCardView[]> {
  const seen: ApprovalCardView[] = [];
  return new Promise((resolve) => {
    const off = host.api.on('cardOpened', (card) => {
      if (card.kind !== 'approval') return;
      seen.push(card);
      if (seen.length === count) {
        off();
        resolve(seen);
      }
    });
  });
}

export async function removeDir(dataDir: string): Promise<void> {
  await fs.rm(dataDir, { recursive: true, force: true });
}
