/**
 * The fuzz harness (issue #12): random and mutated calls of the four bridge tools through the
 * SDK's real Client against a real host, and random and mutated frames on the real UI socket.
 * Every outcome is sorted: a structured result or error is fine; an unstructured error (JSON-RPC
 * -32603, a schema dump, an INTERNAL reply), a hang over 5 s, or a host that stops answering is
 * a finding. `npm test` runs a few hundred cases; `npm run fuzz -- --cases N` runs more.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import WebSocket from 'ws';
import { z } from 'zod';
import { UI_METHODS } from '../../src/api/ui-api.js';
import type { Host } from '../../src/host/host.js';
import { WebUi } from '../../src/web/web-ui.js';
import { connectDefaultAgent } from '../helpers/host-kit.js';
import { SAMPLE_PARAMS } from '../unit/web/sample-params.js';
import { exchangeLaunchSecret, startTestHost } from './listener-kit.js';

export const HANG_MS = 5000;

export type Outcome = 'result' | 'structured-error' | 'unstructured-error' | 'hang' | 'crash';

export interface Finding {
  outcome: Outcome;
  input: string;
  detail: string;
}

export interface FuzzReport {
  target: string;
  seed: number;
  cases: number;
  counts: Record<Outcome, number>;
  findings: Finding[];
  p50Ms: number;
  p99Ms: number;
}

const BRIDGE_TOOLS = ['tool_search', 'tool_describe', 'tool_call', 'manage_connections'];
const CALLABLE = [
  'mcp__basic__echo',
  'mcp__basic__rich',
  'mcp__basic__pid',
  'tool_search',
  'connectors__gmail__send',
];

/** JSON nested `depth` deep, arrays or objects. */
function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

// The SDK's client cannot serialize much deeper; raw JSON-RPC at 100,000 levels is tested apart.
const deep = fc
  .tuple(fc.integer({ min: 30, max: 400 }), fc.boolean())
  .map(([depth, asArray]) => nested(depth, asArray));
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), deep, fc.string(), fc.constant(null));
const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '__proto__', 'constructor', 'a'.repeat(5000), '💥'.repeat(100)),
);

/** Arguments for one bridge tool: mostly near the schema, mutated, sometimes not an object at all. */
const bridgeArguments = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      { queries: fc.array(oddString, { maxLength: 30 }), limit: fc.oneof(fc.integer(), anyJson) },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      { names: fc.oneof(fc.array(oddString, { maxLength: 60 }), anyJson) },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        calls: fc.oneof(
          fc.array(
            fc.record(
              {
                name: fc.oneof(fc.constantFrom(...CALLABLE), oddString, anyJson),
                arguments: fc.oneof(fc.record({ message: oddString }), anyJson),
                account: fc.oneof(oddString, anyJson),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 12 },
          ),
          anyJson,
        ),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        action: fc.oneof(
          fc.constantFrom('status', 'connect', 'reconnect', 'rename', 'enable', 'authorize'),
          oddString,
          anyJson,
        ),
        connectors: fc.oneof(
          fc.array(fc.oneof(oddString, fc.record({ name: oddString, alias: oddString, to: oddString })), {
            maxLength: 5,
          }),
          anyJson,
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.dictionary(oddString, anyJson, { maxKeys: 8 }) },
  { weight: 2, arbitrary: anyJson },
  {
    weight: 1,
    arbitrary: deep.map((value) => ({
      calls: [{ name: 'mcp__basic__echo', arguments: { message: value } }],
    })),
  },
);

export const agentCase = fc.record({
  name: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...BRIDGE_TOOLS) },
    { weight: 1, arbitrary: oddString },
  ),
  arguments: bridgeArguments,
});

/** Methods whose valid sample would start a process on the fuzzing machine (a stdio server). */
const SPAWNS = new Set(['addServer', 'updateServer', 'confirmImport']);
const SAMPLED = UI_METHODS.filter((method) => safeUiMethod(method) && !SPAWNS.has(method));

/** A valid call as the renderer sends it, then maybe one parameter swapped, dropped or added. */
const mutatedSample = fc
  .tuple(
    fc.nat(),
    fc.constantFrom(...SAMPLED),
    fc.nat({ max: 7 }),
    fc.constantFrom('keep', 'swap', 'drop', 'add'),
    anyJson,
  )
  .map(([id, method, at, how, value]) => {
    const params = [...SAMPLE_PARAMS[method]];
    const index = params.length === 0 ? 0 : at % params.length;
    if (how === 'swap' && params.length > 0) params[index] = value;
    if (how === 'drop') params.splice(index, 1);
    if (how === 'add') params.push(value);
    return JSON.stringify({ id, method, params });
  });

