import type { ChildProcess } from 'node:child_process';
import { promises as fs, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ensurePrivateDir,
  moveAside,
  removeStaleTempFiles,
  repairPrivateFileMode,
  writeFileAtomic,
} from '../../../src/store/atomic-file.js';
import { deadPid } from './dead-pid.js';

const posix = process.platform !== 'win32';
let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function modeOf(file: string): Promise<number> {
  return (await fs.stat(file)).mode & 0o777;
}

describe('writeFileAtomic', () => {
  it('creates the file 0600 and leaves no temp file behind', async () => {
    const file = path.join(dir, 'settings.json');
    await writeFileAtomic(file, '{"a":1}');
    expect(await fs.readFile(file, 'utf8')).toBe('{"a":1}');
    expect(await fs.readdir(dir)).toEqual(['settings.json']);
    if (posix) expect(await modeOf(file)).toBe(0o600);
  });

  it('keeps 0600 when it replaces a file, even under a permissive umask', async () => {
    const file = path.join(dir, 'secrets.json');
    const oldMask = process.umask(0);
    try {
      await writeFileAtomic(file, 'one');
      await writeFileAtomic(file, 'two');
    } finally {
      process.umask(oldMask);
    }
    expect(await fs.readFile(file, 'utf8')).toBe('two');
    if (posix) expect(await modeOf(file)).toBe(0o600);
  });

  it('applies concurrent writes to one file in call order, each whole', async () => {
    const file = path.join(dir, 'queue.json');
    const writes = Array.from({ length: 20 }, (_, i) =>
      writeFileAtomic(file, JSON.stringify({ i, pad: 'x'.repeat(10_000) })),
    );
    await Promise.all(writes);
    expect(JSON.parse(await fs.readFile(file, 'utf8')).i).toBe(19);
    expect(await fs.readdir(dir)).toEqual(['queue.json']);
  });

  it('leaves the old content and no temp file when the rename fails', async () => {
    const target = path.join(dir, 'target');
    await fs.mkdir(target);
    await fs.writeFile(path.join(target, 'inside'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect((await fs.readdir(dir)).sort()).toEqual(['target']);
  });
});

describe('removeStaleTempFiles', () => {
  it('removes only the temp files of that target whose writer is gone', async () => {
    const file = path.join(dir, 'settings.json');
    const gone = deadPid();
    await fs.writeFile(path.join(dir, `.settings.json.${gone}.abc.tmp`), 'half');
    await fs.writeFile(path.join(dir, '.settings.json.garbage.tmp'), 'half');
    await fs.writeFile(path.join(dir, '.other.json.1.a.tmp'), 'keep');
    await fs.writeFile(file, '{}');
    expect(await removeStaleTempFiles(file)).toBe(2);
    expect((await fs.readdir(dir)).sort()).toEqual(['.other.json.1.a.tmp', 'settings.json']);
  });

  it('keeps a temp file another live process is writing (a second Toolbridge on the folder)', async () => {
    const file = path.join(dir, 'secrets.json');
    const live = `.secrets.json.${process.pid}.abc.tmp`;
    await fs.writeFile(path.join(dir, live), 'being written');
    expect(await removeStaleTempFiles(file)).toBe(0);
    expect(await fs.readdir(dir)).toEqual([live]);
  });
});

describe('moveAside', () => {
  it('renames to <name>.corrupt-<timestamp>', async () => {
    const file = path.join(dir, 'settings.json');
    await fs.writeFile(file, 'garbage');
    const aside = await moveAside(file, new Date('2026-05-04T03:02:01.000Z'));
    expect(path.basename(aside)).toBe('settings.json.corrupt-2026-05-04T03-02-01-000Z');
    expect(await fs.readFile(aside, 'utf8')).toBe('garbage');
  });
});

describe.runIf(posix)('private modes', () => {
  it('creates the folder 0700 and tightens an open one with a warning', async () => {
    const fresh = path.join(dir, 'a', 'b');
    expect(await ensurePrivateDir(fresh)).toBeUndefined();
    expect(await modeOf(fresh)).toBe(0o700);
    await fs.chmod(fresh, 0o755);
    expect(await ensurePrivateDir(fresh)).toMatch(/mode 755.*now 700/);
    expect(await modeOf(fresh)).toBe(0o700);
  });

  it('tightens a file others can read', async () => {
    const file = path.join(dir, 'secrets.json');
    await fs.writeFile(file, '{}', { mode: 0o644 });
    await fs.chmod(file, 0o644);
    expect(await repairPrivateFileMode(file)).toMatch(/mode 644/);
    expect(await modeOf(file)).toBe(0o600);
    expect(await repairPrivateFileMode(file)).toBeUndefined();
    expect(await repairPrivateFileMode(path.join(dir, 'absent'))).toBeUndefined();
  });
});

/** SIGKILLs `child` at the first change in `dir` to a name `at` accepts (inotify, no polling); resolves once it exited. */
async function killOnChange(child: ChildProcess, dir: string, at: (name: string) => boolean): Promise<void> {
  const watcher = watch(dir, (_event, name) => {
    if (name !== null && at(name)) child.kill('SIGKILL');
  });
  let bound: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise((resolve) => child.once('exit', resolve)),
      new Promise((_, reject) => {
        bound = setTimeout(() => reject(new Error('the writer changed nothing in 10 s')), 10_000);
      }),
    ]);
  } finally {
    clearTimeout(bound);
    watcher.close();
    child.kill('SIGKILL');
  }
}

