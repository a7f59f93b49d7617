/**
 * Shared by the approvals integration tests: a real host (createHost) in a temp data folder with
 * real MCP servers over stdio, agents that connect with the SDK's Client over the real HTTP
 * endpoint, and event-driven waits on the host API.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import type { ApprovalCardView, Policy } from '../../../src/api/ui-api.js';
import { createHost, type Host, type HostOptions } from '../../../src/host/host.js';
import { defaultServerConfigs } from '../../../src/servers/default-servers.js';
import type { ServerConfig } from '../../../src/servers/types.js';
import { connectDefaultAgent, linkGateway, writeSettings } from '../../helpers/host-kit.js';

export interface RunningHost {
  host: Host;
  dataDir: string;
  clients: Client[];
  /** Closes the agents, then the host. */
  close(): Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'tb-approvals-'));
}

export async function removeDir(dataDir: string): Promise<void> {
  await fs.rm(dataDir, { recursive: true, force: true });
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

type StartOptions = Partial<HostOptions> & { policyOverride?: Policy };

/** Readies a fresh host's data folder (the memory server keeps its graph there) and gives its settings. */
export type SettingsFor = (dataDir: string) => Promise<Record<string, unknown>>;

export async function startHost(dataDir: string, options: StartOptions = {}): Promise<RunningHost> {
  const host = await createHost({ dataDir, port: 0, log: () => undefined, ...options });
  await host.ready;
  const clients: Client[] = [];
  return {
    host,
    dataDir,
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await host.close();
    },
  };
}

/** A host on a data folder of its own, with `settings` written first; its close() also removes the folder. */
export async function startFreshHost(
  settings: SettingsFor,
  options: StartOptions = {},
): Promise<RunningHost> {
  const dataDir = await makeDataDir();
  try {
    await writeSettings(dataDir, await settings(dataDir));
    const running = await startHost(dataDir, options);
    return {
      ...running,
      close: async () => {
        await running.close();
        await removeDir(dataDir);
      },
    };
  } catch (error) {
    await removeDir(dataDir);
    throw error;
  }
}

/**
 * A fresh host under ask with the everything server, signed in to `gateway` (its token in the
 * folder's secret file); cards wait 10 minutes, so only the test's own answers end them.
 */
export function startGatewayHost(gateway: { url: string; token: string }): Promise<RunningHost> {
  return startFreshHost(async (dataDir) => ({
    servers: await referenceServers(dataDir, 'everything'),
    policies: { default: 'ask' },
    connectors: await linkGateway(dataDir, gateway),
    cardTimeoutMs: 600_000,
  }));
}

/**
 * One fresh host shared by all the tests of a file: started in beforeAll, closed (with its folder)
 * in afterAll. The value reads through to it, so tests and hooks use it as any RunningHost.
 */
export function hostForFile(settings: SettingsFor, options: StartOptions = {}): RunningHost {
  let started: RunningHost | undefined;
  beforeAll(async () => {
    started = await startFreshHost(settings, options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): RunningHost => {
    if (started === undefined) throw new Error('the file host starts in beforeAll: use it in a hook or test');
    return started;
  };
  return {
    get host() {
      return current().host;
    },
    get dataDir() {
      return current().dataDir;
    },
    get clients() {
      return current().clients;
    },
    close: () => current().close(),
  };
}

export async function connectAgent(running: RunningHost): Promise<Client> {
  const client = await connectDefaultAgent(running.host, 'approvals-agent');
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
