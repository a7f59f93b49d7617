import { escapeRegExp } from '../../base/escape-regexp.js';
import { entriesFromServers } from '../../catalog/catalog.js';
import { loadCatalogDir } from '../../catalog/catalog-dir.js';
import { toIndexEntry } from '../../catalog/index-entry.js';
import { mcpToolName } from '../../catalog/naming.js';
import type { CatalogEntry } from '../../catalog/types.js';
import { type EvalMetrics, type EvalMiss, type EvalQuery, evaluateIndex } from '../../search/evaluate.js';
import {
  createToolIndex,
  HERMES_OPTIONS,
  PLAIN_BM25_OPTIONS,
  type ToolIndex,
  type ToolIndexOptions,
  type WordFate,
} from '../../search/index.js';
import type { CliIo } from '../command.js';
import { type CliCommand, integerFlag, parseArgs, requireFlag, usageError } from '../command.js';
import { type QueryLine, readQueriesFile } from '../queries-file.js';

const FLAGS = {
  'catalog-dir': 'string',
  queries: 'string',
  limit: 'string',
  scope: 'string',
  preset: 'string',
  explain: 'boolean',
  json: 'boolean',
} as const;

const ALL_SERVERS = '*';

/** The engines eval can measure: ours (the default), and the two baselines the bench compares it with. */
const PRESETS: Readonly<Record<string, Readonly<ToolIndexOptions> | undefined>> = {
  default: undefined,
  'plain-bm25': PLAIN_BM25_OPTIONS,
  reference: HERMES_OPTIONS,
};

export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'measure retrieval quality: recall@k, hit@k, MRR@10, empty rate, per style and scope',
  help: `Usage:
  toolbridge eval --catalog-dir DIR --queries FILE.jsonl [--limit K] [--preset NAME] [--explain] [--json]

Runs every query against the search engine (the one behind tool_search) and scores the
ranked names against the query's "relevant" tools:
  hit@1      share of queries whose first match is relevant
  recall@K   mean share of a query's relevant tools in its top K
  hit@K      share of queries with at least one relevant tool in the top K
  MRR@10     mean 1/rank of the first relevant tool within the top 10
  empty      share of queries that returned nothing
Overall, per "style" (keyword, natural, …) and per "scope".

Each line: {"id", "query", "relevant": ["<server id>/<tool name>" or full names], "style"?,
"scope"?}. Every query searches every server, as an agent's would (the issue's measurements use all
catalogs together); --scope query limits each query to its own "scope" (a server id, or a pattern
like "livemcp-*") instead.

Options:
  --catalog-dir DIR   folder of tool catalogs: one *.json per server, the file stem is the server id
  --queries FILE      JSON Lines file of judged queries
  --limit K           the K of recall@K and hit@K (default 5)
  --scope MODE        "all" (default): every server; "query": each query's own scope
  --preset NAME       the engine: "default" (tool_search's), "plain-bm25" (stemmed BM25, no
                      gate, floor or re-ranking) or "reference" (the reference engine's rules),
                      to measure the default against its baselines on the same data
  --explain           show why each miss missed: every query word's fate (kept, dropped and
                      why, corrected or expanded to what, unknown), the terms, and the ranks
  --json              print the whole report as JSON

Example:
  toolbridge eval --catalog-dir ../shared/data/catalogs --queries ../shared/data/eval/dev.jsonl
`,
  run(args, io) {
    const { flags, positionals } = parseArgs('eval', args, FLAGS);
    if (positionals.length > 0) throw usageError('eval', `unexpected argument "${positionals[0]}".`);
    const catalogDir = requireFlag('eval', flags['catalog-dir'], 'catalog-dir');
    const queriesFile = requireFlag('eval', flags.queries, 'queries');
    const k = integerFlag('eval', flags.limit, 'limit', { min: 1, max: 50 }) ?? 5;
    const scopeMode = flags.scope ?? 'all';
    if (scopeMode !== 'query' && scopeMode !== 'all') {
      throw usageError('eval', `--scope must be "query" or "all", got "${scopeMode}".`);
    }
    const preset = flags.preset ?? 'default';
    if (!Object.hasOwn(PRESETS, preset)) {
      throw usageError(
        'eval',
        `--preset must be one of ${Object.keys(PRESETS).join(', ')}; got "${preset}".`,
      );
    }
    const entries = entriesFromServers(loadCatalogDir(catalogDir));
    const lines = readQueriesFile(queriesFile);
    const report = evaluate(entries, lines, { k, explain: flags.explain === true, scopeMode, preset }, io);
    io.stdout(
      flags.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatReport(report, entries, flags.explain === true),
    );
    return 0;
  },
};

interface EvalRun {
  k: number;
  explain: boolean;
  scopeMode: 'query' | 'all';
  preset: string;
}

