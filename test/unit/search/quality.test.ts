import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { mcpToolName } from '../../../src/catalog/naming.js';
import {
  type EvalQuery,
  evaluateIndex,
  evaluateTypos,
  type TypoQuery,
} from '../../../src/search/evaluate.js';
import { createToolIndex, type ToolIndexOptionsInput } from '../../../src/search/index.js';
import { HERMES_OPTIONS, PLAIN_BM25_OPTIONS } from '../../../src/search/presets.js';
import type { IndexEntry } from '../../../src/search/types.js';
import { sharedDataDir } from './shared-data.js';

// Search quality on every shared catalog at once (issue 7), limit 5: the dev queries, queries for
// services that are not installed, and queries with a one-letter typo. Quality, not timing.

interface Row {
  keyword: number;
  natural: number;
  knownItem: number;
  negativeWellKnown: number;
  negativeAll: number;
  negativeHeldOut1: number;
  negativeHeldOut2: number;
  negativeHeldOut3: number;
  negativeHeldOut4: number;
  negativeHeldOut5: number;
  negativeHeldOut6: number;
  negativeHeldOut7: number;
  negativeHeldOut8: number;
  typo: number;
  typoCorrected: number;
}

const KNOWN_ITEM_SCOPES = new Set(['github', 'cloudflare-api', 'notion']);

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function loadEntries(folder = 'catalogs'): IndexEntry[] {
  return loadCatalogDir(join(sharedDataDir(), folder)).flatMap((server) =>
    server.tools.map((tool) => ({
      name: mcpToolName(server.serverId, tool.name),
      description: tool.description,
      inputSchema: tool.inputSchema,
      server: server.serverId,
    })),
  );
}

function loadDev(file = join('eval', 'dev.jsonl')): Array<EvalQuery & { known: boolean }> {
  const rows = readJsonl<{ id: string; query: string; style: string; scope: string; relevant: string[] }>(
    join(sharedDataDir(), file),
  );
  return rows.map((row) => ({
    id: row.id,
    query: row.query,
    style: row.style,
    known: KNOWN_ITEM_SCOPES.has(row.scope),
    relevant: row.relevant.map((id) =>
      mcpToolName(id.slice(0, id.indexOf('/')), id.slice(id.indexOf('/') + 1)),
    ),
  }));
}

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

