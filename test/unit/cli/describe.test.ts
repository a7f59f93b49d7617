import { describe, expect, it } from 'vitest';
import { runCli, SMALL } from './run-cli.js';

describe('toolbridge describe', () => {
  it('prints the tool_describe answer: schema for known names, not_found for the rest', async () => {
    const { code, stdout } = await runCli(
      'describe',
      '--catalog-dir',
      SMALL,
      'mcp__github__create_issue',
      'mcp__nope__x',
    );
    expect(code).toBe(0);
    const payload = JSON.parse(stdout);
    expect(Object.keys(payload.tools)).toEqual(['mcp__github__create_issue']);
    expect(payload.tools.mcp__github__create_issue.parameters.required).toEqual(['owner', 'repo', 'title']);
    expect(payload.tools.mcp__github__create_issue.description).toBe(
      'Open a new issue in a GitHub repository. Requires a title.',
    );
    expect(payload.not_found).toEqual(['mcp__nope__x']);
    expect(stdout.split('\n')).toHaveLength(2);
  });

  it('says a pinned tool is listed directly', async () => {
    const { stdout } = await runCli(
      'describe',
      '--catalog-dir',
      SMALL,
      '--pin',
      'mcp__github__create_issue',
      'mcp__github__create_issue',
    );
    const payload = JSON.parse(stdout);
    expect(payload.tools).toEqual({});
    expect(Object.keys(payload.errors)).toEqual(['mcp__github__create_issue']);
  });

  it('rejects more than 10 names and no names, exit 2', async () => {
    const names = Array.from({ length: 11 }, (_, i) => `n${i}`);
    const many = await runCli('describe', '--catalog-dir', SMALL, ...names);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('too many names: 11 > max 10');
    const none = await runCli('describe', '--catalog-dir', SMALL);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give at least one tool NAME');
  });
});
