#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in devDependencies; it fetches nothing) run both ways against the real thing:
// - server scenarios against the agent endpoint of a real `toolbridge serve` (fresh data folder,
//   so the default servers), through a loopback proxy that only adds the agent token (the suite
//   sends none) and keeps every other header, so the Host/Origin checks are the real ones;
// - client scenarios against Toolbridge's upstream client (scripts/conformance/client.js).
// The suite needs Node >= 22: this Node if it is one, else $TOOLBRIDGE_NODE22, else the one
// .ci/run installs. Prints one line per scenario and a Markdown table (--markdown FILE writes it),
// and exits non-zero when a scenario's result differs from scripts/conformance/expected-failures.yml
// (a new failure, or a listed failure that now passes).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const suiteCli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const clientDriver = join(root, 'scripts/conformance/client.js');
const expectedFile = join(root, 'scripts/conformance/expected-failures.yml');
const NODE22_VERSION = '22.23.3';

/** Client scenarios that apply to an MCP client (extensions and client credentials are not Toolbridge's flows). */
export const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
];

/** Why a scenario fails where that is known, shown next to a failure in the table. */
const BARE_TOOL_NAME =
  "not applicable: it calls the suite's reference server's own tool by its bare name; through Toolbridge a server's tools are `mcp__<server>__<tool>` behind `tool_call`";
const BARE_FEATURE_NAME =
  "not applicable: it asks for the suite's reference server's own resource URI or prompt by its bare name; through Toolbridge they are `toolbridge://<server>/<uri>` and `<server>__<prompt>` (listing, reading, getting and subscribing are relayed: test/integration/host/passthrough.test.ts)";
export const FAILURE_NOTES = {
  server: {
    ...Object.fromEntries(
      [
        'tools-call-simple-text',
        'tools-call-image',
        'tools-call-audio',
        'tools-call-embedded-resource',
        'tools-call-mixed-content',
        'tools-call-error',
        'tools-call-with-progress',
        'tools-call-sampling',
        'tools-call-elicitation',
        'elicitation-sep1034-defaults',
        'elicitation-sep1330-enums',
      ].map((name) => [name, BARE_TOOL_NAME]),
    ),
    'tools-call-with-logging': BARE_TOOL_NAME,
    ...Object.fromEntries(
      [
        'completion-complete',
        'resources-read-text',
        'resources-read-binary',
        'resources-templates-read',
        'resources-subscribe',
        'resources-unsubscribe',
        'prompts-get-simple',
        'prompts-get-with-args',
        'prompts-get-embedded-resource',
        'prompts-get-with-image',
      ].map((name) => [name, BARE_FEATURE_NAME]),
    ),
  },
  client: {
    'elicitation-sep1034-client-defaults':
      'not applicable to the driver: its upstream client has no agent and no person to answer, so it declares no elicitation; the host answers through the agent or a card (test/integration/host/client-requests.test.ts)',
  },
};

function failureNote(side, scenario) {
  return FAILURE_NOTES[side][scenario] ?? '';
}

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

function nodeMajor(binary) {
  const result = spawnSync(binary, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : 0;
}

function findNode22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const cache =
    process.env.TOOLBRIDGE_CI_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'toolbridge-ci');
  for (const candidate of [
    process.env.TOOLBRIDGE_NODE22,
    join(cache, `node-${NODE22_VERSION}`, 'node_modules/.bin/node'),
  ]) {
    if (candidate && existsSync(candidate) && nodeMajor(candidate) >= 22) return candidate;
  }
  fail(
    `the conformance suite needs Node 22 or later, and this is Node ${process.versions.node}. ` +
      'Run it with Node 22, set TOOLBRIDGE_NODE22=/path/to/node22, or run .ci/run once (it installs one).',
  );
}

/** The scenario names the baseline lists, by side (a YAML subset: `server:`/`client:` then `- name`). */
export function readExpected(file = expectedFile) {
  const expected = { server: new Set(), client: new Set() };
  let side;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trimEnd();
    const header = /^(server|client):/.exec(line);
    if (header) side = header[1];
    const item = /^\s+-\s+(\S+)/.exec(line);
    if (item && side) expected[side].add(item[1]);
  }
  return expected;
}

function run(binary, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Every checks.json under a results folder, keyed by scenario (the folder names it). */
function readChecks(dir, prefix = '') {
  const found = new Map();
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === 'checks.json')
        found.set(full.slice(dir.length + 1), JSON.parse(readFileSync(full, 'utf8')));
    }
  };
  if (existsSync(dir)) visit(dir);
  return [...found].map(([path, checks]) => ({ path: prefix + path, checks }));
}

/** The distinct reasons of the first failed checks, enough to say what went wrong. */
function firstReasons(failures) {
  const reasons = [...new Set(failures.map((check) => check.errorMessage ?? check.description ?? check.id))];
  return reasons.length > 2 ? `${reasons.slice(0, 2).join('; ')}; …` : reasons.join('; ');
}

export function summarize(checks) {
  const count = (status) => checks.filter((check) => check.status === status).length;
  const failures = checks.filter((check) => check.status === 'FAILURE');
  const warnings = count('WARNING');
  return {
    passed: failures.length === 0 && checks.length > 0,
    text:
      checks.length === 0
        ? 'no checks ran'
        : failures.length > 0
          ? `fail: ${firstReasons(failures)}`
          : `pass (${count('SUCCESS')} checks${warnings > 0 ? `, ${warnings} warnings` : ''})`,
  };
}

