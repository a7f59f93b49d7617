import type {
  ConnectionsView,
  ConnectorAppToolsView,
  ConnectorAppView,
  ConnectorToolView,
  Policy,
} from '../../api/ui-api.js';
import { connectorApprovalHash } from '../../approvals/definition-hash.js';
import type { PolicyKey } from '../../approvals/policy.js';
import { toolPolicyView } from '../../approvals/policy-view.js';
import { ToolbridgeError } from '../../base/errors.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY } from '../../base/secret-store.js';
import {
  ACCOUNT_ALIAS,
  ACCOUNT_ALIAS_RULE,
  parseConnectorName,
  resolveTwins,
} from '../../catalog/connector-names.js';
import type { GatewayFailure, GatewayFailureKind } from '../../connectors/gateway-client.js';
import { describeConnectors } from '../../connectors/merge.js';
import { describeApp } from '../app-logos.js';
import type { ConnectorParts } from '../host-connectors.js';
import type { UiApiSlice } from '../host-parts.js';
import { policyArgument, setPolicy } from './policies-slice.js';

const CONNECTOR_ID = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Connections: the gateway's apps and accounts for the person, through the same manager
 * `manage_connections` uses (linking, renaming, skipped links), and per-tool policies for
 * connector tools in the same `policies.tools` the gate reads for local tools.
 */
export const connectionsSlice: UiApiSlice<
  'connectors' | 'settings' | 'secrets' | 'approvals' | 'policyOverride',
  | 'listConnections'
  | 'connectApp'
  | 'renameConnectorAccount'
  | 'listConnectorTools'
  | 'setConnectorToolPolicy'
> = (parts) => {
  const { settings, approvals } = parts;

  /** Why the gateway cannot be asked, before asking it; undefined when it can. */
  const unavailable = async (): Promise<MissingState | undefined> => {
    const { gatewayUrl, enabled } = settings.current.connectors;
    if (gatewayUrl === undefined) return 'not_configured';
    if (!enabled) return 'disabled';
    if ((await parts.secrets.get(CONNECTOR_GATEWAY_TOKEN_KEY)) === undefined) return 'signed_out';
    return undefined;
  };

  /** The gateway's parts, or the refusal that says what to set up first. */
  const gateway = async (): Promise<ConnectorParts> => {
    const missing = await unavailable();
    if (missing !== undefined) throw new ToolbridgeError('SERVER_UNAVAILABLE', STATE_TEXT[missing]);
    return parts.connectors.current();
  };

  const listConnections = async (): Promise<ConnectionsView> => {
    const missing = await unavailable();
    if (missing !== undefined) return { state: missing, message: STATE_TEXT[missing], apps: [] };
    const listed = await parts.connectors.current().manager.apps();
    if (!listed.ok) return failedView(listed.failure);
    const apps = listed.value.map(
      (row): ConnectorAppView => ({
        connector: row.connector,
        app: describeApp(row.connector),
        enabled: row.enabled,
        connected: row.connected,
        accounts: row.accounts,
        disabledTools: row.disabledTools,
      }),
    );
    return { state: 'ready', apps };
  };

  const toolView = (name: string, connector: string, description: string, blocked: boolean) => {
    const toolName = parseConnectorName(name)?.tool ?? name;
    const key: PolicyKey = { toolKind: 'connectors', serverId: connector, toolName };
    const decision = approvals.decide({ ...key, definitionHash: connectorApprovalHash(name) });
    const setting = settings.current.policies.tools[name];
    const view: ConnectorToolView = {
      name,
      connector,
      toolName,
      description,
      policy: toolPolicyView(key, decision, setting, parts.policyOverride.value !== undefined),
      blocked,
    };
    return view;
  };

  return {
    listConnections,

    connectApp: async (connector, options = {}) => {
      const app = connectorArgument(connector);
      const alias = aliasArgument(options?.alias, 'alias');
      const { manager } = await gateway();
      const target = alias === undefined ? { connector: app } : { connector: app, alias };
      const started = await manager.linkForPerson(target, options?.reconnect === true);
      if (!started.ok) throw gatewayError(started.failure);
      const start = started.value;
      if (start?.status === 'active') return { status: 'connected' };
      if (start?.status === 'initiated' && start.connectUrl !== undefined)
        return { status: 'waiting', connectUrl: start.connectUrl };
      throw new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `The connector gateway did not start linking ${app}${start?.message === undefined ? '.' : `: ${start.message}`}`,
      );
    },

    renameConnectorAccount: async (connector, alias, to) => {
      const app = connectorArgument(connector);
      const from = aliasArgument(alias, 'alias') ?? missingAlias('alias');
      const next = aliasArgument(to, 'new alias') ?? missingAlias('new alias');
      const { manager } = await gateway();
      const payload = await manager.rename({ connector: app, alias: from, to: next }, undefined);
      if (typeof payload.error === 'string') {
        // The manager's words are the agent's ("manage_connections: …"); the person reads the rest.
        const message = payload.error.replace(/^manage_connections: /, '');
        throw new ToolbridgeError(
          payload.reason === undefined ? 'INVALID_ARGUMENT' : 'SERVER_UNAVAILABLE',
          message,
        );
      }
      return listConnections();
    },

    listConnectorTools: async (connector) => {
      const app = connectorArgument(connector);
      const { client } = await gateway();
      const [tools, listed] = await Promise.all([
        client.listTools(app),
        parts.connectors.current().manager.apps(),
      ]);
      if (!tools.ok) {
        if (tools.failure.kind === 'dark' && tools.failure.status === 404) {
          return { connector: app, listed: false, message: NO_TOOL_LIST, tools: [] };
        }
        throw gatewayError(tools.failure);
      }
      const row = listed.ok ? listed.value.find((item) => item.connector.toLowerCase() === app) : undefined;
      const blocked = new Set(row?.disabledTools ?? []);
      const descriptions = new Map(tools.value.map((tool) => [tool.tool, tool.description]));
      const views = resolveTwins(tools.value.map((tool) => ({ slug: tool.tool, connector: tool.connector })))
        .filter((tool) => tool.connector.toLowerCase() === app)
        .map((tool) => toolView(tool.name, app, descriptions.get(tool.slug) ?? '', blocked.has(tool.slug)));
      const view: ConnectorAppToolsView = { connector: app, listed: true, tools: views };
      return view;
    },

    setConnectorToolPolicy: async (name, policy) => {
      const value: Policy | null = policyArgument(policy);
      const parsed = typeof name === 'string' ? parseConnectorName(name) : undefined;
      if (parsed === undefined) {
        throw new ToolbridgeError(
          'INVALID_ARGUMENT',
          `Send a connector tool's name, connectors__<app>__<tool>, as listConnectorTools gives it; got ${JSON.stringify(name)}.`,
        );
      }
      const { client } = await gateway();
      // The exact name only: a policy on a misspelling would guard nothing (see resolveSlug).
      const described = await describeConnectors(client, [name]);
      const tool = described.tools[0];
      if (tool === undefined) {
        const canonical = described.misnamed?.[name];
        if (canonical !== undefined) {
          throw new ToolbridgeError(
            'INVALID_ARGUMENT',
            `"${name}" is not the exact name; the tool is "${canonical}".`,
          );
        }
        if (described.status !== undefined) {
          throw new ToolbridgeError(
            'SERVER_UNAVAILABLE',
            `The connector gateway could not be asked about ${name}; try again.`,
          );
        }
        throw new ToolbridgeError(
          'NOT_FOUND',
          `The connector gateway has no tool ${name}. List the app's tools to see the names.`,
        );
      }
      await setPolicy(parts, 'tool', name, value, parsed.connector);
      return toolView(name, parsed.connector, tool.description, false);
    },
  };
};

