// Stopping stdio servers that ignore SIGTERM (the worst case): Toolbridge's ServerManager.close()
// against the SDK's StdioClientTransport.close(), which waits 2 s after stdin's end and 2 s after
// SIGTERM for each server, closed one after another (as a host that closes in order does) and all
// at once. Every server is the fixture server with test/fixtures/servers/stubborn.cjs preloaded.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ServerManager } from '../dist/servers/server-manager.js';
import { fixed, median, table } from './measure.js';

const FIXTURES = new URL('../test/fixtures/servers/', import.meta.url);
const ARGS = [
  '-r',
  fileURLToPath(new URL('stubborn.cjs', FIXTURES)),
  fileURLToPath(new URL('fixture-server.mjs', FIXTURES)),
  fileURLToPath(new URL('basic.json', FIXTURES)),
];
const SIZES = [1, 3];
const RUNS = 3;

async function timed(stop) {
  const start = process.hrtime.bigint();
  await stop();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function sdkClients(count) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: ARGS, stderr: 'ignore' }),
      );
      return client;
    }),
  );
}

async function toolbridge(count) {
  const manager = new ServerManager();
  for (let i = 0; i < count; i++) {
    await manager.add({
      id: `s${i}`,
      transport: 'stdio',
      command: process.execPath,
      args: ARGS,
      enabled: true,
    });
  }
  return timed(() => manager.close());
}

async function sdkInOrder(count) {
  const clients = await sdkClients(count);
  return timed(async () => {
    for (const client of clients) await client.close();
  });
}

async function sdkAtOnce(count) {
  const clients = await sdkClients(count);
  return timed(() => Promise.all(clients.map((client) => client.close())));
}

export async function runShutdownBench() {
  const rows = [['servers', 'Toolbridge ms', 'SDK in order ms', 'SDK at once ms', 'in order ÷ Toolbridge']];
  for (const count of SIZES) {
    const ours = [];
    const inOrder = [];
    const atOnce = [];
    for (let run = 0; run < RUNS; run++) {
      ours.push(await toolbridge(count));
      inOrder.push(await sdkInOrder(count));
      atOnce.push(await sdkAtOnce(count));
    }
    rows.push([
      String(count),
      fixed(median(ours)),
      fixed(median(inOrder)),
      fixed(median(atOnce)),
      `${(median(inOrder) / median(ours)).toFixed(1)}×`,
    ]);
  }
  return [
    `## Stopping servers that ignore SIGTERM, median of ${RUNS} runs`,
    '',
    table(rows),
    '',
    'Toolbridge stops all servers at once within one 2 s grace period (1 s after stdin, 1 s after SIGTERM).',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runShutdownBench());
