import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogDir } from '../../../src/catalog/catalog-dir.js';
import { mcpToolName } from '../../../src/catalog/naming.js';
import { DEFAULT_TOOL_INDEX_OPTIONS } from '../../../src/search/index.js';
import { FIELDS, ToolCorpus } from '../../../src/search/tool-corpus.js';
import type { IndexEntry } from '../../../src/search/types.js';
import { sharedDataDir } from './shared-data.js';

const entries: IndexEntry[] = loadCatalogDir(join(sharedDataDir(), 'catalogs')).flatMap((server) =>
  server.tools.map((tool) => ({
    name: mcpToolName(server.serverId, tool.name),
    description: tool.description,
    inputSchema: tool.inputSchema,
    server: server.serverId,
  })),
);
const options = DEFAULT_TOOL_INDEX_OPTIONS;
const tokenizer = { splitCamelCase: options.splitCamelCase, splitLetterDigit: options.splitLetterDigit };
const corpus = ToolCorpus.build(entries, {
  tokenizer,
  bm25: {
    k1: options.k1,
    b: options.b,
    fieldWeights: FIELDS.map((name) => options.fieldWeights[name]),
    lengthNormalization: options.lengthNormalization,
  },
});

/** The most of these terms one tool holds, counted tool by tool. */
function mostHeld(termIds: readonly number[]): number {
  let most = 0;
  for (let doc = 0; doc < corpus.size; doc++) {
    const held = [...new Set(termIds)].filter((termId) => corpus.bm25.termFrequency(termId, doc) > 0);
    most = Math.max(most, held.length);
  }
  return most;
}

describe('ToolCorpus.someToolHolds', () => {
  it('answers as counting every tool would, for common and rare terms alike', () => {
    const termsOf = (words: string) =>
      words
        .split(' ')
        .map((word) => corpus.termId(word))
        .filter((termId) => termId >= 0);
    for (const words of [
      'list get creat file data name id the',
      'repositori pull request review merg',
      'dns record zone cloudflar',
      'weather forecast citi temperatur',
      'tunnel order chess move board game',
    ]) {
      const terms = termsOf(words);
      expect(terms.length, words).toBeGreaterThanOrEqual(4);
      const most = mostHeld(terms);
      for (let atLeast = 0; atLeast <= terms.length + 1; atLeast++) {
        expect(corpus.someToolHolds([...terms, ...terms], atLeast), `${words}: ${atLeast}`).toBe(
          most >= atLeast,
        );
      }
    }
  });
});