describe('writeFileAtomic under kill -9', () => {
  it('leaves the old or the new content, whole, however the writer dies (R8)', async () => {
    // Run the real writer in a child: transpile it (and the one helper it imports) to JS.
    const ts = await import('typescript');
    const code = path.join(dir, 'code');
    for (const file of ['store/atomic-file', 'platform/process-alive']) {
      const source = await fs.readFile(new URL(`../../../src/${file}.ts`, import.meta.url), 'utf8');
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      await fs.mkdir(path.dirname(path.join(code, file)), { recursive: true });
      await fs.writeFile(path.join(code, `${file}.js`), js);
    }
    await fs.writeFile(path.join(code, 'package.json'), '{"type":"module"}');
    const target = path.join(dir, 'data.json');
    const versions = ['a', 'b'].map((letter) => JSON.stringify({ letter, body: letter.repeat(1024 * 1024) }));
    await fs.writeFile(target, versions[0]!);
    const writer = `
      import { writeFileAtomic } from './code/store/atomic-file.js';
      console.log('ready');
      for (let i = 0; ; i++) {
        const letter = i % 2 ? 'b' : 'a';
        await writeFileAtomic(${JSON.stringify(target)}, JSON.stringify({ letter, body: letter.repeat(1024 * 1024) }));
      }`;
    await fs.writeFile(path.join(dir, 'writer.mjs'), writer);
    const { spawn } = await import('node:child_process');
    let interrupted = 0;
    // Until 3 kills have landed mid-write (a temp file was left), at most 40 rounds.
    for (let round = 0; round < 40 && interrupted < 3; round++) {
      const child = spawn(process.execPath, [path.join(dir, 'writer.mjs')], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      await new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', (code) => reject(new Error(`the writer exited early (code ${code})`)));
      });
      // At an event of a write, not after a guessed delay: even rounds as a temp file appears
      // (mid-write), odd ones as the target is replaced (between the rename and the next write).
      await killOnChange(
        child,
        dir,
        round % 2 === 0 ? (name) => name.endsWith('.tmp') : (name) => name === 'data.json',
      );
      const content = await fs.readFile(target, 'utf8');
      expect(versions.includes(content), `round ${round}: torn file of ${content.length} chars`).toBe(true);
      interrupted += await removeStaleTempFiles(target);
      expect((await fs.readdir(dir)).sort()).toEqual(['code', 'data.json', 'writer.mjs']);
    }
    expect(interrupted).toBeGreaterThan(0);
  }, 60_000);
});
