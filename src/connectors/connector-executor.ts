/**
 * Runs one `connectors__<connector>__<tool>` entry through the gateway (reference §4.5). The
 * bridge calls it once per batch entry, after that entry's own approval. It never throws for a
 * gateway problem: every outcome is a response or an error body the agent can read. Only the
 * caller's own cancellation throws (`CANCELLED`).
 */
import type { JsonValue } from '../base/json.js';
import { CONNECTORS_UNAVAILABLE_MESSAGE } from '../bridge/connector-routing.js';
import {
  misnamedMessage,
  type ParsedConnectorName,
  parseConnectorName,
  resolveSlug,
  slugCandidates,
  unknownConnectorToolMessage,
} from '../catalog/connector-names.js';
import type { GatewayClient, GatewayFailure } from './gateway-client.js';
import type { GatewayExecuteResult, GatewayToolError } from './gateway-wire.js';

/** An entry's error as the agent sees it: a code, a message, and code-specific fields. */
export interface ConnectorEntryError {
  code: string;
  message: string;
  [key: string]: JsonValue;
}

/** What one entry produced: the tool's response (and the account it ran under), or an error. */
export type ConnectorEntryOutcome =
  | { response: JsonValue; account?: string }
  | { error: ConnectorEntryError };

/**
 * How the user can link an account when a call needs one:
 * - `card`: Toolbridge can open a connection card (the desktop app, the web UI): the agent is
 *   told to call `manage_connections`, and never handed a link;
 * - `link`: no card can open: the agent gets the gateway's `connect_url` to show the user.
 */
export type ConnectSurface = 'card' | 'link';

export interface ConnectorExecutorOptions {
  client: GatewayClient;
  /** Fixed, or asked per call (a UI may come and go). @defaultValue 'card' */
  surface?: ConnectSurface | (() => ConnectSurface);
}

export const CARD_HINT =
  'Call manage_connections with action "connect" for this connector (with {"name": …, "alias": …} for a named account) ' +
  'to open a connection card for the user; there is no link to show. Retry the call once it is connected.';
export const UNKNOWN_ACCOUNT_HINT =
  'Call manage_connections with action "status" to see the aliases of this app\'s accounts, or leave account out to use its default account.';
const NO_RESULT_MESSAGE = 'No result was produced for this call.';

export class ConnectorExecutor {
  private readonly client: GatewayClient;
  private readonly surface: () => ConnectSurface;

  constructor(options: ConnectorExecutorOptions) {
    this.client = options.client;
    const surface = options.surface ?? 'card';
    this.surface = typeof surface === 'function' ? surface : () => surface;
  }

  /**
   * Runs the one slug the name is exactly the name of (`resolveSlug`): the caller's `slug` when it
   * resolved the name already, else one schemas request decides. A name that only spells a tool
   * differently (case, a doubled prefix, another connector's slug) runs nothing. Runs under
   * `context.account` when given, else the app's default account. Shaped to be the bridge's
   * `ConnectorBackend` (entry, arguments, context).
   */
  async execute(
    entry: { name: string },
    args: Record<string, unknown>,
    context: { signal?: AbortSignal; account?: string; slug?: string } = {},
  ): Promise<ConnectorEntryOutcome> {
    const parsed = parseConnectorName(entry.name);
    if (parsed === undefined) {
      return failed(
        'TOOL_NOT_FOUND',
        `'${entry.name}' is not a connector tool name: expected connectors__<connector>__<tool>. Use tool_search to find the exact name.`,
      );
    }
    if (!this.client.configured) return failed('TOOL_NOT_FOUND', CONNECTORS_UNAVAILABLE_MESSAGE);
    const slug = context.slug ?? (await this.resolve(entry.name, parsed, context.signal));
    if (typeof slug !== 'string') return slug;
    const outcome = await this.run(parsed, slug, args, context);
    return 'notFound' in outcome ? { error: outcome.notFound } : outcome;
  }

