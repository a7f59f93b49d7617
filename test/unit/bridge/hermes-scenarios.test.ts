/**
 * The reference scenarios (../shared/reference/hermes-scenarios.json, §7.1) that are bridge
 * calls: every `search` scenario with `tool_search_args`, every `describe` and every `call`
 * scenario, one `it` per id. Each `expect` key is checked by a named rule below; a key with no
 * rule fails the test, so nothing passes by being ignored. Scenarios that touch the connector
 * gateway run the real gateway client, legs and executor against a loopback gateway that answers
 * with the scenario's literal payloads (`canned-gateway.ts`).
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isPlainObject, type JsonObject } from '../../../src/base/json.js';
import { createArgumentValidator } from '../../../src/bridge/argument-validator.js';
import { normalizeCallEnvelope } from '../../../src/bridge/call-envelope.js';
import type { ToolExecutor } from '../../../src/bridge/types.js';
import {
  composeConnectorName,
  parseConnectorName,
  slugCandidates,
} from '../../../src/catalog/connector-names.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import { ConnectorExecutor } from '../../../src/connectors/connector-executor.js';
import { gatewayConnectorLegs } from '../../../src/connectors/connector-legs.js';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import { HERMES_OPTIONS } from '../../../src/search/index.js';
import {
  type BackendCall,
  buildSurface,
  CONTEXT,
  type ExecutorCall,
  fakeConnectorBackend,
  payloadOf,
  recordingExecutor,
} from './bridge-fixtures.js';
import { type CannedAnswer, type CannedGateway, startCannedGateway } from './canned-gateway.js';

interface ScenarioTool {
  name: string;
  source: string | null;
  description: string;
  parameters?: JsonObject;
}

interface Scenario {
  id: string;
  kind: string;
  catalog: ScenarioTool[] | { generate: ScenarioTool & { count: number } } | null;
  input: Record<string, unknown>;
  expect: Record<string, unknown>;
}

const SCENARIOS = JSON.parse(
  readFileSync(new URL('../../../../shared/reference/hermes-scenarios.json', import.meta.url), 'utf8'),
) as Scenario[];

/** Metadata, not assertions. */
const METADATA_KEYS = new Set(['pinned_by', 'peer_verified']);

function scenarioEntries(catalog: Scenario['catalog']): CatalogEntry[] {
  if (catalog === null) return [];
  if (Array.isArray(catalog)) return catalog.map(toEntry);
  const { count, ...pattern } = catalog.generate;
  return Array.from({ length: count }, (_, i) =>
    toEntry({
      ...pattern,
      name: pattern.name.replaceAll('{i}', String(i)),
      description: pattern.description.replaceAll('{i}', String(i)),
    }),
  );
}

/** Hermes toolset `mcp-x` → our server id `x` (source mcp); another toolset → plugin; none → other. */
function toEntry(tool: ScenarioTool): CatalogEntry {
  const source = tool.source;
  return {
    name: tool.name,
    serverId: source === null ? '' : source.replace(/^mcp-/, ''),
    toolName: tool.name,
    source: source === null ? 'other' : source.startsWith('mcp-') ? 'mcp' : 'plugin',
    description: tool.description,
    inputSchema: tool.parameters,
  };
}

function coreEntry(name: string): CatalogEntry {
  return {
    name,
    serverId: '',
    toolName: name,
    source: 'other',
    description: `${name} (core)`,
    inputSchema: undefined,
  };
}

const FILLER: CatalogEntry = {
  name: 'mcp__filler__unrelated_tool',
  serverId: 'filler',
  toolName: 'unrelated_tool',
  source: 'mcp',
  description: 'Placeholder.',
  inputSchema: undefined,
};

