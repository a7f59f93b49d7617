import { ToolbridgeError } from '../../base/errors.js';
import { CATALOG_FLAGS, CATALOG_FLAGS_HELP, openCatalog } from '../cli-catalog.js';
import { type CliCommand, integerFlag, parseArgs, requireFlag, usageError } from '../command.js';
import { readQueriesFile } from '../queries-file.js';

const FLAGS = { ...CATALOG_FLAGS, limit: 'string', queries: 'string', pretty: 'boolean' } as const;

// Per-group fields that only make sense inside one agent answer, left out of batch lines.
const ANSWER_ONLY_FIELDS = new Set(['query', 'matches', 'available_sources', 'hint']);

export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'search a catalog directory; prints exactly what tool_search returns',
  help: `Usage:
  toolbridge search --catalog-dir DIR [--limit N] QUERY...
  toolbridge search --catalog-dir DIR --queries FILE.jsonl [--limit N]

Each QUERY is one keyword query (quote it: "github create issue"); up to 7 per call, as for
tool_search. Prints the tool_search JSON the agent would receive.

With --queries, reads one {"id", "query"} object per line and prints one line per query,
{"id", "matches": [names]} (plus corrections or did_you_mean when the engine gives them),
from a single index.

Options:
${CATALOG_FLAGS_HELP}
  --limit N           names per query (default and maximum from the settings: 5 and 25)
  --queries FILE      JSON Lines file of queries (batch mode)
  --pretty            indent the JSON (single-call mode)

Example:
  toolbridge search --catalog-dir ../shared/data/catalogs "github create issue" "slack send message"
`,
  async run(args, io) {
    const { flags, positionals } = parseArgs('search', args, FLAGS);
    const catalogDir = requireFlag('search', flags['catalog-dir'], 'catalog-dir');
    const limit = integerFlag('search', flags.limit, 'limit', { min: 1 });
    if (flags.queries !== undefined && positionals.length > 0) {
      throw usageError('search', 'give queries as arguments or with --queries, not both.');
    }
    if (flags.queries === undefined && positionals.length === 0) {
      throw usageError('search', 'give at least one QUERY, or --queries FILE.jsonl.');
    }
    const batch = flags.queries === undefined ? undefined : readQueriesFile(flags.queries);
    const { surface } = openCatalog(
      'search',
      { catalogDir, pins: flags.pin ?? [], configFile: flags.config },
      io,
    );
    const withLimit = limit === undefined ? {} : { limit };

    if (batch === undefined) {
      const payload = await surface.toolSearch({ queries: positionals, ...withLimit });
      if ('error' in payload) throw new ToolbridgeError('INVALID_ARGUMENT', payload.error);
      io.stdout(`${JSON.stringify(payload, null, flags.pretty ? 2 : undefined)}\n`);
      return 0;
    }
    for (const line of batch) {
      const payload = await surface.toolSearch({ queries: [line.query], ...withLimit });
      if ('error' in payload) throw new ToolbridgeError('INVALID_ARGUMENT', payload.error);
      const group = payload.results[0]!;
      const extra = Object.fromEntries(Object.entries(group).filter(([key]) => !ANSWER_ONLY_FIELDS.has(key)));
      io.stdout(`${JSON.stringify({ id: line.id, matches: group.matches, ...extra })}\n`);
    }
    return 0;
  },
};
