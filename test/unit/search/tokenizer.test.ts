import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/search/tokenizer.js';

const SPLIT = { splitCamelCase: true, splitLetterDigit: true };

describe('tokenize', () => {
  it('keeps maximal runs of ASCII letters and digits, lower-cased', () => {
    expect(tokenize("Create a GitHub issue: it's #42!")).toEqual([
      'create',
      'a',
      'github',
      'issue',
      'it',
      's',
      '42',
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

  it('splits camelCase, acronyms and letter/digit boundaries when asked', () => {
    expect(tokenize('createIssue HTTPServer getV2Api', SPLIT)).toEqual([
      'create',
      'issue',
      'http',
      'server',
      'get',
      'v',
      '2',
      'api',
    ]);
    expect(tokenize('createIssue v2', { splitCamelCase: true, splitLetterDigit: false })).toEqual([
      'create',
      'issue',
      'v2',
    ]);
  });

  it('keeps positions right when lower-casing changes the length of non-ASCII text', () => {
    // 'İ' lower-cases to two code units; the words after it must not shift.
    expect(tokenize('İstanbul createIssue', SPLIT)).toEqual(['stanbul', 'create', 'issue']);
  });

  it('yields only lower-case ASCII alphanumeric words whose letters are exactly those of the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.boolean(), fc.boolean(), (text, camel, digits) => {
        const words = tokenize(text, { splitCamelCase: camel, splitLetterDigit: digits });
        for (const word of words) expect(word).toMatch(/^[a-z0-9]+$/);
        const alphanumerics = (text.match(/[A-Za-z0-9]/g) ?? []).join('').toLowerCase();
        expect(words.join('')).toBe(alphanumerics);
      }),
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
