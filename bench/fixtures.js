// Shared bench data, loaded once: the real catalogs, the dev queries and a synthetic large catalog.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogDir } from '../dist/catalog/catalog-dir.js';
import { mcpToolName } from '../dist/catalog/naming.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `TOOLBRIDGE_SHARED_DATA`, else `../shared/data` beside the clone (the CI layout). */
export function sharedDataDir() {
  const dir = process.env.TOOLBRIDGE_SHARED_DATA ?? resolve(repoRoot, '..', 'shared', 'data');
  if (!existsSync(join(dir, 'catalogs'))) {
    throw new Error(
      `No shared data at ${dir}: set TOOLBRIDGE_SHARED_DATA to the folder holding catalogs/ and eval/.`,
    );
  }
  return dir;
}

/** Every tool of every catalog as an index entry named `mcp__<server>__<tool>`, in file order. */
export function loadCatalogEntries(dir = join(sharedDataDir(), 'catalogs')) {
  const entries = [];
  for (const server of loadCatalogDir(dir)) {
    for (const tool of server.tools) {
      entries.push({
        name: mcpToolName(server.serverId, tool.name),
        description: tool.description,
        inputSchema: tool.inputSchema,
        server: server.serverId,
      });
    }
  }
  return entries;
}

const KNOWN_ITEM_SCOPES = new Set(['github', 'cloudflare-api', 'notion']);

/**
 * The dev queries as evaluation queries. `relevant` ids `server/tool` become agent-facing names;
 * `known` marks the known-item rows (scope github, cloudflare-api or notion); `half` ('A' or 'B')
 * splits them in two by a hash of each query's group, so a natural query and its keyword form
 * fall in the same half: tune on one, confirm on the other.
 */
export function loadDevQueries(file = join(sharedDataDir(), 'eval', 'dev.jsonl')) {
  return readQueryLines(file).map((row) => ({
    ...judged(row),
    known: KNOWN_ITEM_SCOPES.has(row.scope),
    half:
      createHash('sha1')
        .update(row.group ?? row.id)
        .digest()[0] & 1
        ? 'B'
        : 'A',
  }));
}

function readQueryLines(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** A query line as an evaluation query: `relevant` ids `server/tool` become agent-facing names. */
function judged(row) {
  return {
    id: row.id,
    query: row.query,
    style: row.style,
    relevant: row.relevant.map((id) => {
      const slash = id.indexOf('/');
      return mcpToolName(id.slice(0, slash), id.slice(slash + 1));
    }),
  };
}

/**
 * A long task with words no tool holds: the first query of a process that reads it reads every
 * list the English reader loads on first use (word frequencies, the dictionary, places, known
 * apps, top-level domains, WordNet).
 */
export const ENGLISH_FIRST_QUERY =
  "I'm moving to Paris next week: can you ring the landlord, erase my old notes and mail jo@example.com?";

/** The external set's dev queries (StableToolBench), relevant ids as agent-facing names. */
export function loadExternalQueries(file = join(sharedDataDir(), 'external', 'queries-dev.jsonl')) {
  return readQueryLines(file).map(judged);
}

/** Reads a JSONL fixture of evaluation queries from test/unit/search/fixtures. */
const queryFixtures = join(repoRoot, 'test', 'unit', 'search', 'fixtures');

export function loadQueryFixture(name) {
  return readQueryLines(join(queryFixtures, name));
}

/**
 * The rows of fixture `name` whose query (ignoring case) no other fixture of the same kind holds:
 * short agent queries written blind often repeat an earlier set's (`list open issues`), whose
 * misses taught rules.
 */
export function newToTheProject(name) {
  const kind = name.replace(/-(once|tuned)-\d+\.jsonl$|\.jsonl$/, '');
  const earlier = new Set();
  for (const file of readdirSync(queryFixtures)) {
    if (file !== name && file.startsWith(kind)) {
      for (const row of loadQueryFixture(file)) earlier.add(row.query.toLowerCase());
    }
  }
  return loadQueryFixture(name).filter((row) => !earlier.has(row.query.toLowerCase()));
}

/**
 * The absent-service sets by name (`tuned-0`, …, `tuned-11`, then any `once-N`), the sets measured once first: every
 * `absent-services-*.jsonl` in the fixtures, so a new set is measured without editing the bench.
 */
export function absentServiceSets() {
  const names = readdirSync(queryFixtures)
    .map((file) => /^absent-services-(.+)\.jsonl$/.exec(file)?.[1])
    .filter((name) => name !== undefined);
  const order = (name) => [name.startsWith('once-') ? 0 : 1, Number(name.replace(/\D/g, ''))];
  return names.sort((a, b) => {
    const [kindA, numberA] = order(a);
    const [kindB, numberB] = order(b);
    return kindA - kindB || numberA - numberB;
  });
}

// mulberry32: a small seeded generator, so the synthetic catalog is the same on every run.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` tools whose words are drawn from the real catalogs' word stream (so word frequencies
 * follow the real ones): 2–4 name words, 8–40 description words, 1–5 parameter names.
 */
export function syntheticEntries(realEntries, count, seed = 7) {
  const next = random(seed);
  const words = [];
  const parameterNames = [];
  for (const entry of realEntries) {
    for (const word of (entry.description ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []) words.push(word);
    for (const key of Object.keys(entry.inputSchema?.properties ?? {})) parameterNames.push(key);
  }
  const pick = (list) => list[Math.floor(next() * list.length)];
  const between = (low, high) => low + Math.floor(next() * (high - low + 1));
  const names = new Set();
  const entries = [];
  for (let i = 0; i < count; i++) {
    const server = `server${i % 1000}`;
    let name = `mcp__${server}__${Array.from({ length: between(2, 4) }, () => pick(words)).join('_')}`;
    while (names.has(name)) name += `_${pick(words)}`;
    names.add(name);
    const properties = {};
    for (let p = between(1, 5); p > 0; p--) properties[pick(parameterNames)] = { type: 'string' };
    entries.push({
      name,
      server,
      description: Array.from({ length: between(8, 40) }, () => pick(words)).join(' '),
      inputSchema: { type: 'object', properties },
    });
  }
  return entries;
}