describe('search quality, all shared catalogs, limit 5', () => {
  const rows: Record<'default' | 'hermes' | 'plain', Row> = {} as never;

  beforeAll(() => {
    const entries = loadEntries();
    const dev = loadDev();
    const negatives = readJsonl<EvalQuery & { tier: string }>(fixture('absent-services-tuned-0.jsonl'));
    const heldOut1 = readJsonl<EvalQuery>(fixture('absent-services-tuned-1.jsonl'));
    const heldOut2 = readJsonl<EvalQuery>(fixture('absent-services-tuned-2.jsonl'));
    const heldOut3 = readJsonl<EvalQuery>(fixture('absent-services-tuned-3.jsonl'));
    const heldOut4 = readJsonl<EvalQuery>(fixture('absent-services-tuned-4.jsonl'));
    const heldOut5 = readJsonl<EvalQuery>(fixture('absent-services-tuned-5.jsonl'));
    const heldOut6 = readJsonl<EvalQuery>(fixture('absent-services-tuned-6.jsonl'));
    const heldOut7 = readJsonl<EvalQuery>(fixture('absent-services-tuned-7.jsonl'));
    const heldOut8 = readJsonl<EvalQuery>(fixture('absent-services-tuned-8.jsonl'));
    const typos = readJsonl<TypoQuery>(fixture('typo-queries-tuned.jsonl'));
    const measure = (options?: ToolIndexOptionsInput): Row => {
      const index = createToolIndex(entries, options);
      const hit = (queries: EvalQuery[]) => evaluateIndex(index, queries, { k: 5 }).overall.hitAtK;
      const empty = (queries: EvalQuery[]) => evaluateIndex(index, queries, { k: 5 }).overall.emptyRate;
      const typo = evaluateTypos(index, typos, 5);
      return {
        keyword: hit(dev.filter((q) => q.style === 'keyword')),
        natural: hit(dev.filter((q) => q.style === 'natural')),
        knownItem: hit(dev.filter((q) => q.known)),
        negativeWellKnown: empty(negatives.filter((q) => q.tier === 'well-known')),
        negativeAll: empty(negatives),
        negativeHeldOut1: empty(heldOut1),
        negativeHeldOut2: empty(heldOut2),
        negativeHeldOut3: empty(heldOut3),
        negativeHeldOut4: empty(heldOut4),
        negativeHeldOut5: empty(heldOut5),
        negativeHeldOut6: empty(heldOut6),
        negativeHeldOut7: empty(heldOut7),
        negativeHeldOut8: empty(heldOut8),
        typo: typo.hitRate,
        typoCorrected: typo.correctedRate,
      };
    };
    rows.default = measure();
    rows.hermes = measure(HERMES_OPTIONS);
    rows.plain = measure(PLAIN_BM25_OPTIONS);
  }, 120_000);

  it('meets the issue-7 targets (keyword ≥ 0.65, natural ≥ 0.35, known items ≥ 0.97, typos ≥ 0.8, absent services ≥ 0.95)', () => {
    expect(rows.default.keyword).toBeGreaterThanOrEqual(0.65);
    expect(rows.default.natural).toBeGreaterThanOrEqual(0.35);
    expect(rows.default.knownItem).toBeGreaterThanOrEqual(0.97);
    expect(rows.default.typo).toBeGreaterThanOrEqual(0.8);
    expect(rows.default.typoCorrected).toBeGreaterThanOrEqual(0.75);
    expect(rows.default.negativeWellKnown).toBeGreaterThanOrEqual(0.95);
    expect(rows.default.negativeAll).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps absent services out of matches on the later phrasing sets too (see docs/readme/engine.md)', () => {
    expect(rows.default.negativeHeldOut1).toBeGreaterThanOrEqual(0.95);
    expect(rows.default.negativeHeldOut2).toBeGreaterThanOrEqual(0.95);
    expect(rows.default.negativeHeldOut3).toBeGreaterThanOrEqual(0.95);
    expect(rows.default.negativeHeldOut4).toBeGreaterThanOrEqual(0.95);
    // Sets 5 to 8 name English-word apps in places no rule reads as an app's (`could pylon add a
    // comment`, `my hammock needs me to …`): these bounds guard what was measured, not the issue's
    // target. Sets 7 and 8 were measured once (0.845, 0.859), then taught issue #15's gate rules.
    expect(rows.default.negativeHeldOut5).toBeGreaterThanOrEqual(0.9);
    expect(rows.default.negativeHeldOut6).toBeGreaterThanOrEqual(0.92);
    expect(rows.default.negativeHeldOut7).toBeGreaterThanOrEqual(0.95);
    expect(rows.default.negativeHeldOut8).toBeGreaterThanOrEqual(0.94);
  });

  it('beats the reference and plain BM25 on keyword, natural, known-item and typo queries', () => {
    for (const baseline of [rows.hermes, rows.plain]) {
      expect(rows.default.keyword).toBeGreaterThan(baseline.keyword);
      expect(rows.default.natural).toBeGreaterThan(baseline.natural);
      expect(rows.default.knownItem).toBeGreaterThan(baseline.knownItem);
      expect(rows.default.typo).toBeGreaterThan(baseline.typo);
    }
  });

  it('keeps absent well-known services out of matches nearly as often as the reference, unlike plain BM25', () => {
    // issue #15: the apps come from maintained lists now, not a hand list fitted to these sets;
    // the reference's rarest-term gate empties any query with a word no tool holds.
    expect(rows.default.negativeWellKnown).toBeGreaterThanOrEqual(rows.hermes.negativeWellKnown - 0.01);
    expect(rows.plain.negativeAll).toBeLessThan(0.1);
  });
});

// issue #15: StableToolBench's test queries (dev half), long tasks over RapidAPI listings nobody
// here wrote, on their own catalogs and mixed with the 84 shared ones.
describe('search quality on the external set, limit 5', () => {
  const rows: Record<string, { hit: number; mrr: number }> = {};

  beforeAll(() => {
    const external = loadEntries(join('external', 'catalogs'));
    const mixed = [...loadEntries(), ...external];
    const queries = loadDev(join('external', 'queries-dev.jsonl'));
    for (const [engine, options] of [
      ['default', undefined],
      ['plain', PLAIN_BM25_OPTIONS],
    ] as const) {
      for (const [set, entries] of [
        ['alone', external],
        ['mixed', mixed],
      ] as const) {
        const { overall } = evaluateIndex(createToolIndex(entries, options), queries, { k: 5 });
        rows[`${engine} ${set}`] = { hit: overall.hitAtK, mrr: overall.mrrAt10 };
      }
    }
  }, 120_000);

  it('issue #15: meets the targets alone and mixed, above plain BM25 (bounds a little under what was measured)', () => {
    expect(rows['default alone']!.hit).toBeGreaterThanOrEqual(0.86);
    expect(rows['default mixed']!.hit).toBeGreaterThanOrEqual(0.85);
    expect(rows['default mixed']!.mrr).toBeGreaterThanOrEqual(0.72);
    for (const set of ['alone', 'mixed']) {
      expect(rows[`default ${set}`]!.hit).toBeGreaterThan(rows[`plain ${set}`]!.hit);
      expect(rows[`default ${set}`]!.mrr).toBeGreaterThan(rows[`plain ${set}`]!.mrr);
    }
  });
});
