#!/usr/bin/env node
// The conformance suite's client under test: Toolbridge's own upstream connection to a remote
// server (ServerManager + ServerSignIn, as the host composes them), given the URL the suite
// serves. The person's part is played here: when the server needs sign-in, press Sign in
// (ServerSignIn.authorize), "open" the page by following its redirects back to the loopback
// listener, and wait for the reconnect. Then list the tools and call the first one, signing in
// again when a step-up asks for more scopes (at most MAX_SIGN_INS times in all).
// Usage: node scripts/conformance/client.js <server-url> (the suite sets MCP_CONFORMANCE_SCENARIO
// and, for pre-registered clients, MCP_CONFORMANCE_CONTEXT).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySecretStore } from '../../dist/base/secret-store.js';
import { ServerSignIn } from '../../dist/host/server-sign-in.js';
import { ServerManager } from '../../dist/servers/server-manager.js';
import { secretRef } from '../../dist/servers/server-secrets.js';

/** The document URL the suite's Client ID Metadata Document scenario expects as client_id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_SIGN_INS = 3;
const ID = 'conformance';

const serverUrl = process.argv[2];
if (serverUrl === undefined) {
  process.stderr.write('usage: node scripts/conformance/client.js <server-url>\n');
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const log = (line) => process.stderr.write(`${line}\n`);

const secrets = new InMemorySecretStore();
const config = { id: ID, name: ID, transport: 'http', url: serverUrl, enabled: true };
if (typeof context.client_id === 'string') {
  config.oauth = { clientId: context.client_id };
  if (typeof context.client_secret === 'string') {
    await secrets.set(`${ID}:oauth.clientSecret`, context.client_secret);
    config.oauth.clientSecret = secretRef(`${ID}:oauth.clientSecret`);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'toolbridge-conformance-'));
/** Resolved by each reconnect after a sign-in, or by the log line of a sign-in that failed. */
let signedIn;
const manager = new ServerManager({
  fetchFor: (server) => signIn.fetchFor(server),
  scopeNeeded: (server) => signIn.scopeNeeded(server),
});
const signIn = new ServerSignIn({
  secrets,
  dataDir,
  reconnect: async (id) => {
    await manager.restart(id);
    signedIn?.resolve(true);
  },
  log: (line) => {
    log(line);
    if (line.includes('did not finish')) signedIn?.resolve(false);
  },
  options: { clientMetadataUrl: CLIENT_METADATA_URL, signInTimeoutMs: 20_000 },
});

/** What the browser does: follow the authorization server's redirects back to the loopback listener. */
async function openInBrowser(url) {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (location === null || response.status < 300 || response.status >= 400) return;
    next = new URL(location, next);
  }
}

let signIns = 0;
async function signInOnce() {
  if (++signIns > MAX_SIGN_INS) throw new Error(`still not allowed after ${MAX_SIGN_INS} sign-ins`);
  let resolve;
  signedIn = { resolve: (ok) => resolve(ok) };
  const done = new Promise((r) => {
    resolve = r;
  });
  const url = await signIn.authorize(manager.snapshotOf(ID).config);
  await openInBrowser(url);
  if (!(await done)) throw new Error('the sign-in did not finish');
}

const status = () => manager.snapshotOf(ID).status;

let exitCode = 0;
try {
  await manager.add(config);
  while (status() === 'needs-auth') await signInOnce();
  if (status() !== 'connected') throw new Error(`not connected: ${manager.snapshotOf(ID).lastError}`);
  const [tool] = manager.snapshotOf(ID).tools ?? [];
  if (tool !== undefined) {
    for (;;) {
      try {
        await manager.callTool(ID, tool.name, {});
        break;
      } catch (error) {
        // A step-up (403 insufficient_scope) or an expired sign-in: the person signs in again.
        if (status() !== 'needs-auth') throw error;
        log(`call refused: ${error.message}`);
        await signInOnce();
      }
    }
  }
  log(`done: ${tool === undefined ? 'no tools' : `called ${tool.name}`}, ${signIns} sign-in(s)`);
} catch (error) {
  log(`conformance client failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await manager.close();
  await signIn.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
