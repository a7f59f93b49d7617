import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectorToolsView, TierView } from '../../api/ui-api.js';
import { TOOL_SEARCH_NAME } from '../../catalog/naming.js';
import { estimateToolTokens } from '../../catalog/tokens.js';
import type { ToolSurfacePlan } from '../../catalog/tool-surface.js';

/**
 * The UI's tier card for a plan and the tools the agent lists (see `agentTools`), with the
 * connector tools the gateway counted while one is in scope.
 */
export function tierView(
  plan: ToolSurfacePlan,
  tools: readonly Tool[],
  contextLengthTokens: number,
  connectorTools?: ConnectorToolsView,
): TierView {
  const toolSearch = tools.find((tool) => tool.name === TOOL_SEARCH_NAME);
  return {
    contextLengthTokens,
    tier: plan.tier,
    form: plan.form,
    budgetTokens: plan.budgetTokens,
    listingTokens: plan.listing.tokens,
    deferredCount: plan.deferredCount,
    deferredTokens: plan.deferredTokens,
    visibleTokens: estimateToolTokens(tools),
    visibleToolNames: tools.map((tool) => tool.name),
    toolSearchDescription: toolSearch?.description ?? '',
    ...(connectorTools === undefined ? {} : { connectorTools }),
  };
}
