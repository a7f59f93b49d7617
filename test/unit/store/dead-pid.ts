import { spawnSync } from 'node:child_process';

/**
 * The pid of a process that has exited and been reaped: a crashed writer's, for temp and lock
 * files. `node --version` exits before loading any script, so this costs little on a busy machine.
 */
export function deadPid(): number {
  return spawnSync(process.execPath, ['--version']).pid;
}
