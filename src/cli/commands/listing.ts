import { agentTools } from '../../bridge/bridge-tools.js';
import { tierView } from '../../host/ui-api/tier-view.js';
import { CATALOG_FLAGS, CATALOG_FLAGS_HELP, openCatalog } from '../cli-catalog.js';
import { type CliCommand, integerFlag, parseArgs, requireFlag } from '../command.js';

const FLAGS = {
  ...CATALOG_FLAGS,
  'context-length': 'string',
  reference: 'boolean',
  json: 'boolean',
} as const;

export const listingCommand: CliCommand = {
  name: 'listing',
  summary: "show the tier, listing form, token counts and tool_search's full description",
  help: `Usage:
  toolbridge listing --catalog-dir DIR [--context-length N] [--json]

Shows what an agent with a context window of N tokens would get for this catalog: the tier
(0 pass-through, 1 bridge + tools listed, 2 bridge + servers only or no listing), the listing
form (full, names, mixed, groups, none), the listing budget and token counts, and the exact
tool_search description with the listing embedded. Without --context-length the context is
unknown and the budget's percentage part is 10,000 tokens.

Options:
${CATALOG_FLAGS_HELP}
  --context-length N  the agent's context window in tokens
  --reference         use the reference listing algorithm instead of Toolbridge's
  --json              print the tier view as JSON (the same object the UI shows)

Example:
  toolbridge listing --catalog-dir ../shared/data/catalogs --context-length 200000
`,
  run(args, io) {
    const { flags } = parseArgs('listing', args, FLAGS);
    const catalogDir = requireFlag('listing', flags['catalog-dir'], 'catalog-dir');
    const contextLengthTokens = integerFlag('listing', flags['context-length'], 'context-length', { min: 0 });
    const { plan, settings } = openCatalog(
      'listing',
      {
        catalogDir,
        pins: flags.pin ?? [],
        configFile: flags.config,
        ...(contextLengthTokens === undefined ? {} : { contextLengthTokens }),
        listingAlgorithm: flags.reference ? 'reference' : 'toolbridge',
      },
      io,
    );
    const tools = agentTools(plan, { settings });
    const view = tierView(plan, tools, contextLengthTokens ?? 0);
    if (flags.json) {
      io.stdout(`${JSON.stringify(view, null, 2)}\n`);
      return 0;
    }
    const aliases = plan.direct.filter((direct) => direct.directName !== direct.entry.name);
    const lines = [
      `tier: ${view.tier}${plan.activated ? '' : ' (bridge not active)'}`,
      `form: ${view.form}`,
      `context length: ${contextLengthTokens === undefined ? 'unknown' : `${contextLengthTokens} tokens`}`,
      `listing budget: ${view.budgetTokens} tokens`,
      `listing: ${view.listingTokens} tokens`,
      `deferred: ${view.deferredCount} tools (${view.deferredTokens} tokens if listed directly)`,
      `visible: ${view.visibleToolNames.length} tools, ${view.visibleTokens} tokens: ${view.visibleToolNames.join(', ')}`,
      ...aliases.map((direct) => `alias: ${direct.directName} → ${direct.entry.name}`),
    ];
    if (plan.activated) lines.push('', 'tool_search description:', view.toolSearchDescription);
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