interface Outcome {
  /** Which variant of the scenario this is (several call shapes, several gateway cases). */
  variant: number;
  payload: Record<string, unknown> | null;
  result?: CallToolResult;
  executorCalls: ExecutorCall[];
  /** Connector entries as they reached the gateway (one per execute request). */
  backendCalls: BackendCall[];
  /** Every request the gateway received. */
  gateway?: CannedGateway;
  /** Twin warnings from the search leg. */
  warnings: string[];
  /** The same search with a gateway that found nothing (reference "local-only arm"). */
  localOnly?: Record<string, unknown> | null;
  /** normalize scenarios */
  entries?: unknown[];
}

const NO_ROUTE: CannedAnswer = { status: 404, body: { error: { code: 'NOT_FOUND', message: 'No route.' } } };

/** The gateway a scenario describes: `remote` (search), `remote_describe` / `gateway_describe` /
 * one of `gateway_describe_cases` (schemas), `gateway_behaviour` (execute: slug, then `*`). */
function scenarioGateway(input: Record<string, unknown>, describeCase: Record<string, unknown> | undefined) {
  return (endpoint: string, body: unknown): CannedAnswer => {
    if (endpoint === 'search') {
      const remote = input.remote;
      if (isPlainObject(remote) && 'raises' in remote) return 'reset';
      return { status: 200, body: remote ?? { results: [], schemas: {} } };
    }
    if (endpoint === 'schemas') return schemasAnswer(input, describeCase);
    if (endpoint === 'execute') {
      const tool = (body as { tools: Array<{ tool: string }> }).tools[0]!.tool;
      const behaviour = (input.gateway_behaviour as Record<string, unknown>) ?? {};
      const rule = behaviour[tool] ?? behaviour['*'];
      if (rule === 'raises') return 'reset';
      const result =
        isPlainObject(rule) && isPlainObject(rule.error)
          ? { index: 0, error: rule.error }
          : { index: 0, data: isPlainObject(rule) ? String(rule.data).replace('{tool}', tool) : 'ok' };
      return { status: 200, body: { results: [result] } };
    }
    return NO_ROUTE;
  };
}

function schemasAnswer(
  input: Record<string, unknown>,
  describeCase: Record<string, unknown> | undefined,
): CannedAnswer {
  const client = describeCase?.client;
  if (typeof client === 'string' && client.includes('GatewayAuthError')) {
    return { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Sign in again.' } } };
  }
  if (typeof client === 'string' && client.startsWith('raises')) return 'reset';
  const gatewayDescribe = input.gateway_describe as { gateway_schemas?: unknown } | undefined;
  if (gatewayDescribe !== undefined)
    return { status: 200, body: { schemas: gatewayDescribe.gateway_schemas } };
  const remote = input.remote_describe;
  if (input.tool_call_args !== undefined && remote === undefined) return callSchemas(input);
  if (!isPlainObject(remote) || Object.keys(remote).length === 0) return NO_ROUTE; // dark
  if ('raises' in remote) return 'reset';
  // The reference gives described names; the wire carries each under its prefixed slug.
  const schemas: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(remote.tools as Record<string, JsonObject>)) {
    const parsed = parseConnectorName(name)!;
    const [slug] = slugCandidates(parsed);
    schemas[slug] = {
      connector: parsed.connector,
      tool: slug,
      description: tool.description,
      inputSchema: tool.parameters,
    };
  }
  return { status: 200, body: { schemas } };
}

/**
 * A call scenario's gateway knows every slug its entries may stand for, except the ones its
 * `gateway_behaviour` says are not found: Toolbridge resolves each name with one schemas request
 * before the policy decides (issue #12), where Hermes sends the execute request straight away.
 */
function callSchemas(input: Record<string, unknown>): CannedAnswer {
  const behaviour = (input.gateway_behaviour as Record<string, unknown>) ?? {};
  const schemas: Record<string, unknown> = {};
  for (const name of callNames(input.tool_call_args)) {
    const parsed = parseConnectorName(name);
    if (parsed === undefined) continue;
    for (const slug of slugCandidates(parsed)) {
      const rule = behaviour[slug];
      if (isPlainObject(rule) && isPlainObject(rule.error) && rule.error.code === 'TOOL_NOT_FOUND') continue;
      schemas[slug] = { connector: parsed.connector, tool: slug, description: '', inputSchema: {} };
    }
  }
  return { status: 200, body: { schemas } };
}

