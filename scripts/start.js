#!/usr/bin/env node
// `npm start`: build what is out of date, then open the desktop app. Where Electron cannot run
// (no binary downloaded, no display), say so in one line and start web mode instead.
// `npm run demo` (--demo, or TOOLBRIDGE_DEMO=1): web mode in a fresh data folder with the test
// fixture connector gateway (github, notion, slack) set up and signed in, to try connecting accounts,
// and the fixture MCP server that needs sign-in, to try the OAuth flow.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findElectronBinary } from './electron-binary.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const demo = process.argv.includes('--demo') || process.env.TOOLBRIDGE_DEMO === '1';
const args = process.argv.slice(2).filter((arg) => arg !== '--demo');

/** Newest modification time under these paths (files or folders), skipping nothing we build from. */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(root, path));
  return latest;
}

/** Oldest of these build outputs, or 0 when one is missing. */
function oldest(paths) {
  let earliest = Number.POSITIVE_INFINITY;
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) return 0;
    earliest = Math.min(earliest, statSync(full).mtimeMs);
  }
  return earliest;
}

function run(script) {
  process.stdout.write(`toolbridge: building (npm run ${script})…\n`);
  const result = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stderr.write(
      `toolbridge: npm run ${script} failed; fix the errors above and run npm start again.\n`,
    );
    process.exit(result.status ?? 1);
  }
}

const FIXTURE_SOURCES = [
  'test/fixtures/gateway/fixture-gateway.ts',
  'test/fixtures/oauth/oauth-mcp-server.ts',
];
const FIXTURES_BUILT = ['out/demo/gateway/fixture-gateway.js', 'out/demo/oauth/oauth-mcp-server.js'];

/**
 * The demo's gateway and sign-in server are the test fixtures themselves (one implementation of
 * each protocol), compiled on demand since they live outside src/; the gateway's catalogs are the
 * small copies in resources/.
 */
async function startDemoFixtures() {
  if (newest(FIXTURE_SOURCES) > oldest(FIXTURES_BUILT)) {
    process.stdout.write('toolbridge: building the demo connector gateway and sign-in server…\n');
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--outDir', 'out/demo', '--rootDir', 'test/fixtures', '--module', 'nodenext'];
    const built = spawnSync(
      process.execPath,
      [
        tsc,
        ...FIXTURE_SOURCES,
        ...flags,
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--strict',
        '--skipLibCheck',
        '--types',
        'node',
      ],
      { cwd: root, stdio: 'inherit' },
    );
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const [gatewayModule, oauthModule] = await Promise.all(
    FIXTURES_BUILT.map((file) => import(pathToFileURL(join(root, file)).href)),
  );
  const gateway = await gatewayModule.startFixtureGateway({
    sharedDataDir: join(root, 'resources', 'demo-connectors'),
  });
  const signIn = await oauthModule.startOAuthMcpServer();
  return { gateway, signIn };
}

/**
 * A fresh data folder whose settings point at the gateway (its token in the secret store) and list
 * the sign-in server, which stays in needs-auth until the user signs in from the Servers view.
 */
async function demoDataDir({ gateway, signIn }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolbridge-demo-'));
  const signInServer = {
    id: 'demo-sign-in',
    name: 'Sign-in demo',
    enabled: true,
    transport: 'http',
    url: signIn.url,
  };
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({
      version: 2,
      connectors: { gatewayUrl: gateway.url, enabled: true },
      servers: [signInServer],
    }),
    { mode: 0o600 },
  );
  const { FileSecretStore } = await import(pathToFileURL(join(root, 'dist/store/file-secret-store.js')).href);
  const { CONNECTOR_GATEWAY_TOKEN_KEY } = await import(
    pathToFileURL(join(root, 'dist/base/secret-store.js')).href
  );
  const { store } = await FileSecretStore.open(dataDir);
  await store.set(CONNECTOR_GATEWAY_TOKEN_KEY, gateway.token);
  return dataDir;
}

const config = ['package.json', 'tsconfig.json', 'tsconfig.base.json'];
if (newest(['src', 'tsconfig.build.json', ...config]) > oldest(['dist/cli/main.js', 'dist/host/host.js'])) {
  run('build:host');
}
if (
  newest(['src', 'main', 'preload', 'renderer', 'electron.vite.config.ts', ...config]) >
  oldest(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])
) {
  run('build:app');
}

/**
 * Runs a child until it exits; its exit code becomes ours. It gets its own process group, so a
 * Ctrl-C reaches it once (forwarded by us) rather than twice (terminal + us), which would make it
 * skip its clean shutdown and leave its MCP servers behind.
 */
function foreground(command, commandArgs, onExit = () => {}) {
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // npm and the terminal may both deliver the same stop; a second one within a second is that echo.
  let forwardedAt = Number.NEGATIVE_INFINITY;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (Date.now() - forwardedAt < 1000) return;
      forwardedAt = Date.now();
      child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => {
    onExit();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

const electron = findElectronBinary();
if (demo) {
  const fixtures = await startDemoFixtures();
  const dataDir = await demoDataDir(fixtures);
  process.stdout.write(
    `toolbridge: demo: connector gateway at ${fixtures.gateway.url} (github, notion, slack; every account starts unlinked) and a server that needs sign-in at ${fixtures.signIn.url} ("Sign-in demo"), data in ${dataDir} (removed on exit). Open the ui: link, then call a connectors__github__… tool from the Playground or an agent: a connection card opens in Cards; or sign in to "Sign-in demo" from Servers.\n`,
  );
  foreground(
    process.execPath,
    [join(root, 'bin', 'toolbridge.js'), 'serve', '--data-dir', dataDir, ...args],
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
} else if ('path' in electron) {
  foreground(electron.path, [root, ...args]);
} else {
  process.stdout.write(
    `toolbridge: the desktop app cannot start here: ${electron.reason}. Starting web mode instead (toolbridge serve); open the ui: link it prints.\n`,
  );
  foreground(process.execPath, [join(root, 'bin', 'toolbridge.js'), 'serve', ...args]);
}
