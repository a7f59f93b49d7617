#!/usr/bin/env node
// `npm run fuzz -- --cases N [--seed S]`: the fuzz harness of test/security/fuzz.test.ts with N
// cases per target (bridge tools, UI socket); prints the report (crashes, hangs over 5 s,
// unstructured errors, p50/p99 latency) and exits non-zero when anything was found.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args[at + 1];
};
const cases = Number(flag('cases') ?? 10_000);
const seed = flag('seed');
if (!Number.isInteger(cases) || cases < 1) {
  process.stderr.write('fuzz: --cases needs a whole number of cases, e.g. --cases 10000\n');
  process.exit(2);
}
if (seed !== undefined && !/^\d+$/.test(seed)) {
  process.stderr.write('fuzz: --seed needs a whole number, as printed by an earlier run\n');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  [`${root}node_modules/vitest/vitest.mjs`, 'run', '--project', 'security', 'test/security/fuzz.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      TOOLBRIDGE_FUZZ_CASES: String(cases),
      ...(seed === undefined ? {} : { TOOLBRIDGE_FUZZ_SEED: seed }),
    },
  },
);
process.exit(result.status ?? 1);
