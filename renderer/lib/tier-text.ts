import type { ConnectorToolsView, ListingForm, TierView, ToolSearchSettings } from '../../src/api/ui-api.js';
import { formatNumber } from './format.js';

/** What each tier means for the agent, in plain words (its name is `TIER_LABELS` in the store's selectors). */
export const TIER_EXPLAINED: Record<TierView['tier'], string> = {
  0: 'The catalog is small enough: the agent gets every tool with its full schema, as if it were connected to each server itself. No search step.',
  1: 'The agent gets tool_search, tool_describe and tool_call, and tool_search’s description lists the tools held back, so the agent knows what exists without paying for every schema on every turn.',
  2: 'Too many tools for a listing to fit: the description only names the servers, and the agent finds tools by searching.',
};

/** The listing forms from most to least detailed: the first that fits the budget is chosen. */
const FORM_ORDER: readonly ListingForm[] = ['full', 'names', 'mixed', 'groups', 'none'];

/** Why this listing form: the budget it had, and that it is the most detailed form that fits. */
export function whyThisForm(tier: TierView, search: ToolSearchSettings | undefined): string {
  const budget = formatNumber(tier.budgetTokens);
  const share =
    search === undefined
      ? ''
      : ` (${search.thresholdPct}% of ${formatNumber(tier.contextLengthTokens)} tokens of context, at most ${formatNumber(search.listingMaxTokens)})`;
  if (tier.tier === 0) {
    return `Listing every tool directly fits the budget of ${budget} tokens${share}, so nothing is held back.`;
  }
  const richer = FORM_ORDER.slice(0, Math.max(0, FORM_ORDER.indexOf(tier.form))).map((form) => `"${form}"`);
  const fits =
    tier.form === 'none'
      ? 'no listing fits'
      : `"${tier.form}" (${formatNumber(tier.listingTokens)} tokens) is the most detailed form that fits`;
  const over = richer.length === 0 ? '' : `; ${richer.join(', ')} would be larger`;
  return `The listing may use ${budget} tokens${share}: ${fits}${over}.`;
}

const apps = (n: number) => `${formatNumber(n)} ${n === 1 ? 'app' : 'apps'}`;

/** What agents reach at the connector gateway: "35 connector tools (3 apps), searched at the gateway, not listed." */
export function connectorToolsText(view: ConnectorToolsView): string {
  const where = 'searched at the gateway, not listed';
  if (view.problem !== undefined) {
    return `Connector tools are ${where}; the gateway could not say how many: ${view.problem}`;
  }
  if (view.apps === 0) return 'The connector gateway offers no app yet: no connector tools to search.';
  const counted = view.apps - view.uncountedApps;
  const tools = `${formatNumber(view.count)} connector ${view.count === 1 ? 'tool' : 'tools'}`;
  if (counted === 0) {
    return `The connector tools of ${apps(view.apps)}, ${where} (this gateway does not say how many).`;
  }
  if (view.uncountedApps === 0) return `${tools} (${apps(view.apps)}), ${where}.`;
  return `${tools} from ${apps(counted)}, and those of ${apps(view.uncountedApps)} the gateway does not count, ${where}.`;
}
