/**
 * A writer process killed with SIGKILL in the middle of appending: every line it acknowledged
 * (its append resolved) must be readable afterwards, and the log keeps working.
 * The child runs the real audit-log module, transpiled (no type check) into a temp folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/approvals/audit-log.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

let dir: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolbridge-audit-crash-'));
});

afterEach(async () => {
  child?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Transpiles the modules the audit log loads, following relative imports from audit-log.ts. */
async function buildAuditLog(outDir: string): Promise<string> {
  const pending = [join(SRC, 'approvals/audit-log.ts')];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    const source = await readFile(file, 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    const out = join(outDir, relative(SRC, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, outputText);
    // Only imports that survive transpiling are loaded at run time.
    for (const match of outputText.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      pending.push(join(dirname(file), `${match[1]}.ts`));
    }
  }
  return join(outDir, 'approvals/audit-log.js');
}

describe('AuditLog under SIGKILL', () => {
  it('keeps every acknowledged line of a writer killed mid-stream', async () => {
    const modulePath = await buildAuditLog(join(dir, 'build'));
    const logDir = join(dir, 'log');
    const writer = join(dir, 'writer.mjs');
    // Appends without pause, several in flight at once, and prints each id once append resolved.
    await writeFile(
      writer,
      `import { AuditLog } from ${JSON.stringify(modulePath)};
const log = await AuditLog.open({ dir: process.argv[2] });
const padding = 'p'.repeat(3000);
let n = 0;
const one = async () => {
  for (;;) {
    const entry = await log.append({ agentId: 'a', toolName: 'mcp__s__t', serverId: 's',
      arguments: { n: n++, padding }, decision: 'allow', decidedBy: 'policy',
      durationMs: 1, resultBytes: 1, isError: false });
    process.stdout.write(entry.id + '\\n');
  }
};
await Promise.all([one(), one(), one(), one()]);
`,
    );

    const acknowledged: string[] = [];
    const proc = spawn(process.execPath, [writer, logDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let buffered = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      proc.on('exit', (_, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      proc.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
      proc.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        acknowledged.push(...parts);
        // Kill while writes are in flight, well past the first file.
        if (acknowledged.length >= 600 && proc.exitCode === null && proc.signalCode === null) {
          proc.kill('SIGKILL');
          resolve();
        }
      });
    });
    expect(await exited).toBe('SIGKILL');
    // Ids still in the pipe after the kill were acknowledged too.
    acknowledged.push(...buffered.split('\n').filter((id) => id.length === 36));

    // Read it back as the next host start would.
    expect(await readdir(logDir)).toContain('audit.jsonl');
    const log = await AuditLog.open({ dir: logDir });
    try {
      const stored = new Set(
        (await log.export('jsonl'))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => (JSON.parse(line) as { id: string }).id),
      );
      const missing = acknowledged.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
      // The log goes on after the crash, on a line of its own.
      const next = await log.append({
        agentId: 'a',
        toolName: 'mcp__s__t',
        serverId: 's',
        arguments: {},
        decision: 'allow',
        decidedBy: 'policy',
        durationMs: 0,
        resultBytes: 0,
        isError: false,
      });
      expect((await log.query({ limit: 1 })).entries[0]?.id).toBe(next.id);
    } finally {
      await log.close();
    }
  }, 60_000);
});