async function runClientScenarios(node22, outDir) {
  const results = [];
  for (const scenario of CLIENT_SCENARIOS) {
    const dir = join(outDir, 'client', scenario.replaceAll('/', '_'));
    const { output } = await run(node22, [
      suiteCli,
      'client',
      '--command',
      `"${node22}" "${clientDriver}"`,
      '--scenario',
      scenario,
      '--timeout',
      '30000',
      '-o',
      dir,
    ]);
    const checks = readChecks(dir).flatMap((entry) => entry.checks);
    const summary = summarize(checks);
    if (checks.length === 0)
      summary.text = `no checks ran: ${output.trim().split('\n').slice(-3).join(' / ')}`;
    results.push({ side: 'client', scenario, ...summary });
    process.stdout.write(`client ${scenario}: ${summary.text}\n`);
  }
  return results;
}

/** Starts `toolbridge serve` on a fresh data folder and resolves with its agent endpoint. */
async function startServe(dataDir, token) {
  const child = spawn(
    process.execPath,
    [join(root, 'bin/toolbridge.js'), 'serve', '--data-dir', dataDir, '--port', '0', '--policy', 'allow'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TOOLBRIDGE_AGENT_TOKEN: token } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const endpoint = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /agent endpoint: (\S+)/.exec(stdout);
      if (match && stdout.includes('ui: ')) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`toolbridge serve exited (${code}): ${stderr.trim()}`)));
  });
  return { child, endpoint: new URL(endpoint) };
}

/**
 * A loopback proxy that adds the agent token and passes everything else through: a Host or
 * Origin naming the proxy is renamed to the endpoint (what a client that knew the real port would
 * send); any other Host or Origin reaches Toolbridge unchanged, so its DNS-rebinding check is tested.
 */
async function startTokenProxy(endpoint, token) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = `127.0.0.1:${server.address().port}`;
  const ownNames = new Set([own, `localhost:${server.address().port}`]);
  server.on('request', (req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (ownNames.has(headers.host ?? '')) headers.host = endpoint.host;
    if (headers.origin !== undefined) {
      try {
        const origin = new URL(headers.origin);
        if (ownNames.has(origin.host)) headers.origin = `${origin.protocol}//${endpoint.host}`;
      } catch {
        // Not a URL: Toolbridge answers it.
      }
    }
    const upstream = httpRequest(
      { host: endpoint.hostname, port: endpoint.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });
  return { url: `http://${own}${endpoint.pathname}`, close: () => server.close() };
}

async function runServerScenarios(node22, outDir) {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolbridge-conformance-serve-'));
  const token = randomBytes(24).toString('base64url');
  const { child, endpoint } = await startServe(dataDir, token);
  const proxy = await startTokenProxy(endpoint, token);
  try {
    const dir = join(outDir, 'server');
    await run(node22, [suiteCli, 'server', '--url', proxy.url, '-o', dir]);
    return readChecks(dir).map(({ path, checks }) => {
      // Folder names are `server-<scenario>-<timestamp>`.
      const scenario = path
        .split('/')[0]
        .replace(/^server-/, '')
        .replace(/-\d{4}-\d\d-\d\dT.*$/, '');
      const summary = summarize(checks);
      process.stdout.write(`server ${scenario}: ${summary.text}\n`);
      return { side: 'server', scenario, ...summary };
    });
  } finally {
    proxy.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdown(results, versionLine) {
  const lines = [versionLine, '', '| Side | Scenario | Result | Why |', '| --- | --- | --- | --- |'];
  for (const result of results) {
    const why = result.passed ? '' : failureNote(result.side, result.scenario);
    const text = result.text.length > 140 ? `${result.text.slice(0, 139)}…` : result.text;
    lines.push(
      `| ${result.side} | \`${result.scenario}\` | ${text.replaceAll('|', '\\|').replaceAll('\n', ' ')} | ${why} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const args = process.argv.slice(2);
  const markdownFile = args.includes('--markdown') ? args[args.indexOf('--markdown') + 1] : undefined;
  const only = args.includes('--client') ? 'client' : args.includes('--server') ? 'server' : undefined;
  const node22 = findNode22();
  if (!args.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build:host'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) fail('npm run build:host failed');
  }
  const outDir = mkdtempSync(join(tmpdir(), 'toolbridge-conformance-'));
  const results = [];
  try {
    if (only !== 'client') results.push(...(await runServerScenarios(node22, outDir)));
    if (only !== 'server') results.push(...(await runClientScenarios(node22, outDir)));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  const suiteVersion = JSON.parse(
    readFileSync(join(root, 'node_modules/@modelcontextprotocol/conformance/package.json'), 'utf8'),
  ).version;
  const node = spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  const versionLine = `@modelcontextprotocol/conformance ${suiteVersion}, Node ${node}, ${new Date().toISOString().slice(0, 10)}${commit === '' ? '' : `, Toolbridge at ${commit}`}`;
  const table = markdown(results, versionLine);
  if (markdownFile !== undefined) writeFileSync(markdownFile, table);
  const expected = readExpected();
  const surprises = results.filter((result) => result.passed === expected[result.side].has(result.scenario));
  const passed = results.filter((result) => result.passed).length;
  process.stdout.write(`\n${passed} of ${results.length} scenarios pass (${versionLine}).\n`);
  for (const result of surprises) {
    process.stdout.write(
      result.passed
        ? `  now passes, remove it from expected-failures.yml: ${result.side} ${result.scenario}\n`
        : `  unexpected failure: ${result.side} ${result.scenario}\n`,
    );
  }
  process.exit(surprises.length === 0 ? 0 : 1);
}

// Run as a command; imported (by its tests), it only defines.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
