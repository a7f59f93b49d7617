/**
 * Issue #12: the fuzz harness inside `npm test` (a few hundred cases per target, a fresh seed each
 * run, printed on failure). `npm run fuzz -- --cases N [--seed S]` runs the same with N cases and
 * prints the report whatever happens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FuzzHosts,
  type FuzzReport,
  formatReport,
  fuzzAgent,
  fuzzUiSocket,
  startFuzzHosts,
} from './fuzz-kit.js';

const longRun = process.env.TOOLBRIDGE_FUZZ_CASES !== undefined;
const cases = Number(process.env.TOOLBRIDGE_FUZZ_CASES ?? 200);
const seed = Number(process.env.TOOLBRIDGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const timeout = longRun ? 24 * 3600_000 : 120_000;

let hosts: FuzzHosts;

beforeAll(async () => {
  hosts = await startFuzzHosts();
});

afterAll(async () => {
  await hosts?.close();
});

function report(result: FuzzReport): void {
  if (longRun) console.log(formatReport(result));
  expect(
    result.findings,
    `fuzz findings (rerun with TOOLBRIDGE_FUZZ_SEED=${result.seed}):\n${formatReport(result)}`,
  ).toEqual([]);
  expect(result.counts.crash + result.counts.hang + result.counts['unstructured-error']).toBe(0);
}

describe('issue #12: fuzzing', () => {
  it(`issue #12: ${cases} fuzzed calls of the four bridge tools through the SDK client get a structured result or error each`, {
    timeout,
  }, async () => {
    report(await fuzzAgent(hosts, cases, seed));
  });

  it(`issue #12: ${cases} fuzzed UI socket frames each get one structured reply, and the socket still serves`, {
    timeout,
  }, async () => {
    report(await fuzzUiSocket(hosts, cases, seed));
  });
});
