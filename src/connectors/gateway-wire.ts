/**
 * The connector gateway's JSON shapes (docs/gateway-protocol.md) and the parsers that turn an
 * untrusted response body into them. A parser returns `undefined` when the body is not the
 * documented shape; the client reports that as `unreachable`. Unknown fields are ignored, and
 * snake_case spellings (`use_case`, `input_schema`, …) are accepted for older gateways.
 */
import { isPlainObject, type JsonObject, type JsonValue } from '../base/json.js';

/** What the gateway knows about one slug. */
export interface GatewaySchema {
  /** The connector as the gateway spells it (`gmail`, `CUSTOM_X`). */
  connector: string;
  /** The slug again. */
  tool: string;
  description: string;
  inputSchema: JsonObject | undefined;
}

/** One answered use case, in request order. */
export interface GatewaySearchGroup {
  /** The use case the gateway says it answered; absent when it did not echo it. */
  useCase: string | undefined;
  tools: string[];
}

export interface GatewaySearchResponse {
  results: GatewaySearchGroup[];
  /** Slug → schema; slugs missing here are dropped by the merge. */
  schemas: Record<string, GatewaySchema>;
}

/** One tool to run. `tool` is a slug. */
export interface GatewayExecuteTool {
  connector: string;
  tool: string;
  /** JSON-safe: the arguments as the agent sent them (after any hook rewrote them). */
  arguments: Record<string, unknown>;
  /** The account alias to run under; absent runs under the connector's default account. */
  account?: string;
}

export type GatewayToolErrorCode =
  | 'TOOL_NOT_ALLOWED'
  | 'CONNECTION_REQUIRED'
  | 'TOOL_NOT_FOUND'
  | 'PROVIDER_ERROR'
  | 'UNKNOWN_ACCOUNT'
  | (string & {});

export interface GatewayToolError {
  code: GatewayToolErrorCode;
  message: string;
  connector?: string;
  /** The account alias the failed call named. */
  account?: string;
  connectionId?: string;
  connectUrl?: string;
  hint?: string;
}

export type GatewayExecuteResult = { data: JsonValue; account?: string } | { error: GatewayToolError };

export type ConnectionStatus = 'active' | 'initiated' | 'failed' | 'expired';

/** One account of a connector, linked or being linked. */
export interface GatewayAccount {
  alias: string;
  /** Calls that name no account run under the default one. */
  default: boolean;
  connected: boolean;
  connectionStatus?: ConnectionStatus;
  statusReason?: string;
  connectionId?: string;
}

/**
 * One row of the connections list: a connector, its default account in the top-level fields
 * (`account` is that account's alias) and every account in `accounts`. The per-connection status
 * call answers the same shape for the one account it names.
 */
export interface GatewayConnectionRow {
  connector: string;
  enabled: boolean;
  connected: boolean;
  connectionStatus?: ConnectionStatus;
  statusReason?: string;
  connectionId?: string;
  account?: string;
  accounts: GatewayAccount[];
  disabledTools: string[];
  /**
   * How many of the connector's tools search can find for the caller (its `disabledTools` not
   * counted); absent from gateways older than the field, which Toolbridge then cannot count.
   */
  toolCount?: number;
}

/** Which account to link: the connector's default one, or the one under `alias` (new or existing). */
export interface ConnectionTarget {
  connector: string;
  alias?: string;
}

/** The answer to renaming an account: the account under its new alias, or why the gateway refused. */
export type GatewayRenameResult =
  | { connector: string; account: GatewayAccount }
  | { error: { code: string; message: string } };

export interface GatewayConnectionsPage {
  connections: GatewayConnectionRow[];
  nextCursor: string | undefined;
}

/** The answer to starting a link for one connector. */
export interface GatewayConnectionStart {
  connector: string;
  /** The account being linked; absent when the gateway did not say. */
  alias?: string;
  status: 'active' | 'initiated' | 'failed';
  connectionId?: string;
  connectUrl?: string;
  message?: string;
}

