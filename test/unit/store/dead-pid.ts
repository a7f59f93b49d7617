import { spawnSync } from 'node:child_process';

/** The pid of a process that has exited and been reaped: a crashed writer's, for temp and lock files. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}
