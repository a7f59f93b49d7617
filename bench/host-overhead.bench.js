// What Toolbridge adds to a tool call: tool_call through the host (HTTP agent endpoint, bridge,
// argument check, approval gate with audit log, stdio to the server) against the SDK client
// calling the same server directly over stdio, and against the smallest proxy the SDK allows
// (the same HTTP hop, nothing else). Also the host alone, without the HTTP hop.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHost } from '../dist/host/host.js';
import { defaultServerConfigs } from '../dist/servers/default-servers.js';
import { fixed, median, percentile, table, verdict } from './measure.js';
import { startSdkProxy } from './sdk-proxy.js';

const CALLS = 500;
const WARMUP = 50;
const TARGET_ADDED_MS = 1;

async function timeCalls(call) {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const ms = [];
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await call(i);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { median: median(ms), p95: percentile(ms, 95) };
}

export async function runHostOverheadBench() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-bench-host-'));
  const [everything] = await defaultServerConfigs(dataDir);
  await fs.writeFile(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ version: 1, servers: [everything] }),
    {
      mode: 0o600,
    },
  );
  const host = await createHost({ dataDir, port: 0, policyOverride: 'allow', log: () => undefined });
  const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
  const agent = new Client({ name: 'bench-agent', version: '1.0.0' });
  const proxied = new Client({ name: 'bench-proxied', version: '1.0.0' });
  let proxy;
  try {
    await host.ready;
    const token = await host.agents.token('default');
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(host.endpointUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    await direct.connect(
      new StdioClientTransport({ command: everything.command, args: everything.args, stderr: 'ignore' }),
    );
    proxy = await startSdkProxy(direct);
    await proxied.connect(new StreamableHTTPClientTransport(proxy.url));
    const entry = (i) => ({ name: 'mcp__everything__echo', arguments: { message: `call ${i}` } });
    const surface = host.surfaceFor('default');

    const directTimes = await timeCalls((i) =>
      direct.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    );
    const viaProxy = await timeCalls((i) =>
      proxied.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    );
    const viaHttp = await timeCalls((i) =>
      agent.callTool({ name: 'tool_call', arguments: { calls: [entry(i)] } }),
    );
    const inProcess = await timeCalls((i) =>
      surface.callTool('tool_call', { calls: [entry(i)] }, { agentId: 'default' }),
    );

    const added = viaHttp.median - directTimes.median;
    const hostOnly = inProcess.median - directTimes.median;
    return [
      `## Host overhead: echo on the everything server, ${CALLS} sequential calls each (after ${WARMUP} warm-up)`,
      '',
      table([
        ['path', 'median ms', 'p95 ms', 'added median ms'],
        ['SDK client → server (stdio)', fixed(directTimes.median, 3), fixed(directTimes.p95, 3), '—'],
        [
          'agent → minimal SDK proxy (HTTP) → server',
          fixed(viaProxy.median, 3),
          fixed(viaProxy.p95, 3),
          fixed(viaProxy.median - directTimes.median, 3),
        ],
        [
          'agent → Toolbridge (HTTP) → server',
          fixed(viaHttp.median, 3),
          fixed(viaHttp.p95, 3),
          fixed(added, 3),
        ],
        [
          'host surface (no HTTP) → server',
          fixed(inProcess.median, 3),
          fixed(inProcess.p95, 3),
          fixed(hostOnly, 3),
        ],
      ]),
      '',
      `Added by Toolbridge (median, HTTP endpoint included): ${fixed(added, 3)} ms; target ≤ ${TARGET_ADDED_MS} ms: ${verdict(added <= TARGET_ADDED_MS)}; ` +
        `${fixed(viaHttp.median / viaProxy.median, 2)}× the minimal SDK proxy's whole call`,
    ].join('\n');
  } finally {
    await agent.close().catch(() => undefined);
    await proxied.close().catch(() => undefined);
    await proxy?.close();
    await direct.close().catch(() => undefined);
    await host.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runHostOverheadBench());