/** The top-level error envelope of a non-2xx answer. */
export interface GatewayErrorBody {
  code: string | undefined;
  message: string | undefined;
}

function pick(record: Record<string, unknown>, camel: string, snake: string): unknown {
  return record[camel] ?? record[snake];
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is string => typeof item === 'string');
}

/** Copies the optional string fields that are present, so absent ones stay absent (not `undefined`). */
function withStrings<T extends object>(
  base: T,
  record: Record<string, unknown>,
  fields: ReadonlyArray<readonly [key: string, camel: string, snake: string]>,
): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [key, camel, snake] of fields) {
    const value = optionalString(pick(record, camel, snake));
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

export function parseSchema(value: unknown, slug: string): GatewaySchema | undefined {
  if (!isPlainObject(value)) return undefined;
  const connector = optionalString(value.connector);
  // A schema without a connector cannot be named or run: the merge drops it.
  if (connector === undefined || connector === '') return undefined;
  const input = pick(value, 'inputSchema', 'input_schema');
  return {
    connector,
    tool: optionalString(value.tool) ?? slug,
    description: optionalString(value.description) ?? '',
    inputSchema: isPlainObject(input) ? (input as JsonObject) : undefined,
  };
}

export function parseSchemas(value: unknown): Record<string, GatewaySchema> | undefined {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) return undefined;
  const schemas: Record<string, GatewaySchema> = {};
  for (const [slug, raw] of Object.entries(value)) {
    const schema = parseSchema(raw, slug);
    if (schema !== undefined) schemas[slug] = schema;
  }
  return schemas;
}

export function parseSearchResponse(body: unknown): GatewaySearchResponse | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.results)) return undefined;
  const schemas = parseSchemas(body.schemas);
  if (schemas === undefined) return undefined;
  const results = body.results.map((group): GatewaySearchGroup => {
    if (!isPlainObject(group)) return { useCase: undefined, tools: [] };
    return {
      useCase: optionalString(pick(group, 'useCase', 'use_case')),
      tools: stringArray(group.tools) ?? [],
    };
  });
  return { results, schemas };
}

export function parseSchemasResponse(body: unknown): Record<string, GatewaySchema> | undefined {
  return isPlainObject(body) ? parseSchemas(body.schemas) : undefined;
}

/** `GET v1/connectors/tools`: one app's tools, each in the schemas' shape; entries without a slug are dropped. */
export function parseToolsResponse(body: unknown): GatewaySchema[] | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.tools)) return undefined;
  const tools: GatewaySchema[] = [];
  for (const raw of body.tools) {
    const slug = isPlainObject(raw) ? optionalString(raw.tool) : undefined;
    const schema = slug === undefined || slug === '' ? undefined : parseSchema(raw, slug);
    if (schema !== undefined) tools.push(schema);
  }
  return tools;
}

function parseToolError(value: unknown): GatewayToolError {
  const record = isPlainObject(value) ? value : {};
  const base: GatewayToolError = {
    code: optionalString(record.code) ?? 'PROVIDER_ERROR',
    message: optionalString(record.message) ?? (typeof value === 'string' ? value : ''),
  };
  return withStrings(base, record, [
    ['connector', 'connector', 'connector'],
    ['account', 'account', 'account'],
    ['connectionId', 'connectionId', 'connection_id'],
    ['connectUrl', 'connectUrl', 'connect_url'],
    ['hint', 'hint', 'hint'],
  ]);
}

export function parseExecuteResponse(body: unknown): GatewayExecuteResult[] | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.results)) return undefined;
  return body.results.map((item): GatewayExecuteResult => {
    if (!isPlainObject(item))
      return { error: { code: 'PROVIDER_ERROR', message: 'The gateway sent an empty result.' } };
    if (item.error !== undefined && item.error !== null) return { error: parseToolError(item.error) };
    const account = optionalString(item.account);
    const data = (item.data ?? null) as JsonValue;
    return account === undefined ? { data } : { data, account };
  });
}

const CONNECTION_STATUSES: readonly string[] = ['active', 'initiated', 'failed', 'expired'];

