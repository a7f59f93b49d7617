import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../../../src/search/index.js';
import type { IndexEntry } from '../../../src/search/types.js';

// Tokenizer variants through a whole search with the English reader (issue #15): each class of
// variant reaches the tools it names, and none reaches a tool by a word it does not say.
const tool = (name: string, description: string, server = name.split('__')[1]!): IndexEntry => ({
  name,
  server,
  description,
  inputSchema: { type: 'object', properties: {} },
});

const CATALOG: IndexEntry[] = [
  tool('mcp__slack__send_message', 'Send a message to a Slack channel or user.'),
  tool('mcp__gmail__send_email', 'Send an email to one or more recipients.'),
  tool('mcp__gmail__archive_email', 'Archive an email thread.'),
  tool('mcp__notion__create_page', 'Create a page in a Notion workspace.'),
  tool('mcp__stripe__create_refund', 'Refund a Stripe charge.'),
  tool('mcp__web__fetch_url', 'Fetch a web page by its URL and return its text.'),
  tool('mcp__pdf__merge_pdf', 'Merge PDF files into one PDF.'),
  tool('mcp__bio__mRNA2DNA', 'Convert an mRNA sequence to its DNA.'),
  tool('mcp__quotes__don_quote', 'A quote from Don, the famous chef.'),
  tool('mcp__maps__find_cafe', 'Find a café nearby, with its opening hours.'),
  tool('mcp__deploy__deploy_app', 'Deploy the app to production.'),
  tool('mcp__auth__oAuthToken', 'Get an OAuth token for a service.'),
];

const index = createToolIndex(CATALOG);
const names = (query: string) => index.search(query, { limit: 5 }).matches;

describe('issue #15: tokenizer variants through a whole search', () => {
  it('issue #15: a contraction or an elided letter reaches no tool by its letters', () => {
    for (const query of [
      "I'm trying to send my messages",
      'I’m sending a message',
      "we're sending a message",
    ]) {
      expect(names(query)[0]).toBe('mcp__slack__send_message');
      const words = index.search(query, { explain: true }).explanation?.words.map((w) => w.word);
      for (const junk of ['i', 'm', 're']) expect(words).not.toContain(junk);
    }
    for (const query of ["don't send it, archive the email", 'don’t send, archive the email thread']) {
      expect(names(query)[0]).toBe('mcp__gmail__archive_email');
      const words = index.search(query, { explain: true }).explanation?.words.map((w) => w.word);
      for (const junk of ['don', 't']) expect(words).not.toContain(junk);
    }
    expect(names("deploy the app at 5 o'clock")[0]).toBe('mcp__deploy__deploy_app');
    const words = index.search("deploy the app at 5 o'clock", { explain: true }).explanation?.words;
    expect(words?.map((w) => w.word)).not.toContain('o');
  });

  it('issue #15: plural acronyms find the singular, whatever punctuation follows', () => {
    expect(names('merge these PDFs')[0]).toBe('mcp__pdf__merge_pdf');
    expect(names('merge PDFs, please!')[0]).toBe('mcp__pdf__merge_pdf');
    expect(names('fetch these URLs?')[0]).toBe('mcp__web__fetch_url');
  });

  it('issue #15: a service named only inside an address or URL is not a request for it', () => {
    expect(names('send an email to user.name+tag@sub.example.co.uk')[0]).toBe('mcp__gmail__send_email');
    expect(names('send an email to jo@stripe.com about it')[0]).toBe('mcp__gmail__send_email');
    expect(names('fetch https://app.stripe.com/path?x=1')[0]).toBe('mcp__web__fetch_url');
    expect(names('fetch the page at stripe.com/docs')[0]).toBe('mcp__web__fetch_url');
    expect(names('fetch www.notion.so and read it')[0]).toBe('mcp__web__fetch_url');
    expect(names('send a message to @handle in #channel')[0]).toBe('mcp__slack__send_message');
  });

  it('issue #15: letters beyond ASCII are words, folded; emoji and other scripts do no harm', () => {
    expect(names('find a café')[0]).toBe('mcp__maps__find_cafe');
    expect(names('find a cafe')[0]).toBe('mcp__maps__find_cafe');
    expect(names('🚀 deploy the app 🎉')[0]).toBe('mcp__deploy__deploy_app');
    expect(names('Привет мир')).toEqual([]);
    expect(names('東京')).toEqual([]);
    expect(names('x'.repeat(5000))).toEqual([]);
  });

  it('issue #15: a one-letter part of a camelCase name is no word of its own', () => {
    expect(names('rna2dna')[0]).toBe('mcp__bio__mRNA2DNA');
    expect(names('get an oauth token')[0]).toBe('mcp__auth__oAuthToken');
    expect(names('m')).not.toContain('mcp__bio__mRNA2DNA');
  });
});
