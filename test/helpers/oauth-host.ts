/** A real host with the fixture OAuth MCP server as one of its remote servers, for the sign-in tests. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerConfig } from '../../src/api/ui-api.js';
import type { Host, HostOptions } from '../../src/host/host.js';
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthMcpServer,
} from '../fixtures/oauth/oauth-mcp-server.js';
import { connectDefaultAgent, startHost } from './host-kit.js';

export interface OAuthHost {
  fixture: OAuthFixture;
  host: Host;
  agent: Client;
  dataDir: string;
  /** Closes the agent, the host and the fixture, then removes the data folder. */
  close(): Promise<void>;
}

export interface OAuthHostOptions {
  fixture?: OAuthFixtureOptions;
  /** The host's servers for the fixture's URL. @defaultValue one server, `remote` ("Remote") */
  servers?: (url: string) => ServerConfig[];
  /** Other top-level settings, e.g. `version: 1` for a folder an older Toolbridge wrote. */
  settings?: Record<string, unknown>;
  /** Host options; the policy is allow unless they say otherwise. */
  host?: Partial<HostOptions>;
}

/** A Streamable HTTP server config for `url`. */
export function remoteServer(id: string, name: string, url: string, enabled = true): ServerConfig {
  return { id, name, transport: 'http', url, enabled };
}

/**
 * The fixture OAuth MCP server, a real host on a fresh data folder that names it among its servers,
 * and the SDK's real client as the default agent.
 */
export async function startOAuthHost(options: OAuthHostOptions = {}): Promise<OAuthHost> {
  const fixture = await startOAuthMcpServer(options.fixture);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-oauth-'));
  const servers = options.servers?.(fixture.url) ?? [remoteServer('remote', 'Remote', fixture.url)];
  let host: Host | undefined;
  let agent: Client | undefined;
  const close = async () => {
    await agent?.close();
    await host?.close();
    await fixture.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    host = await startHost(
      dataDir,
      { ...options.settings, servers },
      { policyOverride: 'allow', ...options.host },
    );
    agent = await connectDefaultAgent(host, 'oauth-agent');
    return { fixture, host, agent, dataDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}
