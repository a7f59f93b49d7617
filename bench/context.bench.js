// Context: what the model's tool list costs, in real o200k tokens, when every tool is listed
// directly, with the reference's listing, and with Toolbridge's; and how close the cheap
// quarter-token-per-character estimate (which the tiers use) comes to the real count.
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { agentTools } from '../dist/bridge/bridge-tools.js';
import { classifyEntries, entriesFromServers } from '../dist/catalog/catalog.js';
import { loadCatalogDir } from '../dist/catalog/catalog-dir.js';
import { estimateToolTokens } from '../dist/catalog/tokens.js';
import { parseToolSearchConfig } from '../dist/catalog/tool-search-config.js';
import { planToolSurface, toolDefinition } from '../dist/catalog/tool-surface.js';
import { sharedDataDir } from './fixtures.js';
import { fixed, table } from './measure.js';

/** A desk of ten common servers: the reference servers, two SaaS APIs and a few utilities. */
const TEN_SERVERS = [
  'mcp-server-filesystem',
  'mcp-server-github',
  'mcp-server-memory',
  'mcp-mcp-server-fetch',
  'mcp-server-puppeteer',
  'notion',
  'slack-web-api',
  'livemcp-git',
  'livemcp-time',
  'livemcp-weather',
];

const CONTEXT_LENGTHS = [200_000, 32_000];

/** Real tokens of a tools/list answer: the definitions as JSON, the way clients pass them on. */
function realTokens(tools) {
  return countTokens(JSON.stringify(tools));
}

function toolsFor(entries, contextLengthTokens, listingAlgorithm) {
  const settings = parseToolSearchConfig(undefined).settings;
  const plan = planToolSurface(classifyEntries(entries, { pinned: [] }), {
    settings,
    contextLengthTokens,
    listingAlgorithm,
  });
  return { plan, tools: agentTools(plan, { settings }) };
}

export function runContextBench() {
  const servers = loadCatalogDir(join(sharedDataDir(), 'catalogs'));
  const desks = [
    ['github (1 server)', servers.filter((server) => server.serverId === 'github')],
    ['10 common servers', servers.filter((server) => TEN_SERVERS.includes(server.serverId))],
    [`all ${servers.length} catalogs`, servers],
  ];
  const rows = [
    [
      'catalog',
      'context',
      'tools',
      'all listed',
      'reference',
      'toolbridge',
      'form',
      'saved',
      'estimate / real',
    ],
  ];
  for (const [label, chosen] of desks) {
    const entries = entriesFromServers(chosen);
    const direct = realTokens(entries.map((entry) => toolDefinition(entry)));
    for (const contextLengthTokens of CONTEXT_LENGTHS) {
      const reference = toolsFor(entries, contextLengthTokens, 'reference');
      const ours = toolsFor(entries, contextLengthTokens, 'toolbridge');
      const oursReal = realTokens(ours.tools);
      rows.push([
        label,
        `${contextLengthTokens / 1000}k`,
        entries.length,
        direct,
        realTokens(reference.tools),
        oursReal,
        `tier ${ours.plan.tier} ${ours.plan.form}`,
        `${fixed((100 * (direct - oursReal)) / direct)}%`,
        fixed(estimateToolTokens(ours.tools) / oursReal, 2),
      ]);
    }
  }
  return [
    '## Context: tokens of the tool list the model sees (o200k, counted exactly)',
    '',
    table(rows),
    '',
    '"all listed" is every definition sent as is; "reference" and "toolbridge" are the bridge tools',
    'with each listing algorithm. "estimate / real" is the quarter-token-per-character estimate the',
    'tiers use over the real count (above 1: the budget is conservative).',
  ].join('\n');
}
