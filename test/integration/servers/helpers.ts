import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig, ServerState } from '../../../src/servers/types.js';

export const FIXTURE_SERVER = fileURLToPath(
  new URL('../../fixtures/servers/fixture-server.mjs', import.meta.url),
);
export const STUBBORN_PRELOAD = fileURLToPath(
  new URL('../../fixtures/servers/stubborn.cjs', import.meta.url),
);

export function scenarioPath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/servers/${name}.json`, import.meta.url));
}

export function scenario(name: string) {
  return JSON.parse(readFileSync(scenarioPath(name), 'utf8'));
}

/** A stdio config that runs the fixture server on a scenario with the running Node. */
export function fixtureConfig(
  id: string,
  scenarioName: string,
  extra: Partial<ServerConfig> = {},
): ServerConfig {
  return {
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE_SERVER, scenarioPath(scenarioName)],
    enabled: true,
    ...extra,
  } as ServerConfig;
}

/** True while the process exists and is not a zombie waiting for a parent that never reaps. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

export type { ServerState };

/** Writes a data folder's settings.json (0600) holding one remote Streamable HTTP server. */
export async function writeRemoteServerSettings(dataDir: string, id: string, url: string): Promise<void> {
  await fs.writeFile(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ version: 2, servers: [{ id, transport: 'http', url, enabled: true }] }),
    { mode: 0o600 },
  );
}