  private async resolve(
    name: string,
    parsed: ParsedConnectorName,
    signal: AbortSignal | undefined,
  ): Promise<string | { error: ConnectorEntryError }> {
    const schemas = await this.client.schemas(slugCandidates(parsed), signal === undefined ? {} : { signal });
    if (!schemas.ok) return gatewayFailed(schemas.failure);
    const resolved = resolveSlug(name, schemas.value);
    if (resolved.kind === 'exact') return resolved.slug;
    if (resolved.kind === 'misnamed')
      return failed('TOOL_NOT_FOUND', misnamedMessage(name, resolved.canonical));
    return failed('TOOL_NOT_FOUND', unknownConnectorToolMessage(name));
  }

  /** One execute request; a `TOOL_NOT_FOUND` comes back separately so the caller may try the other slug. */
  private async run(
    name: ParsedConnectorName,
    slug: string,
    args: Record<string, unknown>,
    { signal, account }: { signal?: AbortSignal; account?: string },
  ): Promise<ConnectorEntryOutcome | { notFound: ConnectorEntryError }> {
    const tool = { connector: name.connector, tool: slug, arguments: args };
    const result = await this.client.execute(
      [account === undefined ? tool : { ...tool, account }],
      signal === undefined ? {} : { signal },
    );
    if (!result.ok) return gatewayFailed(result.failure);
    const first: GatewayExecuteResult | undefined = result.value[0];
    if (first === undefined) return failed('PROVIDER_ERROR', NO_RESULT_MESSAGE);
    if ('data' in first) {
      return first.account === undefined
        ? { response: first.data }
        : { response: first.data, account: first.account };
    }
    const error = first.error;
    if (error.code === 'TOOL_NOT_FOUND') {
      return { notFound: toolError(error, `There is no tool ${slug} on the connector gateway.`) };
    }
    if (error.code === 'CONNECTION_REQUIRED') return { error: this.connectionRequired(error, name, account) };
    if (error.code === 'UNKNOWN_ACCOUNT') {
      const body = toolError(error, `The ${name.connector} connector has no account "${account}".`);
      return { error: { ...body, connector: name.connector, hint: error.hint ?? UNKNOWN_ACCOUNT_HINT } };
    }
    return { error: toolError(error, `The ${name.connector} connector failed to run ${slug}.`) };
  }

  private connectionRequired(
    error: GatewayToolError,
    name: ParsedConnectorName,
    account: string | undefined,
  ): ConnectorEntryError {
    const connector = error.connector ?? name.connector;
    const body: ConnectorEntryError = {
      code: 'CONNECTION_REQUIRED',
      message: error.message || `The ${connector} connector is not connected for this account.`,
      connector,
    };
    const alias = error.account ?? account;
    if (alias !== undefined) body.account = alias;
    if (this.surface() === 'card') {
      body.connect_card_available = true;
      body.hint = CARD_HINT;
    } else {
      if (error.connectUrl !== undefined) body.connect_url = error.connectUrl;
      body.hint =
        error.hint ??
        'Show the user the connect_url, wait until they have connected the account, then retry the call.';
    }
    if (error.connectionId !== undefined) body.connection_id = error.connectionId;
    return body;
  }
}

function failed(code: string, message: string): { error: ConnectorEntryError } {
  return { error: { code, message } };
}

/** The gateway could not be used for this entry: only this entry fails. */
function gatewayFailed(failure: GatewayFailure): { error: ConnectorEntryError } {
  if (failure.kind === 'dark') return failed('TOOL_NOT_FOUND', CONNECTORS_UNAVAILABLE_MESSAGE);
  const error: ConnectorEntryError = {
    code: 'PROVIDER_ERROR',
    message: `The connector gateway request failed: ${failure.message}`,
    reason: failure.kind,
  };
  if (failure.kind === 'sign_in_expired') {
    error.hint = 'Ask the user to sign in to the connector gateway again in Toolbridge, then retry.';
  } else if (failure.kind === 'not_set_up') {
    error.hint = 'Ask the user to set up the connector gateway in Toolbridge first.';
  }
  return { error };
}

function toolError(error: GatewayToolError, fallback: string): ConnectorEntryError {
  const body: ConnectorEntryError = { code: error.code, message: error.message || fallback };
  if (error.hint !== undefined) body.hint = error.hint;
  return body;
}