function connectionStatus(record: Record<string, unknown>): ConnectionStatus | undefined {
  const status = optionalString(pick(record, 'connectionStatus', 'connection_status'));
  return status !== undefined && CONNECTION_STATUSES.includes(status)
    ? (status as ConnectionStatus)
    : undefined;
}

/** The link fields an account and a row share, copied when present. */
function withLinkFields<T extends object>(base: T, record: Record<string, unknown>): T {
  const status = connectionStatus(record);
  return withStrings(status === undefined ? base : { ...base, connectionStatus: status }, record, [
    ['statusReason', 'statusReason', 'status_reason'],
    ['connectionId', 'connectionId', 'connection_id'],
  ]);
}

export function parseAccount(value: unknown): GatewayAccount | undefined {
  if (!isPlainObject(value)) return undefined;
  const alias = optionalString(value.alias);
  if (alias === undefined || alias === '') return undefined;
  return withLinkFields(
    { alias, default: value.default === true, connected: value.connected === true },
    value,
  );
}

export function parseConnectionRow(value: unknown): GatewayConnectionRow | undefined {
  if (!isPlainObject(value)) return undefined;
  const connector = optionalString(value.connector);
  if (connector === undefined) return undefined;
  const base: GatewayConnectionRow = {
    connector,
    enabled: value.enabled !== false,
    connected: value.connected === true,
    accounts: [],
    disabledTools: stringArray(pick(value, 'disabledTools', 'disabled_tools')) ?? [],
  };
  const row = withStrings(withLinkFields(base, value), value, [['account', 'account', 'account']]);
  const toolCount = pick(value, 'toolCount', 'tool_count');
  if (Number.isSafeInteger(toolCount) && (toolCount as number) >= 0) row.toolCount = toolCount as number;
  if (Array.isArray(value.accounts)) {
    for (const raw of value.accounts) {
      const account = parseAccount(raw);
      if (account !== undefined) row.accounts.push(account);
    }
  } else if (row.account !== undefined) {
    // A gateway with one account per connector names it only in the top-level fields.
    row.accounts.push(withLinkFields({ alias: row.account, default: true, connected: row.connected }, value));
  }
  return row;
}

export function parseRenameResponse(body: unknown): GatewayRenameResult | undefined {
  if (!isPlainObject(body)) return undefined;
  if (isPlainObject(body.error)) {
    const { code, message } = parseErrorBody(body);
    return { error: { code: code ?? 'BAD_REQUEST', message: message ?? '' } };
  }
  const connector = optionalString(body.connector);
  const account = parseAccount(body.account);
  return connector === undefined || account === undefined ? undefined : { connector, account };
}

export function parseConnectionsPage(body: unknown): GatewayConnectionsPage | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.connections)) return undefined;
  const connections: GatewayConnectionRow[] = [];
  for (const raw of body.connections) {
    const row = parseConnectionRow(raw);
    if (row !== undefined) connections.push(row);
  }
  const cursor = optionalString(pick(body, 'nextCursor', 'next_cursor'));
  return { connections, nextCursor: cursor === '' ? undefined : cursor };
}

export function parseConnectionStarts(body: unknown): GatewayConnectionStart[] | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.connections)) return undefined;
  const starts: GatewayConnectionStart[] = [];
  for (const raw of body.connections) {
    if (!isPlainObject(raw)) continue;
    const connector = optionalString(raw.connector);
    const status = optionalString(raw.status);
    if (connector === undefined) continue;
    const base: GatewayConnectionStart = {
      connector,
      status: status === 'active' || status === 'initiated' ? status : 'failed',
    };
    starts.push(
      withStrings(base, raw, [
        ['alias', 'alias', 'alias'],
        ['connectionId', 'connectionId', 'connection_id'],
        ['connectUrl', 'connectUrl', 'connect_url'],
        ['message', 'message', 'message'],
      ]),
    );
  }
  return starts;
}

export function parseErrorBody(body: unknown): GatewayErrorBody {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : {};
  return { code: optionalString(error.code), message: optionalString(error.message) };
}
