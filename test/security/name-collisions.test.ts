/**
 * Issue #12, name collisions: server `x` with tool `y__run` and server `x__y` with tool `run` both
 * became `mcp__x__y__run`, and the first silently won. New ids may not hold `__` (or end with
 * `_`); a server kept from older settings under such an id loads, stays in the settings, is flagged,
 * and names no tool until renamed. Real host, real stdio servers, the SDK client as the agent.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scenarioServer, writeSettings } from '../helpers/host-kit.js';
import {
  connectAgent,
  makeDataDir,
  type RunningHost,
  removeDir,
  startHost,
  text,
  toolCall,
} from '../integration/approvals/kit.js';

let dataDir: string;
let running: RunningHost | undefined;

/** A stdio fixture server `id` whose one echo tool is named `tool`. */
const server = (id: string, tool: string) => scenarioServer(dataDir, id, [{ name: tool, behavior: 'echo' }]);

beforeEach(async () => {
  dataDir = await makeDataDir();
  await writeSettings(dataDir, {
    servers: [await server('x__y', 'run'), await server('x', 'y__run'), await server('x_', '_y')],
    policies: { default: 'allow' },
  });
  running = await startHost(dataDir);
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await removeDir(dataDir);
});

describe('issue #12: tool names are unambiguous', () => {
  it('issue #12: a server kept under an ambiguous id loads and is flagged, and the name belongs to one tool only', async () => {
    const host = running!.host;
    const views = await host.api.listServers();
    expect(views.map((view) => view.id).sort()).toEqual(['x', 'x_', 'x__y']);
    const flagged = views.find((view) => view.id === 'x__y')!;
    expect(flagged.nameProblem).toContain('Use "x_y" instead');
    expect(flagged.nameProblem).toContain('mcp__x__y__run (also server "x" tool "y__run")');
    expect(views.find((view) => view.id === 'x_')?.nameProblem).toContain('end with "_"');
    expect(views.find((view) => view.id === 'x')?.nameProblem).toBeUndefined();

    // The settings keep every server; only the agents' names leave the flagged ones out.
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.servers.map((config: { id: string }) => config.id)).toEqual(['x__y', 'x', 'x_']);

    const agent = await connectAgent(running!);
    const result: CallToolResult = await toolCall(agent, 'mcp__x__y__run', { message: 'which one?' });
    expect(text(result)).toBe('which one?');
    expect(host.catalog.entry('mcp__x__y__run')).toMatchObject({ serverId: 'x', toolName: 'y__run' });
    expect(host.catalog.entries.filter((entry) => entry.serverId !== 'x')).toEqual([]);
  });

  it('issue #12: adding or renaming to an ambiguous id is refused with an id to use instead, and renaming clears the flag', async () => {
    const api = running!.host.api;
    const config = await server('a', 'run');
    for (const id of ['a__b', 'a___b', 'a_']) {
      await expect(api.addServer({ ...config, id })).rejects.toThrow(
        /may not hold "__" or end with "_"\. Use "a(_b)?" instead/,
      );
    }
    await expect(api.updateServer('x', { ...(await server('x', 'y__run')), id: 'x__z' })).rejects.toThrow(
      /Use "x_z" instead/,
    );
    const renamed = await api.updateServer('x__y', { ...(await server('x__y', 'run')), id: 'x_y' });
    expect(renamed.nameProblem).toBeUndefined();
    await running!.host.servers.restart('x_y');
    expect(running!.host.catalog.entry('mcp__x_y__run')).toMatchObject({ serverId: 'x_y', toolName: 'run' });
  });
});
