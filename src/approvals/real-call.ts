/**
 * The real-call pipeline: what one `tool_call` entry for a real tool goes through, top to bottom.
 *
 *   1. where it runs: its MCP server, or the connector gateway (a connector entry with no gateway
 *      in this session is refused here, before anything is asked or audited);
 *   2. the approval gate (`ApprovalGate.call`): policy → hooks → the card when it asks;
 *   3. the run, with the arguments the gate settled on, on the server or the gateway;
 *   4. the audit line (written by the gate for every outcome, refusals included).
 *
 * The bridge sees all of it only as its `ToolExecutor` port; the host hands in the parts.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorCode } from '../base/errors.js';
import type { JsonObject } from '../base/json.js';
import { findSuspicious } from '../base/suspicious-text.js';
import {
  CONNECTORS_UNAVAILABLE_MESSAGE,
  connectorOutcomeResult,
  connectorResultAccount,
} from '../bridge/connector-routing.js';
import type { CallContext, ConnectorBackend, ToolExecutor } from '../bridge/types.js';
import type { CatalogEntry } from '../catalog/types.js';
import { approvalHash } from './definition-hash.js';
import type { GateRequest, RunTool } from './gate.js';

export interface RealCallParts {
  /** The approval gate (`Approvals`): it decides, asks, runs and audits. */
  gate: {
    call(request: GateRequest, run: RunTool): Promise<CallToolResult>;
    recordInterrupted(request: GateRequest): Promise<void>;
    recordRefused(request: GateRequest, refusal: { code: ErrorCode; message: string }): Promise<void>;
  };
  /** Runs a tool on its MCP server, with the call timeout (`ServerManager.toolExecutor`). */
  local: ToolExecutor;
  /** The connector gateway's backend while connectors are on in this session. */
  connectors: () => ConnectorBackend | undefined;
  /** The catalog's hash of a local tool's definition, which approvals bind to. */
  definitionHash: (name: string) => string;
}

/** The one executor every real call goes through. */
export function realCallExecutor(parts: RealCallParts): ToolExecutor {
  return {
    async callTool(entry, args, context) {
      // 1. Where it runs.
      const backend = entry.source === 'connectors' ? parts.connectors() : undefined;
      if (entry.source === 'connectors' && backend === undefined) return connectorsUnavailable();
      // 2–4. Gate (policy, hooks, card), run, audit.
      return parts.gate.call(gateRequest(entry, args, context, parts), (finalArgs) =>
        runOn(entry, finalArgs, context, parts.local, backend),
      );
    },
    // Entries a Stop ended before they ran still get their own audit line.
    recordInterrupted: (entry, args, context) =>
      parts.gate.recordInterrupted(gateRequest(entry, args, context, parts)),
    // So do entries refused for their arguments: the attempt is part of the record.
    recordRefused: (entry, args, context, refusal) =>
      parts.gate.recordRefused(gateRequest(entry, args, context, parts), refusal),
  };
}

/**
 * Step 3 alone, without the gate: connector entries to the gateway, everything else to `local`.
 * Tests drive the bridge through this same dispatch.
 */
export function routeRealCall(
  local: ToolExecutor,
  connectors: () => ConnectorBackend | undefined,
): ToolExecutor {
  return {
    async callTool(entry, args, context) {
      const backend = entry.source === 'connectors' ? connectors() : undefined;
      if (entry.source === 'connectors' && backend === undefined) return connectorsUnavailable();
      return runOn(entry, args as JsonObject, context, local, backend);
    },
  };
}

async function runOn(
  entry: CatalogEntry,
  args: JsonObject,
  context: CallContext,
  local: ToolExecutor,
  backend: ConnectorBackend | undefined,
): Promise<CallToolResult> {
  return backend === undefined
    ? local.callTool(entry, args, context)
    : connectorOutcomeResult(await backend.execute(entry, args, context));
}

function connectorsUnavailable(): CallToolResult {
  return connectorOutcomeResult({
    error: { code: 'TOOL_NOT_FOUND', message: CONNECTORS_UNAVAILABLE_MESSAGE },
  });
}

/**
 * What the approval gate is asked about one real call. A connector call names its account: the
 * one the entry asked for, else the app's default (whose alias is not known before the gateway
 * answers, so the card says "the default account" and the audit line takes the alias the
 * gateway reports).
 */
function gateRequest(
  entry: CatalogEntry,
  args: Record<string, unknown>,
  context: CallContext,
  parts: Pick<RealCallParts, 'definitionHash'>,
): GateRequest {
  const account =
    entry.source !== 'connectors'
      ? {}
      : {
          account: context.account === undefined ? { default: true as const } : { alias: context.account },
          ranUnder: connectorResultAccount,
        };
  return {
    agentId: context.agentId,
    name: entry.name,
    serverId: entry.serverId,
    toolName: entry.toolName,
    arguments: args as JsonObject,
    definitionHash: approvalHash(entry, parts.definitionHash),
    // Connector tools are named, not listed: only a local tool's definition can change under a card.
    ...(entry.source === 'connectors'
      ? {}
      : { currentDefinitionHash: () => parts.definitionHash(entry.name) || undefined }),
    ...(entry.annotations === undefined ? {} : { annotations: entry.annotations }),
    ...(entry.description === '' ? {} : { description: entry.description }),
    ...(findSuspicious(entry.description).length > 0 ? { suspicious: true } : {}),
    ...(context.notEnforced === undefined
      ? {}
      : { validation: { ok: true, notEnforced: context.notEnforced } }),
    ...account,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.stop === undefined ? {} : { stop: context.stop }),
    ...(context.call === undefined ? {} : { call: context.call }),
  };
}
