import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared data folder: `TOOLBRIDGE_SHARED_DATA`, else `../shared/data` beside the clone (as in CI). */
export function sharedDataDir(): string {
  const dir = process.env.TOOLBRIDGE_SHARED_DATA ?? resolve(import.meta.dirname, '../../../../shared/data');
  if (!existsSync(join(dir, 'catalogs'))) {
    throw new Error(
      `Shared data not found at ${dir}: set TOOLBRIDGE_SHARED_DATA to the folder holding catalogs/ and eval/.`,
    );
  }
  return dir;
}
