import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import snowball from 'snowball-stemmers';
import { describe, expect, it } from 'vitest';
import { stem } from '../../../src/search/stemmer.js';
import { sharedDataDir } from './shared-data.js';

const oracle = snowball.newStemmer('english');

describe('stem', () => {
  it('gives the reference examples', () => {
    const examples: Record<string, string> = {
      issues: 'issu',
      create: 'creat',
      repositories: 'repositori',
      messages: 'messag',
      running: 'run',
      listing: 'list',
      emails: 'email',
    };
    for (const [word, expected] of Object.entries(examples)) expect(stem(word)).toBe(expected);
  });

  it('handles the Porter2 special cases', () => {
    const cases: Record<string, string> = {
      skies: 'sky',
      dying: 'die',
      news: 'news',
      generously: 'generous',
      communism: 'communism',
      arsenal: 'arsenal',
      succeeding: 'succeed',
      inning: 'inning',
      hoped: 'hope',
      hopping: 'hop',
      cries: 'cri',
      ties: 'tie',
      gas: 'gas',
      gaps: 'gap',
      sayings: 'say',
      yelled: 'yell',
      by: 'by',
      '42': '42',
    };
    for (const [word, expected] of Object.entries(cases)) expect(stem(word)).toBe(expected);
  });

  it('equals the Snowball reference implementation on every word of the shared catalogs', () => {
    const dir = join(sharedDataDir(), 'catalogs');
    const words = new Set<string>();
    for (const file of readdirSync(dir)) {
      for (const word of readFileSync(join(dir, file), 'utf8')
        .toLowerCase()
        .match(/[a-z0-9]+/g) ?? [])
        words.add(word);
    }
    expect(words.size).toBeGreaterThan(5000);
    const differing = [...words].filter((word) => stem(word) !== oracle.stem(word));
    expect(differing).toEqual([]);
  });

  it('equals the Snowball reference implementation on generated words', () => {
    // Letters weighted towards the suffixes Porter2 cares about.
    const piece = fc.constantFrom(
      ...'abcdefghijklmnopqrstuvwxyz0'.split(''),
      'y',
      'e',
      'ss',
      'ies',
      'ied',
      'ing',
      'ed',
      'eed',
      'ly',
      'ation',
      'tional',
      'ness',
      'ful',
      'ous',
      'ive',
      'ize',
      'ment',
      'ion',
      'al',
      'li',
      'ogi',
      'bli',
      'at',
      'bb',
      'gener',
      'commun',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const word = pieces.join('');
        expect(stem(word)).toBe(oracle.stem(word));
      }),
      { numRuns: 3000 },
    );
  });
});
