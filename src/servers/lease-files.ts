/**
 * Which lease file this process keeps and which leftovers it reaps at start (checklist R2). The
 * data-folder lock holder owns `server-leases.json` and reaps it; each read-only process
 * (`toolbridge mcp`, several may run) keeps its own file and reaps only the files of such
 * processes that are gone, never another live host's servers.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { processAlive } from './process-group.js';
import { LEASES_FILE_NAME, type LeaseFile, ProcessLeases, reapReportLines } from './process-leases.js';

export interface ServerLeases {
  leases: ProcessLeases;
  /** The shared file stays (emptied by the servers as they stop); a per-process one goes. */
  close(): Promise<void>;
}

/** `fileAt` opens a lease file by path (the store's JSON file); `log` hears what was reaped. */
export async function openServerLeases(
  dataDir: string,
  readOnly: boolean,
  fileAt: (filePath: string) => LeaseFile,
  log: (line: string) => void,
): Promise<ServerLeases> {
  const own = readOnly ? `server-leases.mcp-${process.pid}.json` : LEASES_FILE_NAME;
  const stale: string[] = readOnly ? [] : [LEASES_FILE_NAME];
  for (const name of await fs.readdir(dataDir).catch(() => [] as string[])) {
    const pid = /^server-leases\.mcp-(\d+)\.json$/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid))) stale.push(name);
  }
  for (const name of stale) {
    const report = await new ProcessLeases(fileAt(path.join(dataDir, name))).reapLeftovers();
    for (const line of reapReportLines(report)) log(`toolbridge: ${line}`);
    if (name !== own) await fs.rm(path.join(dataDir, name), { force: true });
  }
  return {
    leases: new ProcessLeases(fileAt(path.join(dataDir, own))),
    close: async () => {
      if (readOnly) await fs.rm(path.join(dataDir, own), { force: true });
    },
  };
}
