#!/usr/bin/env node
// `npm start`: build what is out of date, then open the desktop app. Where Electron cannot run
// (no binary downloaded, no display), say so in one line and start web mode instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);

/** Newest modification time under these paths (files or folders), skipping nothing we build from. */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(root, path));
  return latest;
}

/** Oldest of these build outputs, or 0 when one is missing. */
function oldest(paths) {
  let earliest = Number.POSITIVE_INFINITY;
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) return 0;
    earliest = Math.min(earliest, statSync(full).mtimeMs);
  }
  return earliest;
}

function run(script) {
  process.stdout.write(`toolbridge: building (npm run ${script})…\n`);
  const result = spawnSync('npm', ['run', '--silent', script], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stderr.write(
      `toolbridge: npm run ${script} failed; fix the errors above and run npm start again.\n`,
    );
    process.exit(result.status ?? 1);
  }
}

const config = ['package.json', 'tsconfig.json', 'tsconfig.base.json'];
if (newest(['src', 'tsconfig.build.json', ...config]) > oldest(['dist/cli/main.js', 'dist/host/host.js'])) {
  run('build:host');
}
if (
  newest(['src', 'main', 'preload', 'renderer', 'electron.vite.config.ts', ...config]) >
  oldest(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])
) {
  run('build:app');
}

/**
 * Runs a child until it exits; its exit code becomes ours. It gets its own process group, so a
 * Ctrl-C reaches it once (forwarded by us) rather than twice (terminal + us), which would make it
 * skip its clean shutdown and leave its MCP servers behind.
 */
function foreground(command, commandArgs) {
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // npm and the terminal may both deliver the same stop; a second one within a second is that echo.
  let forwardedAt = Number.NEGATIVE_INFINITY;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (Date.now() - forwardedAt < 1000) return;
      forwardedAt = Date.now();
      child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = findElectronBinary();
if ('path' in electron) {
  foreground(electron.path, [root, ...args]);
} else {
  process.stdout.write(
    `toolbridge: the desktop app cannot start here: ${electron.reason}. Starting web mode instead (toolbridge serve); open the ui: link it prints.\n`,
  );
  foreground(process.execPath, [join(root, 'bin', 'toolbridge.js'), 'serve', ...args]);
}