/**
 * Deliberate differences (issue #12): a name runs only the slug it is exactly the name of, found
 * before the call. So a literal slug is reached without a failed execute of the prefixed one
 * first, and `connectors__first__SECOND_X` is not an alias of the second connector's SECOND_X.
 */
const DIFFERENT_EXPECTATIONS: Record<string, Record<string, unknown>> = {
  'call-literal-slug-retry': {
    execute_requests_tools: [['GMAIL_SEND_EMAIL'], ['FETCH_NOTES'], ['SLACK_POST_MESSAGE']],
  },
  'describe-gateway-shared-candidate': { tools_keys: ['connectors__second__X'] },
};

/** What reached the gateway's execute endpoint, one entry per request. */
function executedEntries(gateway: CannedGateway | undefined): BackendCall[] {
  const bodies = (gateway?.bodies('execute') ?? []) as Array<{
    tools: Array<{ connector: string; tool: string; arguments: Record<string, unknown> }>;
  }>;
  return bodies.flatMap((body) =>
    body.tools.map((tool) => ({
      name: composeConnectorName(tool.connector, tool.tool),
      connector: tool.connector,
      tool: tool.tool,
      args: tool.arguments,
    })),
  );
}

function callNames(args: unknown): string[] {
  if (!isPlainObject(args)) return [];
  if (Array.isArray(args.calls))
    return args.calls.map((call) => (isPlainObject(call) ? String(call.name) : ''));
  return typeof args.name === 'string' ? [args.name] : [];
}

async function run(scenario: Scenario): Promise<Outcome[]> {
  const outcomes = await runVariants(scenario);
  const remote = scenario.input.remote;
  if (isPlainObject(remote) && 'raises' in remote) {
    const [localOnly] = await runVariants({ ...scenario, input: { ...scenario.input, remote: undefined } });
    for (const outcome of outcomes) outcome.localOnly = localOnly?.payload;
  }
  return outcomes;
}