export interface CliEvalReport {
  k: number;
  scope: 'query' | 'all';
  preset: string;
  overall: EvalMetrics;
  byStyle: Record<string, EvalMetrics>;
  byScope: Record<string, EvalMetrics>;
  misses: EvalMiss[];
}

/** `server/tool` → the agent-facing name; a name without `/` is taken as already full. */
function fullName(relevant: string): string {
  const slash = relevant.indexOf('/');
  return slash < 0 ? relevant : mcpToolName(relevant.slice(0, slash), relevant.slice(slash + 1));
}

function scopeMatcher(scope: string): (serverId: string) => boolean {
  if (scope === ALL_SERVERS) return () => true;
  const pattern = new RegExp(`^${scope.split('*').map(escapeRegExp).join('.*')}$`);
  return (serverId) => pattern.test(serverId);
}

function evaluate(entries: CatalogEntry[], lines: QueryLine[], run: EvalRun, io: CliIo): CliEvalReport {
  const known = new Set(entries.map((entry) => entry.name));
  const unknownRelevant = new Set<string>();
  const byScopeQueries = new Map<string, Array<EvalQuery & { order: number }>>();
  lines.forEach((line, order) => {
    const relevant = (line.relevant ?? []).map(fullName);
    for (const name of relevant) if (!known.has(name)) unknownRelevant.add(name);
    // Queries are always reported per scope label; the mode only decides which tools each searches.
    const scope = line.scope ?? ALL_SERVERS;
    const query: EvalQuery & { order: number } = { id: String(line.id), query: line.query, relevant, order };
    if (line.style !== undefined) query.style = line.style;
    const list = byScopeQueries.get(scope) ?? [];
    byScopeQueries.set(scope, list);
    list.push(query);
  });
  if (unknownRelevant.size > 0) {
    const sample = [...unknownRelevant].slice(0, 3).join(', ');
    io.stderr(
      `toolbridge eval: warning: ${unknownRelevant.size} relevant tools are not in the catalog (${sample}…).\n`,
    );
  }

  let wholeCatalog: ToolIndex | undefined;
  const reports = [...byScopeQueries].map(([scope, queries]) => {
    let index: ToolIndex;
    if (run.scopeMode === 'all') {
      wholeCatalog ??= createToolIndex(entries.map(toIndexEntry), PRESETS[run.preset]);
      index = wholeCatalog;
    } else {
      const inScope = scopeMatcher(scope);
      const scoped = entries.filter((entry) => inScope(entry.serverId));
      if (scoped.length === 0)
        io.stderr(`toolbridge eval: warning: scope "${scope}" matches no server in the catalog.\n`);
      index = createToolIndex(scoped.map(toIndexEntry), PRESETS[run.preset]);
    }
    return {
      scope,
      queries,
      report: evaluateIndex(index, queries, { k: run.k, explainMisses: run.explain }),
    };
  });

  const order = new Map(
    reports.flatMap(({ queries }) => queries.map((query) => [query.id, query.order] as const)),
  );
  const styles = [...new Set(reports.flatMap(({ report }) => Object.keys(report.byStyle)))].sort();
  return {
    k: run.k,
    scope: run.scopeMode,
    preset: run.preset,
    overall: mergeMetrics(reports.map(({ report }) => report.overall)),
    byStyle: Object.fromEntries(
      styles.map((style) => [
        style,
        mergeMetrics(reports.flatMap(({ report }) => report.byStyle[style] ?? [])),
      ]),
    ),
    byScope: Object.fromEntries(
      reports
        .map(({ scope, report }) => [scope === ALL_SERVERS ? 'all' : scope, report.overall] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
    misses: reports
      .flatMap(({ report }) => report.misses)
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
  };
}

/** Combines per-scope metrics exactly: rates over judged queries weigh by `judged`, the empty rate by `queries`. */
export function mergeMetrics(parts: readonly EvalMetrics[]): EvalMetrics {
  const queries = parts.reduce((sum, part) => sum + part.queries, 0);
  const judged = parts.reduce((sum, part) => sum + part.judged, 0);
  const weigh = (pick: (part: EvalMetrics) => number, by: (part: EvalMetrics) => number, total: number) =>
    total === 0 ? 0 : parts.reduce((sum, part) => sum + pick(part) * by(part), 0) / total;
  const byJudged = (part: EvalMetrics) => part.judged;
  return {
    queries,
    judged,
    hitAt1: weigh((part) => part.hitAt1, byJudged, judged),
    recallAtK: weigh((part) => part.recallAtK, byJudged, judged),
    hitAtK: weigh((part) => part.hitAtK, byJudged, judged),
    mrrAt10: weigh((part) => part.mrrAt10, byJudged, judged),
    emptyRate: weigh(
      (part) => part.emptyRate,
      (part) => part.queries,
      queries,
    ),
  };
}

function formatReport(report: CliEvalReport, entries: CatalogEntry[], explain: boolean): string {
  const servers = new Set(entries.map((entry) => entry.serverId)).size;
  const { k } = report;
  const row = (label: string, metrics: EvalMetrics) =>
    [
      label.padEnd(28),
      String(metrics.queries).padStart(7),
      metrics.hitAt1.toFixed(3).padStart(7),
      metrics.recallAtK.toFixed(3).padStart(9),
      metrics.hitAtK.toFixed(3).padStart(7),
      metrics.mrrAt10.toFixed(3).padStart(7),
      `${(metrics.emptyRate * 100).toFixed(1)}%`.padStart(7),
    ].join(' ');
  const lines = [
    `${report.overall.queries} queries (${report.overall.judged} judged), k = ${k}, ${servers} servers / ${entries.length} tools, scope: ${report.scope === 'all' ? 'all servers' : 'per query'}, engine: ${report.preset}`,
    '',
    [
      ''.padEnd(28),
      'queries'.padStart(7),
      'hit@1'.padStart(7),
      `recall@${k}`.padStart(9),
      `hit@${k}`.padStart(7),
      'MRR@10'.padStart(7),
      'empty'.padStart(7),
    ].join(' '),
    row('overall', report.overall),
    ...Object.entries(report.byStyle).map(([style, metrics]) => row(`style ${style}`, metrics)),
    ...(report.scope === 'query'
      ? Object.entries(report.byScope).map(([scope, metrics]) => row(`scope ${scope}`, metrics))
      : []),
    '',
    `misses (no relevant tool in the top ${k}): ${report.misses.length}${explain || report.misses.length === 0 ? '' : ' (add --explain to see why)'}`,
  ];
  if (explain) for (const miss of report.misses) lines.push('', ...explainMiss(miss, k));
  return `${lines.join('\n')}\n`;
}

/** One word's fate in plain words: `kept, corrected to "issue"`, `dropped (common-english): one of …`. */
function describeFate(word: WordFate): string {
  if (word.fate !== 'kept') return `${word.fate} (${word.reason}): ${word.why}`;
  const parts = [`kept (${word.reason})`];
  if (word.correctedTo !== undefined) parts.push(`corrected to "${word.correctedTo}"`);
  if (word.expandedTo !== undefined) {
    const related = word.expandedTo
      .map(({ word: other, weight, source }) => `${other} ×${weight.toFixed(2)} (${source})`)
      .join(', ');
    parts.push(`expanded to ${related}`);
  }
  return parts.join(', ');
}

/** Why one query missed, in plain words, from the engine's explanation and the relevant tools' ranks. */
export function explainMiss(miss: EvalMiss, k: number): string[] {
  const lines = [
    `miss ${miss.id}${miss.style === undefined ? '' : ` [${miss.style}]`}: ${JSON.stringify(miss.query)}`,
  ];
  lines.push(`  returned: ${miss.matches.length === 0 ? '(nothing)' : miss.matches.join(', ')}`);
  const why = miss.explanation;
  if (why !== undefined) {
    if (why.corrections.length > 0) {
      lines.push(`  corrected: ${why.corrections.map((c) => `${c.from} → ${c.to}`).join(', ')}`);
    }
    if (why.ignoredWords.length > 0)
      lines.push(`  ignored (no tool holds them): ${why.ignoredWords.join(', ')}`);
    if (why.unknownWords.length > 0) {
      lines.push('  unknown words (no tool holds them, so nothing is returned):');
      for (const word of why.unknownWords) {
        const reason = why.whyUnknown[word];
        lines.push(`    ${word}${reason === undefined ? '' : `: ${reason}`}`);
      }
    }
    if (why.words.length > 0) {
      lines.push('  words:');
      for (const word of why.words) lines.push(`    ${word.word}: ${describeFate(word)}`);
    }
    const gate = why.gateToken === undefined ? '' : `gate term "${why.gateToken}", `;
    lines.push(
      `  query terms: ${why.terms.join(' ')} (${gate}a match needs ${why.requiredCoverage} of: ${why.answerableTerms.join(', ') || 'none'})`,
    );
  }
  for (const [name, rank] of Object.entries(miss.relevantRanks)) {
    let verdict: string;
    if (rank !== null) verdict = `ranked ${rank}, below the top ${k}`;
    else if (why?.unknownWords.length && miss.matches.length === 0)
      verdict = 'not reached: the unknown words emptied the result';
    else if (why?.gateToken !== undefined && !why.answerableTerms.includes(why.gateToken)) {
      verdict = `not admitted: no tool holds the gate term "${why.gateToken}" (the query's rarest word), so nothing is`;
    } else if (why?.gateToken !== undefined) {
      verdict = `not admitted: lacks the gate term "${why.gateToken}" or holds fewer than ${why.requiredCoverage} answerable terms (or ranked below 50)`;
    } else verdict = 'not admitted or ranked below 50';
    lines.push(`  relevant ${name}: ${verdict}`);
  }
  return lines;
}