/** One UI frame: mutated valid requests, random JSON, or bytes that are not JSON. */
export const uiFrame = fc.oneof(
  { weight: 6, arbitrary: mutatedSample },
  {
    weight: 6,
    arbitrary: fc
      .record({
        id: fc.oneof(fc.nat(), anyJson),
        method: fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...UI_METHODS.filter(safeUiMethod)) },
          { weight: 1, arbitrary: oddString },
        ),
        params: fc.oneof(fc.array(anyJson, { maxLength: 4 }), anyJson),
      })
      .map((frame) => JSON.stringify(frame)),
  },
  { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
);

/**
 * Methods whose random parameters could lock the fuzzer out of its own host (sign the UI out,
 * revoke the agent it fuzzes with) stay out; everything else is fair game.
 */
function safeUiMethod(method: string): boolean {
  return method !== 'revokeAgent' && method !== 'signOutConnectorGateway';
}

const AnyResult = z.object({}).passthrough();

/** Sorts one tools/call outcome. A structured error says what was wrong in words, not a schema dump. */
export function classifyAgentError(error: unknown): { outcome: Outcome; detail: string } {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return { outcome: 'hang', detail: error.message.slice(0, 300) };
  }
  if (error instanceof McpError) {
    const dump = /"code":\s*"|invalid_type|invalid_union|ZodError|"path":\s*\[/.test(error.message);
    const structured = [-32602, -32601, -32600].includes(error.code) && !dump;
    return {
      outcome: structured ? 'structured-error' : 'unstructured-error',
      detail: `${error.code} ${error.message.slice(0, 300)}`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|timeout/i.test(message)) return { outcome: 'hang', detail: message.slice(0, 300) };
  return { outcome: 'unstructured-error', detail: message.slice(0, 300) };
}

export interface FuzzHosts {
  agentHost: Host;
  uiHost: Host;
  webUi: WebUi;
  agent: Client;
  wsUrl: string;
  cookie: string;
  close(): Promise<void>;
}

/** A host with the fixture server for the agent, and a second one (no servers) behind the web UI. */
export async function startFuzzHosts(): Promise<FuzzHosts> {
  const agentSide = await startTestHost('allow');
  const uiSide = await startTestHost('deny', {}, []);
  const webUi = new WebUi({
    api: uiSide.host.api,
    rendererDir: uiSide.dataDir,
    // The fuzzer sends far faster than a page; the flood limit is tested on its own.
    socket: { rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } },
  });
  webUi.mount(uiSide.host.http!);
  const base = uiSide.host.http!.url;
  const cookie = await exchangeLaunchSecret(
    base,
    new URL(webUi.launchUrl(base)).hash.replace('#secret=', ''),
  );
  const agent = await connectDefaultAgent(agentSide.host, 'fuzzer');
  return {
    agentHost: agentSide.host,
    uiHost: uiSide.host,
    webUi,
    agent,
    wsUrl: `${base.replace('http:', 'ws:')}/api/ws`,
    cookie,
    async close() {
      await agent.close().catch(() => undefined);
      await webUi.close();
      await agentSide.close();
      await uiSide.close();
    },
  };
}

function emptyCounts(): Record<Outcome, number> {
  return { result: 0, 'structured-error': 0, 'unstructured-error': 0, hang: 0, crash: 0 };
}