async function runVariants(scenario: Scenario): Promise<Outcome[]> {
  const { input } = scenario;
  const entries = scenarioEntries(scenario.catalog);
  const core = [
    ...new Set([
      ...((input.registry_core as string[]) ?? []),
      ...((input.current_tool_defs as string[]) ?? []),
    ]),
  ];
  if (typeof input.defer === 'string' && input.defer.includes('todo_list'))
    entries.push(coreEntry('todo_list'));

  if (input.normalize !== undefined) {
    const normalized = normalizeCallEnvelope(input.normalize as Record<string, unknown>);
    const none = { variant: 0, executorCalls: [], backendCalls: [], warnings: [] };
    return [
      'error' in normalized
        ? { ...none, payload: { error: normalized.error }, entries: [] }
        : { ...none, payload: { error: null }, entries: normalized.entries },
    ];
  }
  if (input.validate !== undefined) {
    const { name, arguments: args } = input.validate as { name: string; arguments: Record<string, unknown> };
    const schema = entries.find((entry) => entry.name === name)?.inputSchema;
    const check = createArgumentValidator().check(name, schema, args, 'tool_call');
    return [
      {
        variant: 0,
        payload: check.ok ? null : { ...check.error },
        executorCalls: [],
        backendCalls: [],
        warnings: [],
      },
    ];
  }

  const handlerReturns = input.handler_returns as JsonObject | undefined;
  const variants: Array<Record<string, unknown>> = [];
  if (input.tool_search_args !== undefined)
    variants.push({ tool: 'tool_search', args: input.tool_search_args });
  if (input.tool_describe_args !== undefined)
    variants.push({ tool: 'tool_describe', args: input.tool_describe_args });
  const gatewayDescribe = input.gateway_describe as { names: string[] } | undefined;
  if (gatewayDescribe !== undefined)
    variants.push({ tool: 'tool_describe', args: { names: gatewayDescribe.names } });
  for (const describeCase of (input.gateway_describe_cases as Array<Record<string, unknown>>) ?? []) {
    variants.push({
      tool: 'tool_describe',
      args: { names: ['connectors__gmail__SEND_EMAIL'] },
      describeCase,
    });
  }
  if (input.tool_call_args !== undefined) variants.push({ tool: 'tool_call', args: input.tool_call_args });
  for (const calls of (input.variants as unknown[][]) ?? [])
    variants.push({ tool: 'tool_call', args: { calls } });
  if (input.dispatch_connector_batch !== undefined) {
    variants.push({ tool: 'tool_call', args: { calls: input.dispatch_connector_batch } });
  }

  const outcomes: Outcome[] = [];
  for (const [position, variant] of variants.entries()) {
    const args = variant.args as Record<string, unknown>;
    const executor = recordingExecutor((_entry, callArgs) => {
      const value = handlerReturns
        ? JSON.parse(JSON.stringify(handlerReturns).replace(/<(\w+)>/g, (_, key) => String(callArgs[key])))
        : { ok: true };
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    });
    const describeCase = variant.describeCase as Record<string, unknown> | undefined;
    const inScope =
      input.connections_in_scope === true ||
      input.connectors_available === true ||
      gatewayDescribe !== undefined ||
      describeCase !== undefined ||
      callNames(args).some((name) => name.startsWith('connectors__'));
    const gateway = inScope ? await startCannedGateway(scenarioGateway(input, describeCase)) : undefined;
    // A case where connectors are unavailable: no gateway configured (dark).
    const client =
      describeCase?.availability === false
        ? new GatewayClient({ baseUrl: undefined, token: undefined })
        : gateway?.client();
    const warnings: string[] = [];
    // The reference's redaction hook, as a wrapper in front of the executor (where hooks and approvals sit).
    const wrap =
      typeof input.pre_tool_call_hook === 'string'
        ? (inner: ToolExecutor): ToolExecutor => ({
            callTool: (entry, callArgs, context) =>
              inner.callTool(entry, { ...callArgs, body: '[REDACTED]' }, context),
          })
        : undefined;
    // Hermes' tests call the bridge handlers whatever the tier; an empty catalog would leave our
    // bridge unlisted, so one unrelated tool keeps it active (no expectation depends on it).
    const deferrable = entries.length === 0 && !inScope ? [FILLER] : entries;
    const { surface } = buildSurface({
      entries: deferrable,
      pinned: core.map(coreEntry),
      executor,
      connectors: client === undefined ? undefined : new ConnectorExecutor({ client }),
      legs:
        client === undefined
          ? undefined
          : gatewayConnectorLegs(client, { warn: (message) => warnings.push(message) }),
      // The scenarios pin the reference engine's ranking; our default engine may rank otherwise.
      indexOptions: HERMES_OPTIONS,
      wrap,
    });
    try {
      const result = await surface.callTool(variant.tool as string, args, CONTEXT);
      const [first] = result.content;
      const payload = first?.type === 'text' ? tryParse(first.text) : null;
      outcomes.push({
        variant: position,
        payload,
        result,
        executorCalls: executor.calls,
        backendCalls: executedEntries(gateway),
        gateway,
        warnings,
      });
    } finally {
      await gateway?.close();
    }
  }
  return outcomes;
}

function tryParse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** `results[0].matches`, `tools.x.description`, `parameters.required`. */
function at(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isPlainObject(node)) node = node[part];
    else return undefined;
  }
  return node;
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

function errorText(outcome: Outcome): string {
  const error = outcome.payload?.error;
  expect(typeof error, 'expected an error message').toBe('string');
  return error as string;
}

type Rule = (outcome: Outcome, value: unknown, scenario: Scenario) => void;

