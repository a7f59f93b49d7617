import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../../../src/search/tool-index.js';
import type { IndexEntry } from '../../../src/search/types.js';

// The default engine's departures from the reference, one rule per test, on a small catalog.
const tool = (server: string, name: string, description: string, ...parameters: string[]): IndexEntry => ({
  name: `mcp__${server}__${name}`,
  server,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p, { type: 'string' }])),
  },
});

const CATALOG: IndexEntry[] = [
  tool('github', 'create_issue', 'Create a new issue in a GitHub repository', 'title', 'body'),
  tool(
    'github',
    'list_issues',
    'List issues in a repository. Supports paging with cursors and many filters.',
    'repo',
  ),
  tool('github', 'list_issue_types', 'List the issue types of an organization', 'org'),
  tool('slack', 'send_message', 'Post a message into a Slack channel', 'channel', 'text'),
  tool('weather', 'get_forecast', 'Weather forecast for a city', 'city'),
  tool('designer', 'canvas_draw', 'Draw shapes on a canvas', 'shape'),
  tool('pager', 'notify', 'Send an alert through PagerDuty', 'message'),
];
const index = createToolIndex(CATALOG);

describe('default engine', () => {
  describe('unknown-name gate', () => {
    it('returns no matches for a service that is not installed, with a guess kept apart', () => {
      const result = index.search('jira create issue');
      expect(result.matches).toEqual([]);
      expect(result.unknownWords).toEqual(['jira']);
      expect(result.didYouMean?.[0]).toBe('mcp__github__create_issue');
    });

    it('stops on a listed service even when it is an English word', () => {
      expect(index.search('telegram send message').matches).toEqual([]);
      expect(index.search('send message').matches[0]).toBe('mcp__slack__send_message');
    });

    it('matches a listed service only as written, not through a stem of another word', () => {
      // `canva` stems like `canvas`.
      expect(index.search('canva draw shapes').unknownWords).toEqual(['canva']);
    });

    it('ignores English words no tool holds instead of stopping on them', () => {
      const result = index.search('please tell me the weather forecast for tomorrow', { explain: true });
      expect(result.matches[0]).toBe('mcp__weather__get_forecast');
      expect(result.explanation?.ignoredWords).toEqual(expect.arrayContaining(['please', 'tomorrow']));
    });

    it('treats names in a long sentence as what the task is about, not as missing services', () => {
      const long =
        'I am travelling next week and would like to know the weather forecast in Zhongguancun please';
      expect(index.search(long).matches[0]).toBe('mcp__weather__get_forecast');
      expect(index.search('weather forecast zhongguancun').matches).toEqual([]);
    });

    it('treats many unknown words at once as data, not names', () => {
      expect(index.search('weather forecast qzxv wbbrt plokj').matches[0]).toBe('mcp__weather__get_forecast');
      expect(index.search('weather forecast qzxv wbbrt').matches).toEqual([]);
    });
  });

  describe('typo correction', () => {
    it('corrects a word one edit from a catalog word and says so', () => {
      const result = index.search('github create isue');
      expect(result.matches[0]).toBe('mcp__github__create_issue');
      expect(result.corrections).toEqual([{ from: 'isue', to: 'issue' }]);
      expect(index.search('github craete issue').corrections).toEqual([{ from: 'craete', to: 'create' }]);
    });

    it('never changes the first letter, nor produces a word shorter than five letters', () => {
      expect(index.search('github create xssue').matches).toEqual([]);
      expect(index.search('weather forecast cty').corrections).toBeUndefined();
    });

    it('leaves correct searches alone', () => {
      expect(index.search('github create issue').corrections).toBeUndefined();
    });
  });

  describe('ranking', () => {
    it('splits camelCase and keeps the whole word', () => {
      expect(index.search('pager duty alert').matches[0]).toBe('mcp__pager__notify');
      expect(index.search('pagerduty').matches).toEqual(['mcp__pager__notify']);
    });

    it('prefers the tool whose name the query says over near-duplicates', () => {
      const { explanation } = index.search('github list issues', { explain: true });
      expect(explanation?.matches[0]?.name).toBe('mcp__github__list_issues');
      expect(explanation?.matches[0]?.nameMatch).toBe(1);
      expect(explanation?.matches[0]?.score).toBeCloseTo(2 * (explanation?.matches[0]?.bm25 ?? 0), 12);
    });

    it('scores a long query on its most specific terms only', () => {
      const few = createToolIndex(CATALOG, { maxQueryTerms: 2 });
      const { explanation } = few.search('post a message into a channel in the repository', {
        explain: true,
      });
      const answerable = explanation?.answerableTerms ?? [];
      const unscored = explanation?.unscoredTerms ?? [];
      expect(answerable.length).toBeGreaterThan(2);
      expect(unscored).toHaveLength(answerable.length - 2);
      for (const match of explanation?.matches ?? []) {
        for (const term of Object.keys(match.terms)) expect(unscored).not.toContain(term);
      }
      expect(unscored).toContain('a');
    });

    it('adds synonyms at a lower weight when asked', () => {
      const synonyms = createToolIndex(CATALOG, { synonyms: [['post', 'publish']] });
      // No tool says `publish`; its synonym `post` is found at half weight.
      const { explanation } = synonyms.search('publish message', { explain: true });
      expect(explanation?.matches[0]?.name).toBe('mcp__slack__send_message');
      expect(Object.keys(explanation?.matches[0]?.terms ?? {})).toContain('post');
    });
  });
});
