/**
 * Issue #12, results: what a server answers reaches the agent within `maxResultBytes`, with a note
 * saying what was cut and how to get the rest; an answer too long for stdio framing fails only its
 * own call and the server stays connected. Real host, real stdio fixture server, the SDK's real
 * Client as the agent.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RESULT_BYTES } from '../../src/bridge/settings.js';
import type { Host } from '../../src/host/host.js';
import { connectDefaultAgent, startHost } from '../helpers/host-kit.js';
import { fixtureConfig } from '../integration/servers/helpers.js';

const MIB = 1024 * 1024;
let dataDir: string;
let host: Host | undefined;
let agent: Client | undefined;

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-sec-result-'));
});

afterEach(async () => {
  await agent?.close();
  await host?.close();
  agent = undefined;
  host = undefined;
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function start(settings: Record<string, unknown> = {}): Promise<Client> {
  host = await startHost(
    dataDir,
    { servers: [fixtureConfig('big', 'faulty')], policies: { default: 'allow' }, ...settings },
    { policyOverride: 'allow' },
  );
  agent = await connectDefaultAgent(host, 'result-size');
  return agent;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool(
    { name: 'tool_call', arguments: { calls: [{ name: `mcp__big__${name}`, arguments: args }] } },
    undefined,
    { timeout: 60_000 },
  )) as CallToolResult;
}

/** The result's JSON as the agent received it (the SDK client adds no fields). */
function resultBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

function lastText(result: CallToolResult): string {
  return (result.content.at(-1) as { text: string }).text;
}

describe('issue #12: what one result may send the agent', () => {
  it('issue #12: a 5 MB text result is cut to the default cap with a note naming the full size and how to get the rest', async () => {
    const client = await start();
    const result = await call(client, 'big_result', { megabytes: 5 });
    expect(result.isError).not.toBe(true);
    expect(result.content).toHaveLength(2);
    const [text] = result.content as [{ type: 'text'; text: string }];
    expect(text.text.startsWith('éééé')).toBe(true);
    // Cut on a character boundary: no half of a two-byte é.
    expect(text.text).not.toContain('\uFFFD');
    expect(resultBytes(result)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES);
    expect(lastText(result)).toMatch(
      /this result was 5,242,9\d\d bytes \(5\.0 MiB\), over the 262,144 bytes \(256\.0 KiB\) limit .*maxResultBytes.*content\[0\] \(text\) cut to [\d,]+ bytes .* of 5,242,9\d\d bytes.*To get the rest, ask the tool for less/,
    );
  });

  it('issue #12: images, blobs and structuredContent that do not fit are left out whole and named; the limit is a setting', async () => {
    const client = await start({ maxResultBytes: 64 * 1024 });
    const result = await call(client, 'big_result', { megabytes: 1, mixed: true });
    const types = result.content.map((block) => block.type);
    expect(types).toEqual(['text', 'text']);
    expect(result.structuredContent).toBeUndefined();
    expect(resultBytes(result)).toBeLessThanOrEqual(64 * 1024);
    const note = lastText(result);
    expect(note).toContain('over the 65,536 bytes (64.0 KiB) limit');
    expect(note).toMatch(/content\[1\] \(image image\/png, 1,048,6\d\d bytes \(1\.0 MiB\)\) left out/);
    // The embedded resource is named as the agent can read it (issue #14: toolbridge://<server>/<uri>).
    expect(note).toMatch(
      /content\[2\] \(resource toolbridge:\/\/big\/fixture:\/\/big, 1,048,6\d\d bytes \(1\.0 MiB\)\) left out/,
    );
    expect(note).toContain('structuredContent (');

    // Raised in settings, the same answer passes whole.
    await host!.api.updateSettings({ maxResultBytes: 10 * MIB });
    const whole = await call(client, 'big_result', { megabytes: 1, mixed: true });
    expect(whole.content.map((block) => block.type)).toEqual(['text', 'image', 'resource']);
    expect(whole.structuredContent).toBeDefined();
  });

  it('issue #12: a result under the cap passes untouched', async () => {
    const client = await start();
    const result = await call(client, 'echo', { message: 'small' });
    expect(result.content).toEqual([{ type: 'text', text: 'small' }]);
  });

  it('issue #12: maxResultBytes is validated like the other settings', async () => {
    await start();
    for (const bad of [0, 100, 11 * MIB, 1.5, '262144']) {
      await expect(host!.api.updateSettings({ maxResultBytes: bad as number })).rejects.toThrow(
        /maxResultBytes/,
      );
    }
    expect((await host!.api.getSettings()).maxResultBytes).toBe(DEFAULT_MAX_RESULT_BYTES);
  });

  it('issue #12: an 11 MiB answer fails only that call, naming the size limit; the server stays connected and answers the next call', async () => {
    const client = await start();
    const pid = host!.servers.snapshotOf('big').pid;
    const result = await call(client, 'big_result', { megabytes: 11 });
    expect(result.isError).toBe(true);
    const payload = JSON.parse((result.content[0] as { text: string }).text);
    expect(payload.code).toBe('RESULT_TOO_LARGE');
    expect(payload.message).toMatch(
      /Tool "big_result" on server "big" answered with too much: .*11\.0 MiB .*over the 10\.0 MiB limit for one message from a stdio server; it was dropped and the server stays connected/,
    );
    const next = await call(client, 'echo', { message: 'still connected' });
    expect(next.content).toEqual([{ type: 'text', text: 'still connected' }]);
    expect(host!.servers.snapshotOf('big')).toMatchObject({ status: 'connected', pid });
  });

  it('issue #12: a too-long stdout line that answers nothing is skipped; the call it came with still gets its answer', async () => {
    const client = await start();
    const pid = host!.servers.snapshotOf('big').pid;
    const result = await call(client, 'huge_line', { megabytes: 11 });
    expect(result.content).toEqual([{ type: 'text', text: 'after huge line' }]);
    expect(host!.servers.snapshotOf('big')).toMatchObject({ status: 'connected', pid });
  });
});
