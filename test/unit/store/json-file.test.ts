import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonFile } from '../../../src/store/json-file.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-json-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('jsonFile', () => {
  it('reads nothing from a missing or broken file, and round-trips what it wrote (0600)', async () => {
    const file = jsonFile(path.join(dir, 'leases.json'));
    expect(await file.read()).toBeUndefined();
    await file.write([{ pid: 42 }]);
    expect(await file.read()).toEqual([{ pid: 42 }]);
    if (process.platform !== 'win32')
      expect((await fs.stat(path.join(dir, 'leases.json'))).mode & 0o777).toBe(0o600);
    await fs.writeFile(path.join(dir, 'leases.json'), '{oops');
    expect(await file.read()).toBeUndefined();
  });
});