function summarize(
  target: string,
  seed: number,
  cases: number,
  counts: Record<Outcome, number>,
  findings: Finding[],
  latencies: number[],
): FuzzReport {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    target,
    seed,
    cases,
    counts,
    findings,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** Runs `cases` generated tools/call requests through the SDK client; the host must answer each. */
export async function fuzzAgent(hosts: FuzzHosts, cases: number, seed: number): Promise<FuzzReport> {
  const counts = emptyCounts();
  const findings: Finding[] = [];
  const latencies: number[] = [];
  let client: Client | undefined;
  for (const [index, input] of fc.sample(agentCase, { numRuns: cases, seed }).entries()) {
    // A fresh client now and then: the SDK client's fetches keep abort listeners on one signal.
    if (index % CASES_PER_CLIENT === 0) client = await replaceClient(hosts, client);
    const started = performance.now();
    let outcome: Outcome;
    let detail = '';
    try {
      const result = await client!.request(
        { method: 'tools/call', params: input as { name: string; arguments: Record<string, unknown> } },
        AnyResult,
        { timeout: HANG_MS },
      );
      outcome = Array.isArray(result.content) ? 'result' : 'unstructured-error';
      if (outcome !== 'result') detail = preview(result);
      else if (/internal error/i.test(JSON.stringify(result.content))) {
        outcome = 'unstructured-error';
        detail = preview(result.content);
      }
    } catch (error) {
      ({ outcome, detail } = classifyAgentError(error));
    }
    latencies.push(performance.now() - started);
    if (outcome !== 'result' && outcome !== 'structured-error')
      findings.push({ outcome, input: preview(input), detail });
    counts[outcome]++;
    if (outcome === 'hang' && !(await hostAnswers(hosts))) {
      counts.crash++;
      findings.push({ outcome: 'crash', input: preview(input), detail: 'the host stopped answering' });
      break;
    }
  }
  await replaceClient(hosts, client, false);
  if (!(await hostAnswers(hosts))) {
    counts.crash++;
    findings.push({
      outcome: 'crash',
      input: '(after the run)',
      detail: 'the agent session no longer answers',
    });
  }
  return summarize('bridge tools', seed, cases, counts, findings, latencies);
}

const CASES_PER_CLIENT = 1000;

/** Ends `old`'s session (DELETE, so it does not count against the token's cap) and opens another. */
async function replaceClient(
  hosts: FuzzHosts,
  old: Client | undefined,
  open = true,
): Promise<Client | undefined> {
  if (old !== undefined) {
    await (old.transport as StreamableHTTPClientTransport | undefined)
      ?.terminateSession()
      .catch(() => undefined);
    await old.close().catch(() => undefined);
  }
  return open ? connectDefaultAgent(hosts.agentHost, 'fuzzer') : undefined;
}

async function hostAnswers(hosts: FuzzHosts): Promise<boolean> {
  try {
    await hosts.agent.listTools(undefined, { timeout: HANG_MS });
    return true;
  } catch {
    return false;
  }
}

/** Sends `cases` generated frames over one real UI socket (reconnecting when the server closes it). */
export async function fuzzUiSocket(hosts: FuzzHosts, cases: number, seed: number): Promise<FuzzReport> {
  const counts = emptyCounts();
  const findings: Finding[] = [];
  const latencies: number[] = [];
  let socket = await openUiSocket(hosts);
  for (const frame of fc.sample(uiFrame, { numRuns: cases, seed })) {
    if (socket.readyState !== WebSocket.OPEN) socket = await openUiSocket(hosts);
    const started = performance.now();
    const { outcome, detail } = await sendFrame(socket, frame);
    latencies.push(performance.now() - started);
    counts[outcome]++;
    if (outcome !== 'result' && outcome !== 'structured-error')
      findings.push({ outcome, input: preview(frame), detail });
  }
  socket.close();
  const probe = await openUiSocket(hosts).then(
    async (ws) => {
      const answer = await sendFrame(ws, JSON.stringify({ id: 1, method: 'listServers', params: [] }));
      ws.close();
      return answer.outcome === 'result';
    },
    () => false,
  );
  if (!probe) {
    counts.crash++;
    findings.push({ outcome: 'crash', input: '(after the run)', detail: 'the UI socket no longer answers' });
  }
  return summarize('UI socket', seed, cases, counts, findings, latencies);
}

function openUiSocket(hosts: FuzzHosts): Promise<WebSocket> {
  const origin = hosts.wsUrl.replace('ws:', 'http:').replace('/api/ws', '');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(hosts.wsUrl, { headers: { Cookie: hosts.cookie, Origin: origin } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * One frame's outcome: a reply with `ok` (or a structured INVALID_ARGUMENT/NOT_FOUND/… error) is
 * fine; INTERNAL, a socket closed for anything but a protocol reason, or no answer within HANG_MS
 * is a finding. Each frame gets exactly one reply, matched in order (ids may be garbage).
 */
function sendFrame(ws: WebSocket, frame: string): Promise<{ outcome: Outcome; detail: string }> {
  return new Promise((resolve) => {
    const done = (outcome: Outcome, detail: string) => {
      clearTimeout(timer);
      ws.off('message', onMessage);
      ws.off('close', onClose);
      resolve({ outcome, detail });
    };
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as {
        type: string;
        reply?: { ok: boolean; error?: { code: string; message: string } };
      };
      if (message.type !== 'reply') return;
      const reply = message.reply!;
      if (reply.ok) return done('result', '');
      const code = reply.error?.code ?? '';
      done(
        code === 'INTERNAL' || code === '' ? 'unstructured-error' : 'structured-error',
        `${code} ${reply.error?.message ?? ''}`.slice(0, 300),
      );
    };
    const onClose = (code: number) =>
      done(code === 1009 || code === 1008 ? 'structured-error' : 'unstructured-error', `closed ${code}`);
    const timer = setTimeout(() => done('hang', `no reply in ${HANG_MS} ms`), HANG_MS);
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.send(frame);
  });
}

/** The report as printed by `npm run fuzz` and on a failing `npm test`. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `${report.target}: ${report.cases} cases, seed ${report.seed}`,
    `  results ${report.counts.result}, structured errors ${report.counts['structured-error']}, ` +
      `unstructured errors ${report.counts['unstructured-error']}, hangs over ${HANG_MS / 1000} s ${report.counts.hang}, crashes ${report.counts.crash}`,
    `  latency p50 ${report.p50Ms.toFixed(1)} ms, p99 ${report.p99Ms.toFixed(1)} ms`,
  ];
  for (const finding of report.findings.slice(0, 20))
    lines.push(`  ${finding.outcome}: ${finding.input}\n    → ${finding.detail}`);
  return lines.join('\n');
}
