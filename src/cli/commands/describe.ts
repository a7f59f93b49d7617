import { ToolbridgeError } from '../../base/errors.js';
import { CATALOG_FLAGS, CATALOG_FLAGS_HELP, openCatalog } from '../cli-catalog.js';
import { type CliCommand, parseArgs, requireFlag, usageError } from '../command.js';

const FLAGS = { ...CATALOG_FLAGS, pretty: 'boolean' } as const;

export const describeCommand: CliCommand = {
  name: 'describe',
  summary: 'describe tools by exact name; prints exactly what tool_describe returns',
  help: `Usage:
  toolbridge describe --catalog-dir DIR NAME...

Prints the tool_describe JSON the agent would receive: the full description and parameter
schema of each deferred tool named (up to 10), not_found for unknown names, errors for tools
the agent sees directly (pinned).

Options:
${CATALOG_FLAGS_HELP}
  --pretty            indent the JSON

Example:
  toolbridge describe --catalog-dir ../shared/data/catalogs mcp__github__create_issue
`,
  async run(args, io) {
    const { flags, positionals } = parseArgs('describe', args, FLAGS);
    const catalogDir = requireFlag('describe', flags['catalog-dir'], 'catalog-dir');
    if (positionals.length === 0) throw usageError('describe', 'give at least one tool NAME.');
    const { surface } = openCatalog(
      'describe',
      { catalogDir, pins: flags.pin ?? [], configFile: flags.config },
      io,
    );
    const payload = await surface.toolDescribe({ names: positionals });
    if ('error' in payload) throw new ToolbridgeError('INVALID_ARGUMENT', payload.error);
    io.stdout(`${JSON.stringify(payload, null, flags.pretty ? 2 : undefined)}\n`);
    return 0;
  },
};
