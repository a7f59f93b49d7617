/** killAllNow: the second Ctrl-C's hard stop reaches every server group, even one ignoring SIGTERM. */
import { describe, expect, it } from 'vitest';
import { ServerManager } from '../../../src/servers/server-manager.js';
import { waitUntil } from '../../helpers/wait.js';
import { FIXTURE_SERVER, isAlive, STUBBORN_PRELOAD, scenarioPath } from './helpers.js';

describe.runIf(process.platform !== 'win32')('ServerManager.killAllNow', () => {
  it('SIGKILLs a running server that ignores SIGTERM, while a close is still under way', async () => {
    const servers = new ServerManager();
    await servers.add({
      id: 'stubborn',
      transport: 'stdio',
      command: process.execPath,
      args: ['-r', STUBBORN_PRELOAD, FIXTURE_SERVER, scenarioPath('basic')],
      enabled: true,
    });
    const pid = servers.snapshotOf('stubborn').pid!;
    expect(isAlive(pid)).toBe(true);
    const closing = servers.close();
    servers.killAllNow();
    await waitUntil(() => !isAlive(pid), 'the server to die', 1_000);
    await closing;
  });
});
