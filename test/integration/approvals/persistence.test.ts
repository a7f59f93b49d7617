/**
 * What approvals keep on disk, through real hosts: "always allow" survives a restart and lapses
 * when the tool's definition changes (checklist A6); the audit log holds no secret that the
 * redaction patterns in the settings name.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/approvals/redaction.js';
import { scenarioServer, writeSettings } from '../../helpers/host-kit.js';
import {
  connectAgent,
  errorOf,
  makeDataDir,
  type RunningHost,
  referenceServers,
  removeDir,
  startHost,
  text,
  toolCall,
} from './kit.js';

const ECHO = 'mcp__fixture__echo';

let dataDir: string;
let running: RunningHost | undefined;

beforeEach(async () => {
  dataDir = await makeDataDir();
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await removeDir(dataDir);
});

/** The fixture server reads its tools at start, so a restart can change a definition. */
function writeScenario(description: string) {
  return scenarioServer(dataDir, 'fixture', [{ name: 'echo', description, behavior: 'echo' }]);
}

/** Calls echo and reports whether a card opened; an open card is answered with `answer` if given. */
async function echo(
  message: string,
  answer?: 'approve' | 'always',
): Promise<{ result: CallToolResult; cards: number }> {
  const host = running!.host;
  let cards = 0;
  const off = host.api.on('cardOpened', (card) => {
    cards++;
    if (answer !== undefined) void host.api.resolveCard(card.id, { action: answer });
  });
  try {
    const agent = await connectAgent(running!);
    return { result: await toolCall(agent, ECHO, { message }), cards };
  } finally {
    off();
  }
}

describe('"always allow"', () => {
  it('persists across a host restart and asks again once the tool definition changes', async () => {
    await writeSettings(dataDir, {
      servers: [await writeScenario('Echo the message back')],
      policies: { default: 'ask' },
      // Short, so an unexpected card fails the call fast instead of hanging the test.
      cardTimeoutMs: 1_000,
    });

    running = await startHost(dataDir);
    const first = await echo('first', 'always');
    expect(first.cards).toBe(1);
    expect(text(first.result)).toBe('first');
    const again = await echo('second, same run');
    expect(again).toMatchObject({ cards: 0, result: { content: [{ text: 'second, same run' }] } });
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.policies.rules).toEqual([
      expect.objectContaining({
        serverId: 'fixture',
        toolName: 'echo',
        policy: 'allow',
        definitionHash: expect.any(String),
      }),
    ]);
    await running.close();

    running = await startHost(dataDir);
    const restarted = await echo('after restart');
    expect(restarted.cards).toBe(0);
    expect(restarted.result.isError, text(restarted.result)).toBeFalsy();
    expect(text(restarted.result)).toBe('after restart');
    await running.close();

    await writeScenario('Echo the message back, and also mail it to someone');
    running = await startHost(dataDir);
    // Held until the person reviews the change (issue #12); accepting it does not carry the old "always".
    const [held] = await running.host.api.listTools('fixture');
    expect(held?.change?.current.description).toBe('Echo the message back, and also mail it to someone');
    await running.host.api.acceptToolChange(ECHO);
    const unanswered = await echo('accepted, still asks');
    expect(unanswered.cards).toBe(1);
    expect(errorOf(unanswered.result).code).toBe('APPROVAL_TIMEOUT');
    const answered = await echo('changed, approved', 'approve');
    expect(answered.cards).toBe(1);
    expect(text(answered.result)).toBe('changed, approved');
  });
});

describe('redaction before the audit log', () => {
  it('removes a token named by redactionPatterns from the audit file and from queries', async () => {
    await writeSettings(dataDir, {
      servers: await referenceServers(dataDir, 'everything'),
      policies: { default: 'allow' },
      redactionPatterns: ['tbsecret-[0-9a-f]{8}'],
    });
    running = await startHost(dataDir);
    const agent = await connectAgent(running);
    const secret = 'tbsecret-0badc0de';
    const result = await toolCall(agent, 'mcp__everything__echo', { message: `deploy with ${secret} now` });
    // The server gets the real arguments (the tool needs them); only the log is redacted.
    expect(text(result)).toBe(`Echo: deploy with ${secret} now`);

    const [entry] = (await running.host.api.queryActivity({ toolName: 'mcp__everything__echo' })).entries;
    expect(entry?.arguments).toEqual({ message: `deploy with ${REDACTED} now` });
    await running.close();
    running = undefined;
    // After close the log is flushed; no byte of the secret is in any audit file.
    for (const name of await fs.readdir(dataDir)) {
      if (!name.startsWith('audit')) continue;
      const bytes = await fs.readFile(path.join(dataDir, name));
      expect(bytes.includes(Buffer.from(secret)), name).toBe(false);
      expect(bytes.includes(Buffer.from('0badc0de')), name).toBe(false);
    }
    expect(
      (await fs.readFile(path.join(dataDir, 'audit.jsonl'), 'utf8')).split('\n').filter(Boolean),
    ).toHaveLength(1);
  });
});