const NO_TOOL_LIST =
  "This connector gateway cannot list an app's tools, so their policies cannot be set here; they follow the default policy in Settings.";

type MissingState = Exclude<ConnectionsView['state'], 'ready'>;

const STATE_TEXT: Record<MissingState, string> = {
  not_configured: 'No connector gateway is set up. Add its URL in Settings → Connectors.',
  disabled: 'Connectors are switched off in Settings → Connectors.',
  signed_out: 'Toolbridge is not signed in to the connector gateway. Sign in under Settings → Connectors.',
  sign_in_expired:
    'The connector gateway refused the sign-in. Sign in again under Settings → Connectors with a new token.',
  unreachable: 'The connector gateway could not be reached.',
};

/** A gateway that answers 404 to the list has no connector surface: for the person, unreachable. */
const FAILURE_STATE: Record<GatewayFailureKind, MissingState> = {
  dark: 'unreachable',
  not_set_up: 'signed_out',
  sign_in_expired: 'sign_in_expired',
  unreachable: 'unreachable',
};

/** A gateway failure as the view's state: the page says what to do instead of failing. */
function failedView(failure: GatewayFailure): ConnectionsView {
  const state = FAILURE_STATE[failure.kind];
  const message =
    state === 'unreachable' ? `${STATE_TEXT.unreachable} ${failure.message}` : STATE_TEXT[state];
  return { state, message, apps: [] };
}

function gatewayError(failure: GatewayFailure): ToolbridgeError {
  return new ToolbridgeError('SERVER_UNAVAILABLE', failedView(failure).message ?? failure.message);
}

function connectorArgument(value: unknown): string {
  if (typeof value === 'string' && CONNECTOR_ID.test(value.trim().toLowerCase()))
    return value.trim().toLowerCase();
  throw new ToolbridgeError(
    'INVALID_ARGUMENT',
    `Send an app's connector id as listConnections gives it, e.g. "github"; got ${JSON.stringify(value) ?? String(value)}.`,
  );
}

/** An alias as the gateway takes it; undefined when none was sent. */
function aliasArgument(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && ACCOUNT_ALIAS.test(value)) return value;
  throw new ToolbridgeError(
    'INVALID_ARGUMENT',
    `The ${what} ${JSON.stringify(value) ?? String(value)} is not valid: ${ACCOUNT_ALIAS_RULE}.`,
  );
}

function missingAlias(what: string): never {
  throw new ToolbridgeError('INVALID_ARGUMENT', `Send the ${what}: ${ACCOUNT_ALIAS_RULE}.`);
}
