// Start-up of `toolbridge serve` with the three default servers (everything, filesystem, memory):
// from spawn until it prints the agent token, which it does once the endpoint answers and every
// server has connected. First run (empty data folder) and a later run (settings already there).
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixed, median, table, verdict } from './measure.js';

const CLI = fileURLToPath(new URL('../bin/toolbridge.js', import.meta.url));
const RUNS = 5;
const TARGET_MS = 2000;

/** Milliseconds until the token line, then stops the server and waits for it to exit. */
function startOnce(dataDir) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--policy', 'allow'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    let ms;
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (ms === undefined && out.includes('agent token: ')) {
        ms = Number(process.hrtime.bigint() - start) / 1e6;
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => {
      if (ms === undefined) reject(new Error(`serve exited (${code}) before it was ready: ${err.trim()}`));
      else resolve(ms);
    });
  });
}

export async function runServeStartupBench() {
  const first = [];
  const later = [];
  for (let i = 0; i < RUNS; i++) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-bench-serve-'));
    try {
      first.push(await startOnce(dataDir));
      later.push(await startOnce(dataDir));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }
  const worst = Math.max(median(first), median(later));
  return [
    `## toolbridge serve start-up, 3 default servers, ${RUNS} runs each`,
    '',
    table([
      ['run', 'median ms', 'min ms', 'max ms'],
      [
        'first (empty data folder)',
        fixed(median(first)),
        fixed(Math.min(...first)),
        fixed(Math.max(...first)),
      ],
      ['later (settings exist)', fixed(median(later)), fixed(Math.min(...later)), fixed(Math.max(...later))],
    ]),
    '',
    `Until the endpoint answers with every server connected: ${fixed(worst)} ms (median); target ≤ ${TARGET_MS} ms: ${verdict(worst <= TARGET_MS)}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runServeStartupBench());
