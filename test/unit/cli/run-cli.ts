import { fileURLToPath } from 'node:url';
import { run } from '../../../src/cli/main.js';

export const SMALL = fileURLToPath(new URL('../../fixtures/catalogs/small', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../../fixtures/catalogs', import.meta.url));
export const SMALL_QUERIES = fileURLToPath(
  new URL('../../fixtures/catalogs/small-queries.jsonl', import.meta.url),
);
export const SHARED_CATALOGS = fileURLToPath(new URL('../../../../shared/data/catalogs', import.meta.url));
export const SHARED_QUERIES = fileURLToPath(
  new URL('../../../../shared/data/eval/dev.jsonl', import.meta.url),
);

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with collected output. */
export async function runCli(...argv: string[]): Promise<CliOutput> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