const RULES: Record<string, Rule> = {
  error_present: (o) => expect(errorText(o).length).toBeGreaterThan(0),
  error_contains: (o, v) => {
    for (const text of list(v)) expect(errorText(o)).toContain(text);
  },
  error_not_contains: (o, v) => {
    for (const text of list(v)) expect(errorText(o)).not.toContain(text);
  },
  error_contains_ci: (o, v) => {
    for (const text of list(v)) expect(errorText(o).toLowerCase()).toContain(text.toLowerCase());
  },
  error_not_contains_ci: (o, v) => {
    for (const text of list(v)) expect(errorText(o).toLowerCase()).not.toContain(text.toLowerCase());
  },
  no_error: (o) => expect(o.payload?.error).toBeUndefined(),
  error: (o, v) => {
    expect(v).toBeNull();
    expect(o.payload?.error ?? null).toBeNull();
  },
  top_level_has_no: (o, v) => expect(o.payload).not.toHaveProperty(String(v)),
  has_no: (o, v) => {
    for (const key of list(v)) expect(o.payload).not.toHaveProperty(key);
  },
  total_available: (o, v) => expect(o.payload?.total_available).toBe(v),
  tools: (o, v) => expect(o.payload?.tools).toEqual(v),
  tools_keys_equal_union_of_matches: (o) => {
    const groups = o.payload?.results as Array<{ matches: string[] }>;
    const union = new Set(groups.flatMap((group) => group.matches));
    expect(new Set(Object.keys(o.payload?.tools as object))).toEqual(union);
  },
  matches_exclude: (o, v) => {
    const groups = o.payload?.results as Array<{ matches: string[] }>;
    for (const name of list(v)) for (const group of groups) expect(group.matches).not.toContain(name);
  },
  // The peer harness ran the transcribed engine; our engine must agree on these.
  peer_matches: (o, v) => expect(at(o.payload, 'results[0].matches')).toEqual(v),
  errors_has_key: (o, v) => expect(o.payload?.errors).toHaveProperty(String(v)),
  not_found: (o, v) => expect(o.payload?.not_found).toEqual(v),
  path: (o, v) => expect(o.payload?.path).toBe(v),
  constraint: (o, v) => expect(o.payload?.constraint).toBe(v),
  success_count: (o, v) => expect(o.payload?.success_count).toBe(v),
  error_count: (o, v) => expect(o.payload?.error_count).toBe(v),
  handler_calls: (o, v) => expect(o.executorCalls.map((call) => call.args)).toEqual(v),
  nothing_dispatched: (o) => expect(o.executorCalls).toEqual([]),
  gateway_not_contacted: (o) => expect(o.gateway?.requests ?? []).toEqual([]),
  entries: (o, v) => expect(o.entries).toEqual(v),
  result: (o, v, s) => {
    if (s.input.validate !== undefined) {
      expect(v).toBeNull();
      expect(o.payload, 'validation should let the call through').toBeNull();
      return;
    }
    // A real tool's result reaches the agent untouched.
    expect(o.result?.structuredContent).toEqual(v);
    expect(o.result?.isError).toBeUndefined();
  },
  'result.ok': (o, v) => {
    expect(o.result?.isError).toBeUndefined();
    expect(o.result?.structuredContent?.ok).toBe(v);
    expect(o.executorCalls).toHaveLength(1);
  },
  resolved: (o, v) => {
    const [name, args, error] = v as [string, unknown, unknown];
    expect(error).toBeNull();
    expect(o.payload?.error).toBeUndefined();
    expect(o.executorCalls.map((call) => [call.name, call.args])).toEqual([[name, args]]);
  },
  // Hermes resolves connector entries to a planner sentinel; ours runs them as a connector batch.
  resolved_name: (o, v) => {
    if (v === null) {
      expect(o.executorCalls).toEqual([]);
      expect(o.backendCalls).toEqual([]);
      return;
    }
    expect(v).toBe('connectors__execute');
    expect(o.payload).toHaveProperty('total_count', o.backendCalls.length);
  },
  'resolved_args.calls[0]': (o, v) => {
    const { name, arguments: args } = v as { name: string; arguments: unknown };
    expect(o.backendCalls[0]).toMatchObject({ name, args });
  },
  resolved_calls_len: (o, v) => expect(o.backendCalls).toHaveLength(v as number),
  retry_json_between: (o, v, s) => {
    const [start, end] = v as [string, string];
    const text = errorText(o);
    const retry = text.slice(text.indexOf(start) + start.length, text.indexOf(end));
    expect(JSON.parse(retry)).toEqual(s.expect.retry_json_equals);
  },
  retry_json_equals: () => {
    // Checked together with retry_json_between.
  },
  'parameters.properties_has': (o, v) =>
    expect(at(o.payload, 'parameters.properties')).toHaveProperty(String(v)),
  // The executor path sees each entry: the hook's rewrite is what reaches the gateway.
  execute_body_tools: (o, v) =>
    expect(o.backendCalls.map(({ connector, tool, args }) => ({ connector, tool, arguments: args }))).toEqual(
      v,
    ),
  request_never_contains: (o, v) => expect(JSON.stringify(o.gateway?.requests)).not.toContain(String(v)),
  execute_requests_tools: (o, v) =>
    expect(
      ((o.gateway?.bodies('execute') ?? []) as Array<{ tools: Array<{ tool: string }> }>).map((body) =>
        body.tools.map((tool) => tool.tool),
      ),
    ).toEqual(v),
  // Search leg: one request per call with every query, in order (`use_case` is our `useCase`).
  gateway_request: (o, v) => expect(searchRequests(o)).toEqual([useCases(v)]),
  gateway_requests: (o, v) => expect(searchRequests(o)).toEqual((v as unknown[]).map(useCases)),
  warnings_logged: (o, v) => expect(o.warnings).toHaveLength(v as number),
  no_match_contains: (o, v) => {
    for (const name of allMatches(o)) expect(name).not.toContain(String(v));
  },
  no_match_prefix: (o, v) => {
    for (const name of allMatches(o)) expect(name.startsWith(String(v))).toBe(false);
  },
  all_matches_prefix: (o, v) => {
    expect(allMatches(o).length).toBeGreaterThan(0);
    for (const name of allMatches(o)) expect(name.startsWith(String(v))).toBe(true);
  },
  // A failed leg adds only the `connectors` object to the local-only answer, byte for byte.
  equals_local_only_plus: (o, v) => {
    const { connectors, ...rest } = o.payload ?? {};
    expect(o.localOnly).toBeTruthy();
    expect(JSON.stringify(rest)).toBe(JSON.stringify(o.localOnly));
    expect(connectors).toMatchObject((v as { connectors: object }).connectors);
  },
  local_only_has_no: (o, v) => expect(o.localOnly).not.toHaveProperty(String(v)),
  not_found_includes: (o, v) => expect(o.payload?.not_found).toEqual(expect.arrayContaining(list(v))),
  connectors: (o, v) => expect(o.payload?.connectors).toMatchObject(v as object),
  schemas_request_slugs: (o, v) => expect(o.gateway?.bodies('schemas')).toEqual([{ tools: v }]),
  tools_keys: (o, v) => expect(Object.keys(o.payload?.tools as object)).toEqual(v),
  // One describe per case: no schema comes back, and the failure (if any) is named.
  legs: (o, v) => {
    const leg = (v as Array<{ payload: object; failure: string | null }>)[o.variant]!;
    expect(o.payload?.tools).toEqual(leg.payload);
    expect((o.payload?.connectors as { reason?: string } | undefined)?.reason ?? null).toBe(leg.failure);
  },
};

