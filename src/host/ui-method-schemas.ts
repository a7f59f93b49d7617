import type { UiMethod } from '../api/ui-api.js';
import { AUDIT_DECISIONS, POLICIES } from '../approvals/types.js';

/**
 * The JSON Schema of each UI method's parameter list, checked (ajv) on every WebSocket frame
 * before the host sees it. Typed as a record over `UiMethod`, so a method added to `UI_METHODS`
 * without a schema fails the type check. Deep checks of configs stay with the host.
 */
type Schema = Record<string, unknown>;

const id: Schema = { type: 'string', minLength: 1, maxLength: 512 };
const name: Schema = { type: 'string', minLength: 1, maxLength: 1024 };
const bool: Schema = { type: 'boolean' };
const object: Schema = { type: 'object' };
const contextLength: Schema = { type: 'integer', minimum: 0, maximum: 100_000_000 };
const names: Schema = { type: 'array', items: name, minItems: 1, maxItems: 100 };
const serverConfig: Schema = {
  type: 'object',
  required: ['id', 'transport'],
  properties: { id, transport: { enum: ['stdio', 'http', 'sse'] } },
};
/** A policy to set, or null to clear the setting (inherit). */
const policyOrInherit: Schema = { enum: [...POLICIES, null] };
const decision: Schema = {
  type: 'object',
  required: ['action'],
  properties: {
    action: { enum: ['approve', 'always', 'deny', 'stop', 'accept', 'decline', 'cancel'] },
    message: { type: 'string', maxLength: 4096 },
    /** An elicitation form's values; the host checks them against the requested schema. */
    content: { type: 'object' },
  },
  additionalProperties: false,
};
const activityQuery: Schema = {
  type: 'object',
  properties: {
    toolName: name,
    serverId: id,
    agentId: id,
    decision: { enum: [...AUDIT_DECISIONS] },
    since: { type: 'string', maxLength: 64 },
    until: { type: 'string', maxLength: 64 },
    text: { type: 'string', maxLength: 256 },
    cursor: { type: 'string', maxLength: 1024 },
    limit: { type: 'integer', minimum: 1, maximum: 10_000 },
  },
  additionalProperties: false,
};

/** A tuple of `required` leading parameters followed by optional ones. */
function params(required: Schema[], optional: Schema[] = []): Schema {
  const items = [...required, ...optional];
  return {
    type: 'array',
    minItems: required.length,
    maxItems: items.length,
    ...(items.length > 0 ? { items, additionalItems: false } : {}),
  };
}

export const UI_METHOD_PARAMS: Readonly<Record<UiMethod, Schema>> = {
  listServers: params([]),
  addServer: params([serverConfig]),
  updateServer: params([id, serverConfig]),
  removeServer: params([id]),
  setServerEnabled: params([id, bool]),
  restartServer: params([id]),
  authorizeServer: params([id]),
  reviewImport: params([{ type: 'string', minLength: 1 }]),
  listCatalogServers: params([]),
  confirmImport: params([{ type: 'string', minLength: 1, maxLength: 100 }]),
  listTools: params([], [id]),
  setToolEnabled: params([name, bool]),
  setToolPinned: params([name, bool]),
  acceptToolChange: params([name]),
  getTier: params([
    {
      type: 'object',
      properties: { agentId: id, contextLengthTokens: contextLength },
      additionalProperties: false,
    },
  ]),
  setServerPolicy: params([id, policyOrInherit]),
  setToolPolicy: params([name, policyOrInherit]),
  listPolicyRules: params([]),
  removePolicyRule: params([{ type: 'string', minLength: 1, maxLength: 64 }]),
  search: params(
    [{ type: 'array', items: { type: 'string', maxLength: 2048 }, minItems: 1, maxItems: 20 }],
    [{ type: 'integer', minimum: 1, maximum: 50 }],
  ),
  describe: params([names]),
  call: params([name, object]),
  listCards: params([]),
  resolveCard: params([id, decision]),
  resolveConnectionTarget: params([id, name, { enum: ['connect', 'skip'] }]),
  listCalls: params([]),
  decideRest: params([id, { enum: ['approve', 'deny'] }]),
  stopAgent: params([id]),
  queryActivity: params([activityQuery]),
  exportActivity: params([{ enum: ['jsonl', 'csv'] }], [activityQuery]),
  listAgents: params([]),
  createAgent: params([{ type: 'string', minLength: 1, maxLength: 200 }], [contextLength]),
  updateAgent: params([
    id,
    {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        contextLengthTokens: contextLength,
      },
      additionalProperties: false,
    },
  ]),
  revokeAgent: params([id]),
  getAgentConnection: params([id]),
  getSettings: params([]),
  updateSettings: params([object]),
  signInConnectorGateway: params([{ type: 'string', minLength: 1, maxLength: 8192 }]),
  signOutConnectorGateway: params([]),
  listConnections: params([]),
  connectApp: params(
    [id],
    [
      {
        type: 'object',
        properties: { alias: { type: 'string', maxLength: 64 }, reconnect: bool },
        additionalProperties: false,
      },
    ],
  ),
  renameConnectorAccount: params([id, { type: 'string', maxLength: 64 }, { type: 'string', maxLength: 64 }]),
  listConnectorTools: params([id]),
  setConnectorToolPolicy: params([name, policyOrInherit]),
};
