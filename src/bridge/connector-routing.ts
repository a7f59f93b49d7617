import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACCOUNT_ALIAS } from '../catalog/connector-names.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { ConnectorBackend, ConnectorOutcome, ToolExecutor } from './types.js';

/**
 * One executor for both kinds of tool: connector entries go to the gateway backend, everything
 * else to `local`. Wrap the result (approvals, audit) and every connector entry passes through
 * the same wrapper as a local call, one entry at a time.
 */
export function routeConnectorCalls(local: ToolExecutor, connectors: ConnectorBackend): ToolExecutor {
  return {
    async callTool(entry, args, context) {
      if (entry.source !== 'connectors') return local.callTool(entry, args, context);
      return connectorOutcomeResult(await connectors.execute(entry, args, context));
    },
  };
}

/** Carries a connector outcome as an MCP result; the batch reads `structuredContent` back. */
export function connectorOutcomeResult(outcome: ConnectorOutcome): CallToolResult {
  const result: CallToolResult = {
    content: [{ type: 'text', text: JSON.stringify(outcome) }],
    structuredContent: outcome,
  };
  if ('error' in outcome) result.isError = true;
  return result;
}

/** The account alias a connector result says it ran under (see `connectorOutcomeResult`), if a valid one. */
export function connectorResultAccount(result: CallToolResult): string | undefined {
  const account = result.structuredContent?.account;
  return typeof account === 'string' && ACCOUNT_ALIAS.test(account) ? account : undefined;
}

/** The catalog entry for a connector name that the local catalog does not hold (it came from the gateway). */
export function connectorEntry(name: string, connector: string, tool: string): CatalogEntry {
  return {
    name,
    serverId: connector,
    toolName: tool,
    source: 'connectors',
    description: '',
    inputSchema: undefined,
  };
}
