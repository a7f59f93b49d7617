import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize, tokenizeRuns } from '../../../src/search/tokenizer.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: true };

describe('tokenize', () => {
  it('keeps maximal runs of ASCII letters and digits, lower-cased', () => {
    expect(tokenize("Create a GitHub issue: it's #42!")).toEqual([
      'create',
      'a',
      'github',
      'issue',
      'it',
      '42',
    ]);
  });

  it("issue #15: an apostrophe's clitic is no word of its own", () => {
    expect(tokenize("I'm sure it's the user's, we're done, I’ll go, don't")).toEqual([
      'i',
      'sure',
      'it',
      'the',
      'user',
      'we',
      'done',
      'i',
      'go',
      'don',
    ]);
    // Not a clitic: the letters after the apostrophe are a word.
    expect(tokenize("O'Reilly rock'n'roll")).toEqual(['o', 'reilly', 'rock', 'n', 'roll']);
    // Chained clitics all go, as the property below states (fast-check found `a'm'S`).
    expect(tokenize("y'all'd've a'm'S x'd’t")).toEqual(['y', 'all', 'a', 'x']);
  });

  it('issue #15: a plural s stays with its acronym when camelCase is split', () => {
    expect(tokenize('URLs IDs ISBNs getURLs APIsForUser', SPLIT)).toEqual([
      'urls',
      'ids',
      'isbns',
      'get',
      'urls',
      'geturls',
      'apis',
      'for',
      'user',
      'apisforuser',
    ]);
    expect(tokenize('HTTPServer mRNA', SPLIT)).toEqual(['http', 'server', 'httpserver', 'm', 'rna', 'mrna']);
  });

  it('issue #15: marks a pause after punctuation, and after a dash only with a space beside it', () => {
    expect(tokenizeRuns('use kiln - send it, now').pausesAfter).toEqual([false, true, false, true, false]);
    expect(tokenizeRuns('use kiln— send').pausesAfter).toEqual([false, true, false]);
    expect(tokenizeRuns('an e-mail to x-ray').pausesAfter).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('treats underscores, dots, hyphens and non-ASCII letters as separators', () => {
    expect(tokenize('github_create-issue.v2')).toEqual(['github', 'create', 'issue', 'v2']);
    expect(tokenize('émail e-mail')).toEqual(['mail', 'e', 'mail']);
    expect(tokenize('日本語 🚀')).toEqual([]);
  });

  it('does not split camelCase or letters from digits by default (as the reference)', () => {
    expect(tokenize('createIssue v2api gmail2')).toEqual(['createissue', 'v2api', 'gmail2']);
  });

  it('splits camelCase, acronyms and letter/digit boundaries when asked, keeping the whole word too', () => {
    expect(tokenize('createIssue HTTPServer getV2Api', SPLIT)).toEqual([
      'create',
      'issue',
      'createissue',
      'http',
      'server',
      'httpserver',
      'get',
      'v',
      '2',
      'api',
      'getv2api',
    ]);
    expect(tokenize('createIssue v2 plain', { splitCamelCase: true, splitLetterDigit: false })).toEqual([
      'create',
      'issue',
      'createissue',
      'v2',
      'plain',
    ]);
  });

  it('keeps positions right when lower-casing changes the length of non-ASCII text', () => {
    // 'İ' lower-cases to two code units; the words after it must not shift.
    expect(tokenize('İstanbul createIssue', SPLIT)).toEqual(['stanbul', 'create', 'issue', 'createissue']);
  });

  it('yields exactly the letters and digits of the input, lower-cased, without splitting', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.stringMatching(/^[A-Za-z' ]{0,30}$/)), (text) => {
        const words = tokenize(text);
        for (const word of words) expect(word).toMatch(/^[a-z0-9]+$/);
        const withoutClitics = text.replace(
          /(?<=[A-Za-z0-9])['\u2019](?:s|m|re|ve|ll|d|t)(?![A-Za-z0-9])/gi,
          ' ',
        );
        expect(words.join('')).toBe((withoutClitics.match(/[A-Za-z0-9]/g) ?? []).join('').toLowerCase());
      }),
    );
  });

  it('with splitting, yields every whole run plus parts that spell each run', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9 _-]{0,40}$/),
        fc.boolean(),
        fc.boolean(),
        (text, camel, digits) => {
          const words = tokenize(text, { splitCamelCase: camel, splitLetterDigit: digits });
          const runs = (text.match(/[A-Za-z0-9]+/g) ?? []).map((run) => run.toLowerCase());
          let at = 0;
          for (const run of runs) {
            // The run's parts come first and spell it; the run itself follows when it was split.
            let spelled = '';
            while (spelled.length < run.length) spelled += words[at++];
            expect(spelled).toBe(run);
            if (words[at] === run && words[at - 1] !== run) at++;
          }
          expect(at).toBe(words.length);
        },
      ),
    );
  });

  it('gives the same words with splitting off as without options', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(tokenize(text, { splitCamelCase: false, splitLetterDigit: false })).toEqual(tokenize(text));
      }),
    );
  });
});
