// MiniSearch configured like our engine: the same documents (name words, label, description,
// parameter names), the same tokenizer and the same memoised Snowball stemmer.
import MiniSearch from 'minisearch';
import { stem } from '../dist/search/stemmer.js';
import { tokenize } from '../dist/search/tokenizer.js';
import { toolDocumentText } from '../dist/search/tool-document.js';

export function createMiniSearchIndex(entries) {
  const index = new MiniSearch({
    fields: ['text'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (word) => stem(word),
  });
  index.addAll(
    entries.map((entry, id) => {
      const text = toolDocumentText(entry);
      return { id, text: [text.name, text.server, text.description, ...text.parameters].join(' ') };
    }),
  );
  return {
    size: entries.length,
    search: (query, limit = 5) =>
      index
        .search(query)
        .slice(0, limit)
        .map((hit) => entries[hit.id].name),
  };
}
