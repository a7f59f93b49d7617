/**
 * issue #16: an MCP server and a connector app may share an id (`github` here: the memory
 * reference server added under that id, and the fixture gateway's GitHub app). A real host on
 * loopback, the SDK's real client as the agent: a policy for one never covers the other, and a
 * settings file written before they were apart loads without losing a rule.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTOR_GATEWAY_TOKEN_KEY, InMemorySecretStore } from '../../../src/base/secret-store.js';
import type { Host } from '../../../src/host/host.js';
import { type FixtureGateway, startFixtureGateway } from '../../fixtures/gateway/fixture-gateway.js';
import { callJson, connectDefaultAgent, startHost } from '../../helpers/host-kit.js';
import { referenceServers } from './kit.js';

let dataDir: string;
let gateway: FixtureGateway;
let host: Host;
let agent: Client;

async function start(policies: Record<string, unknown>): Promise<void> {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-namespaces-'));
  gateway = await startFixtureGateway({ connected: ['github'] });
  const secrets = new InMemorySecretStore();
  await secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  const [memory] = await referenceServers(dataDir, 'memory');
  host = await startHost(
    dataDir,
    {
      servers: [{ ...memory!, id: 'github' }],
      connectors: { gatewayUrl: gateway.url, enabled: true },
      policies: { default: 'allow', servers: {}, tools: {}, ...policies },
    },
    { secretStore: secrets },
  );
  agent = await connectDefaultAgent(host, 'namespaces-agent');
}

afterEach(async () => {
  await agent?.close();
  await host?.close();
  await gateway?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const local = () =>
  callJson(agent, 'tool_call', { calls: [{ name: 'mcp__github__read_graph', arguments: {} }] });
const connector = () =>
  callJson(agent, 'tool_call', { calls: [{ name: 'connectors__github__GET_ME', arguments: {} }] });
const gatewayCalls = () => gateway.requests.filter((request) => request.path.endsWith('/execute')).length;

describe('issue #16: MCP servers and connector apps are two namespaces', () => {
  it('a deny on the MCP server "github" leaves the GitHub app alone, and the reverse', async () => {
    await start({ servers: { github: 'deny' } });
    expect(JSON.stringify(await local())).toContain('DENIED');
    expect(JSON.stringify(await connector())).not.toContain('DENIED');
    expect(gatewayCalls()).toBeGreaterThan(0);

    // The app's own tool policy, set where the Connections view sets it, covers only the app.
    await host.api.setServerPolicy('github', null);
    await host.api.setConnectorToolPolicy('connectors__github__GET_ME', 'deny');
    const before = gatewayCalls();
    expect(JSON.stringify(await connector())).toContain('DENIED');
    expect(gatewayCalls()).toBe(before);
    expect(JSON.stringify(await local())).not.toContain('DENIED');
  });

  it('reads an older file: a rule for the configured server "github" is that server’s only', async () => {
    await start({ rules: [{ serverId: 'github', policy: 'deny' }] });
    expect(JSON.stringify(await local())).toContain('DENIED');
    expect(JSON.stringify(await connector())).not.toContain('DENIED');
    const rules = await host.api.listPolicyRules();
    expect(rules.map((rule) => `${rule.toolKind} ${rule.serverId} ${rule.policy}`)).toEqual([
      'mcp github deny',
    ]);
    expect(rules[0]?.description).toBe('Denies every tool of server "github".');
  });
});
