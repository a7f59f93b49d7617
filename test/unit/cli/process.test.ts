// The built CLI as users run it: `node bin/toolbridge.js …` in a child process.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMALL, SMALL_QUERIES } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/toolbridge.js');
const BUILT = join(ROOT, 'dist/cli/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function toolbridge(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('bin/toolbridge.js', () => {
  beforeAll(() => {
    // `npm test` builds first; a lone run rebuilds when the sources are newer than dist/.
    if (!existsSync(BUILT) || statSync(BUILT).mtimeMs < newestSource(join(ROOT, 'src'))) {
      try {
        execFileSync(
          process.execPath,
          [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
          {
            cwd: ROOT,
            stdio: 'ignore',
          },
        );
      } catch {
        // Type errors elsewhere still emit JavaScript; the check below is what matters.
      }
    }
    expect(existsSync(BUILT)).toBe(true);
  }, 120_000);

  it('search prints the tool_search JSON and exits 0', async () => {
    const { code, stdout, stderr } = await toolbridge(
      'search',
      '--catalog-dir',
      SMALL,
      'github create issue',
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout).results[0].matches[0]).toBe('mcp__github__create_issue');
  });

  it('batch search prints one line per query from one process', async () => {
    const { code, stdout } = await toolbridge('search', '--catalog-dir', SMALL, '--queries', SMALL_QUERIES);
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
  });

  it('bad input: one line on stderr, exit 2, no stack trace', async () => {
    const { code, stdout, stderr } = await toolbridge(
      'describe',
      '--catalog-dir',
      join(SMALL, 'missing'),
      'x',
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^toolbridge describe: Cannot read catalog directory/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('no command: usage on stderr, exit 2', async () => {
    const { code, stderr } = await toolbridge();
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: toolbridge <command>');
  });
});
