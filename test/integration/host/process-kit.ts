/** Helpers for tests that start Toolbridge as a child process and watch what it prints and starts. */
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Compiles src/ into a private folder `dirName` beside dist/ (same depth, so paths such as
 * ../../resources and node_modules resolve alike) that no other test rebuilds meanwhile; returns
 * the CLI's entry point there. Emit only (`--noCheck`): `npm run typecheck` checks the types once,
 * and three files type-checking src/ again in parallel took past their 120 s hook on a loaded
 * 2-core machine; with isolatedModules the JavaScript is the same either way.
 */
export async function buildPrivateCli(dirName: string): Promise<string> {
  const out = path.join(ROOT, dirName);
  await fs.rm(out, { recursive: true, force: true });
  try {
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        out,
        '--declaration',
        'false',
        '--sourceMap',
        'false',
        '--noCheck',
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
  } catch {
    // Type errors elsewhere still emit JavaScript; the existence check below is what matters.
  }
  const main = path.join(out, 'cli', 'main.js');
  await fs.access(main);
  return main;
}

/** Lines the child printed on a stream, growing as it prints. */
export function lines(stream: NodeJS.ReadableStream): string[] {
  const seen: string[] = [];
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    seen.push(...parts);
  });
  return seen;
}

export function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    return [];
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** After a failed run: stop whatever a test started, so nothing outlives the suite. */
export function killGroups(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
