import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../../src/base/command-review.js';
import { runCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const INTRO = readFileSync(new URL('../../../docs/readme/00-intro.md', import.meta.url), 'utf8');
const QUICK_START = /## Quick start\s+```sh\n([\s\S]*?)```/.exec(INTRO)?.[1] ?? '';

/** The Quick start's offline CLI lines (search, eval), as the shell would split them. */
const lines = QUICK_START.split('\n')
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => /^node bin\/toolbridge\.js (search|eval) /.test(line));

const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe('issue #16: the README Quick start works in a fresh clone', () => {
  it('has the search and eval lines, on data that ships in the clone', () => {
    expect(lines.map((line) => line.split(' ')[2])).toEqual(['search', 'eval']);
    for (const line of lines) expect(line).not.toContain('../shared');
  });

  for (const line of lines) {
    it(line, async () => {
      const split = splitCommandLine(line);
      if (!split.ok) throw new Error(split.message);
      process.chdir(ROOT);
      const out = await runCli(...split.words.slice(2));
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      if (split.words[2] === 'search') {
        const payload = JSON.parse(out.stdout);
        // One quoted query, not three one-word queries.
        expect(payload.queries).toEqual(['github create issue']);
        expect(payload.results[0].matches[0]).toBe('mcp__github__create_issue');
      } else expect(out.stdout).toMatch(/queries \(\d+ judged\)/);
    });
  }
});
