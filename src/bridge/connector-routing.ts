import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACCOUNT_ALIAS } from '../catalog/connector-names.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { ConnectorOutcome } from './types.js';

/** What a connector entry gets when this session has no gateway (connectors off or not set up). */
export const CONNECTORS_UNAVAILABLE_MESSAGE = 'Unknown tool: connectors are not available in this session.';

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