function searchRequests(o: Outcome): unknown[] {
  return (o.gateway?.bodies('search') ?? []).map((body) => (body as { queries: unknown }).queries);
}

function useCases(value: unknown): Array<{ useCase: string }> {
  return (value as Array<{ use_case: string }>).map((item) => ({ useCase: item.use_case }));
}

function allMatches(o: Outcome): string[] {
  return ((o.payload?.results ?? []) as Array<{ matches: string[] }>).flatMap((group) => group.matches);
}

function check(scenario: Scenario, outcome: Outcome): void {
  const expected = { ...scenario.expect, ...DIFFERENT_EXPECTATIONS[scenario.id] };
  for (const [key, value] of Object.entries(expected)) {
    if (METADATA_KEYS.has(key)) continue;
    const rule = RULES[key];
    if (rule !== undefined) {
      rule(outcome, value, scenario);
    } else if (key.endsWith('_contains')) {
      const text = String(at(outcome.payload, key.slice(0, -'_contains'.length)));
      for (const part of list(value)) expect(text).toContain(part);
    } else if (key.endsWith('_set')) {
      expect(new Set(list(at(outcome.payload, key.slice(0, -'_set'.length))))).toEqual(new Set(list(value)));
    } else if (key.endsWith('_len')) {
      expect(at(outcome.payload, key.slice(0, -'_len'.length))).toHaveLength(value as number);
    } else if (key.endsWith('_include')) {
      expect(at(outcome.payload, key.slice(0, -'_include'.length))).toEqual(
        expect.arrayContaining(list(value)),
      );
    } else if (/^(results|tools|parameters)[.[]/.test(key)) {
      expect(at(outcome.payload, key), key).toEqual(value);
    } else {
      throw new Error(`no rule for expectation key "${key}" in ${scenario.id}`);
    }
  }
}

const BRIDGE_SCENARIOS = SCENARIOS.filter(
  (s) =>
    (s.kind === 'search' && s.input.tool_search_args !== undefined) ||
    s.kind === 'describe' ||
    (s.kind === 'call' && s.input.planner_peel === undefined),
);

describe('reference scenarios: bridge calls', () => {
  it('covers every bridge scenario in the file', () => {
    expect(BRIDGE_SCENARIOS.length).toBe(17 + 9 + 45);
  });

  for (const scenario of BRIDGE_SCENARIOS) {
    it(scenario.id, async () => {
      const outcomes = await run(scenario);
      expect(outcomes.length).toBeGreaterThan(0);
      for (const outcome of outcomes) check(scenario, outcome);
    });
  }
});

describe('reference scenario call-pure-connector-batch-parallel-admission (deliberate difference)', () => {
  // Hermes' planner runs a pure connector batch in parallel with other calls and keeps mixed or
  // multi-local batches as a barrier. We have no planner (the MCP client schedules calls), so
  // ours is: a pure connector batch runs every entry; the other two shapes are refused unrun.
  const scenario = SCENARIOS.find((s) => s.id === 'call-pure-connector-batch-parallel-admission')!;

  it('runs the pure connector batch and refuses the mixed and local batches', async () => {
    const [pure, mixed, local] = scenario.input.planner_peel as unknown[][];
    const backend = fakeConnectorBackend();
    const executor = recordingExecutor();
    const { surface } = buildSurface({
      entries: [coreEntry('write_file'), coreEntry('read_file')],
      executor,
      connectors: backend,
    });
    const ran = payloadOf(await surface.callTool('tool_call', { calls: pure }, CONTEXT));
    expect(ran).toMatchObject({ success_count: 2, total_count: 2 });
    expect(backend.calls.map((call) => call.name)).toEqual([
      'connectors__gmail__SEND_EMAIL',
      'connectors__slack__POST_MESSAGE',
    ]);
    for (const calls of [mixed, local]) {
      const refused = await surface.callTool('tool_call', { calls }, CONTEXT);
      expect(refused.isError).toBe(true);
      expect(String(payloadOf(refused).error)).toContain('exactly one entry');
    }
    expect(backend.calls).toHaveLength(2);
    expect(executor.calls).toEqual([]);
  });
});
