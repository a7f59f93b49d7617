import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashRange, tokenize, tokenizeRuns } from '../../../src/search/tokenizer.js';

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
      'sure',
      'it',
      'the',
      'user',
      'we',
      'done',
      'go',
    ]);
    // Not a clitic: the letters after the apostrophe are a word; a letter elided there is none.
    expect(tokenize("O'Reilly rock'n'roll")).toEqual(['reilly', 'rock', 'roll']);
    // Chained clitics all go, as the property below states (fast-check found `a'm'S`).
    expect(tokenize("y'all'd've a'm'S x'd’t")).toEqual(['all']);
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
    expect(tokenize('HTTPServer mRNA', SPLIT)).toEqual(['http', 'server', 'httpserver', 'rna', 'mrna']);
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

  it('treats underscores, dots, hyphens and emoji as separators; letters of any script are words', () => {
    expect(tokenize('github_create-issue.v2')).toEqual(['github', 'create', 'issue', 'v2']);
    expect(tokenize('émail e-mail')).toEqual(['email', 'e', 'mail']);
    expect(tokenize('日本語 🚀')).toEqual(['日本語']);
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
    expect(tokenize('İstanbul createIssue', SPLIT)).toEqual(['istanbul', 'create', 'issue', 'createissue']);
  });

  it('yields exactly the ASCII letters and digits of a text without apostrophes, lower-cased, without splitting', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.stringMatching(/^[A-Za-z ]{0,30}$/)), (text) => {
        const plain = text.replace(/[^ -~]|'/g, ' ');
        const words = tokenize(plain);
        for (const word of words) expect(word).toMatch(/^[a-z0-9]+$/);
        expect(words.join('')).toBe((plain.match(/[A-Za-z0-9]/g) ?? []).join('').toLowerCase());
      }),
    );
  });

  it('around apostrophes, yields runs of the text in order and never a letter left at one', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z' ]{0,30}$/), (text) => {
        const words = tokenize(text);
        const runs = (text.match(/[A-Za-z]+/g) ?? []).map((run) => run.toLowerCase());
        let at = 0;
        for (const word of words) {
          while (at < runs.length && runs[at] !== word) at++;
          expect(at).toBeLessThan(runs.length);
          at++;
        }
        for (const [, letter] of text.matchAll(/(?:^|[^A-Za-z])([A-Za-z])(?=')/g)) {
          const word = letter!.toLowerCase();
          if (runs.filter((run) => run === word).length === 1) expect(words).not.toContain(word);
        }
      }),
    );
  });

  it('with splitting, yields every whole run after parts of two or more characters that appear in it in order', () => {
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
            // The run's parts come first, in order, none a single character; the run itself ends them.
            let from = 0;
            while (words[at] !== run) {
              const part = words[at++]!;
              expect(part.length).toBeGreaterThan(1);
              expect(run.indexOf(part, from)).toBeGreaterThanOrEqual(from);
              from = run.indexOf(part, from) + part.length;
            }
            at++;
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

  // Variants of each class issue #15 names (and the reviewers rerun with others): one rule per class.
  const VARIANTS: Array<[string, string[]]> = [
    // Contractions: a clitic is no word; `n't` negates an auxiliary, which is no word either.
    ["you're", ['you']],
    ["we'll", ['we']],
    ["it's", ['it']],
    ['they’ve', ['they']],
    ["don't", []],
    ["can't", []],
    ['won’t', []],
    ["isn't it", ['it']],
    // A letter elided at an apostrophe is no word.
    ["I'm", []],
    ['I’m here', ['here']],
    ["o'clock", ['clock']],
    ["rock 'n' roll", ['rock', 'roll']],
    // Plural acronyms stay whole, whatever punctuation follows.
    ['APIs', ['apis']],
    ['PDFs', ['pdfs']],
    ['SKUs', ['skus']],
    ['GPUs', ['gpus']],
    ['CSVs', ['csvs']],
    ['MP3s', ['mp3s']],
    ['ETAs', ['etas']],
    ['URLs?', ['urls']],
    ['(IDs),', ['ids']],
    ['JSONs', ['jsons']],
    ['listPDFs', ['list', 'pdfs', 'listpdfs']],
    // An acronym's plural `es` goes, as Snowball cannot strip it (`oses` stems to `ose`, not `os`).
    ['OSes', ['os']],
    ['BIOSes?', ['bios']],
    ['SMSes', ['sms']],
    ['listOSes', ['list', 'os', 'listoses']],
    ['OSesFor', ['os', 'for', 'osesfor']],
    ['IDEs', ['ides']],
    ['Notes NOTES', ['notes', 'notes']],
    // Addresses split at their punctuation (the English reader reads them as data).
    ['user.name+tag@sub.example.co.uk', ['user', 'name', 'tag', 'sub', 'example', 'co', 'uk']],
    ['https://app.stripe.com/path?x=1', ['https', 'app', 'stripe', 'com', 'path', 'x', '1']],
    ['stripe.com/docs', ['stripe', 'com', 'docs']],
    ['www.notion.so', ['www', 'notion', 'so']],
    ['mailto:jo@x.io', ['mailto', 'jo', 'x', 'io']],
    ['@handle #channel', ['handle', 'channel']],
    // Emoji separate; letters of every script are words, folded: no case, no accents.
    ['🚀deploy🎉now', ['deploy', 'now']],
    ['Café naïve façade', ['cafe', 'naive', 'facade']],
    ['Straße', ['strasse']],
    ['cafe\u0301', ['cafe']],
    ['\u0301 alone', ['alone']],
    ['Привет, МИР', ['привет', 'мир']],
    ['東京 weather', ['東京', 'weather']],
    ['ﬁle', ['file']],
    ['x'.repeat(300), ['x'.repeat(300)]],
    // Tool names: camelCase, snake_case and kebab-case; a part of one character is no word.
    ['createIssue', ['create', 'issue', 'createissue']],
    ['get_user_by_id', ['get', 'user', 'by', 'id']],
    ['list-open-prs', ['list', 'open', 'prs']],
    ['mRNA2DNA', ['rna2dna', 'mrna2dna']],
    ['iPhone eBay', ['phone', 'iphone', 'bay', 'ebay']],
    ['SaaS IoT', ['saa', 'saas', 'io', 'iot']],
    ['ÉtatCivil', ['etat', 'civil', 'etatcivil']],
    // Digits and versions.
    ['v2 3.1.4 2fa 24h', ['v2', '3', '1', '4', '2fa', '24h']],
  ];

  it.each(VARIANTS)('issue #15: tokenizer variant %j', (text, words) => {
    expect(tokenize(text, { splitCamelCase: true, splitLetterDigit: false })).toEqual(words);
  });
});

describe('tokenizeRuns with known words', () => {
  it('gives the known string for a word it knows and folds the others, hashed as hashRange does', () => {
    const known = new Map([['issue', ['is', 'sue'].join('')]]);
    const asked: [string, number][] = [];
    const words = tokenizeRuns('Create an ISSUE', undefined, (text, start, end, hash) => {
      const word = text.slice(start, end).toLowerCase();
      asked.push([word, hash]);
      return known.get(word);
    });
    expect(words.words).toEqual(['create', 'an', 'issue']);
    expect(words.words[2]).toBe(known.get('issue'));
    for (const [word, hash] of asked) expect(hash, word).toBe(hashRange(word, 0, word.length));
  });

  it('reads a query as without them, whatever the table knows', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const plain = tokenizeRuns(text);
        const withKnown = tokenizeRuns(text, undefined, (from, start, end) =>
          from.slice(start, end).toLowerCase() === 'a' ? 'a' : undefined,
        );
        expect(withKnown).toEqual(plain);
      }),
    );
  });
});
