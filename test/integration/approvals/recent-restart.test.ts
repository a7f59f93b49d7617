/**
 * Issue #16's leftover: Cards → Recent survives a host restart. A real host over a temp data
 * folder (the everything server and the fixture gateway, under ask), an SDK agent making calls the
 * person answers through the host API; the host stops, a new one starts on the same folder, and
 * Recent is read back through listCalls, the method the renderer uses.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalCardView, CallView } from '../../../src/api/ui-api.js';
import { AUDIT_FILE_NAME } from '../../../src/approvals/audit-log.js';
import { type FixtureGateway, startFixtureGateway } from '../../fixtures/gateway/fixture-gateway.js';
import { linkGateway, writeSettings } from '../../helpers/host-kit.js';
import {
  connectAgent,
  makeDataDir,
  type RunningHost,
  referenceServers,
  removeDir,
  startHost,
  text,
  toolCall,
} from './kit.js';

const ECHO = 'mcp__everything__echo';
const SUM = 'mcp__everything__get-sum';
const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

let gateway: FixtureGateway;
let dataDir: string;
let running: RunningHost | undefined;

beforeEach(async () => {
  gateway = await startFixtureGateway({ connected: ['github'] });
  dataDir = await makeDataDir();
  await writeSettings(dataDir, {
    servers: await referenceServers(dataDir, 'everything'),
    // get-sum runs by policy: no card, so it never belongs in Recent.
    policies: { default: 'ask', tools: { [SUM]: 'allow' } },
    connectors: await linkGateway(dataDir, gateway),
    cardTimeoutMs: 600_000,
  });
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await gateway.close();
  await removeDir(dataDir);
});

/** Waits for the next callUpdated that has finished. */
function finishedCall(host: RunningHost['host']): Promise<CallView> {
  return new Promise((resolve) => {
    const off = host.api.on('callUpdated', (call) => {
      if (call.finishedAt === undefined) return;
      off();
      resolve(call);
    });
  });
}

/** The approval cards as they open, one at a time: listens from the start, so none is missed. */
function cardQueue(host: RunningHost['host']): () => Promise<ApprovalCardView> {
  const opened: ApprovalCardView[] = [];
  const waiting: Array<(card: ApprovalCardView) => void> = [];
  host.api.on('cardOpened', (card) => {
    if (card.kind !== 'approval') return;
    const next = waiting.shift();
    if (next === undefined) opened.push(card);
    else next(card);
  });
  return () => {
    const card = opened.shift();
    return card === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(card);
  };
}

/** What the person sees of a call in Recent that the audit log can tell again. */
function seen(call: CallView) {
  return {
    id: call.id,
    agentId: call.agentId,
    entries: call.entries.map(({ index, name, serverId, state, decision }) => ({
      index,
      name,
      serverId,
      state,
      decision,
    })),
  };
}

describe('issue #16: Recent after a host restart', () => {
  it('issue #16: the calls shown before a restart are shown again, with their outcomes as logged and no result', async () => {
    running = await startHost(dataDir);
    let host = running.host;
    host.api.attachUi();
    const agent = await connectAgent(running);
    const nextCard = cardQueue(host);

    // 1: approved; it ran and returned a result the log never keeps.
    let ended = finishedCall(host);
    const approved = toolCall(agent, ECHO, { message: 'approved before the restart' });
    await host.api.resolveCard((await nextCard()).id, { action: 'approve' });
    expect(text(await approved)).toBe('Echo: approved before the restart');
    await ended;

    // 2: denied with a message, its argument holding a secret.
    ended = finishedCall(host);
    const denied = toolCall(agent, ECHO, { message: `token ${SECRET}` });
    await host.api.resolveCard((await nextCard()).id, { action: 'deny', message: 'not today' });
    expect((await denied).isError).toBe(true);
    await ended;

    // 3: a batch of connector entries: GitHub approved, GitHub denied, Slack (not linked) approved, then skipped.
    ended = finishedCall(host);
    const batch = agent.callTool(
      {
        name: 'tool_call',
        arguments: {
          calls: [
            { name: 'connectors__github__CREATE_ISSUE', arguments: { owner: 'o', repo: 'r', title: 'runs' } },
            {
              name: 'connectors__github__CREATE_ISSUE',
              arguments: { owner: 'o', repo: 'r', title: 'denied' },
            },
            { name: 'connectors__slack__CHAT_POST_MESSAGE', arguments: { channel: 'c', text: 'hi' } },
          ],
        },
      },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;
    const waiting = new Promise<CallView>((resolve) => {
      const off = host.api.on('callUpdated', (call) => {
        if (call.entries[2]?.state !== 'account') return;
        off();
        resolve(call);
      });
    });
    await host.api.resolveCard((await nextCard()).id, { action: 'approve' });
    await host.api.resolveCard((await nextCard()).id, { action: 'deny' });
    await host.api.resolveCard((await nextCard()).id, { action: 'approve' });
    await host.api.resolveConnectionTarget((await waiting).entries[2]!.connectionCardId!, 'slack', 'skip');
    expect(text(await batch)).toContain('"skipped_by_user":true');
    await ended;

    // 4: run by policy, never shown: not in Recent before or after.
    expect(text(await toolCall(agent, SUM, { a: 2, b: 3 }))).toContain('5');

    const before = await host.api.listCalls();
    expect(before.map((call) => call.entries.map((entry) => entry.state))).toEqual([
      ['done', 'denied', 'skipped'],
      ['denied'],
      ['done'],
    ]);

    await running.close();
    // Nothing new that could hold a secret went to the log: no result, no raw argument.
    const log = await readFile(path.join(dataDir, AUDIT_FILE_NAME), 'utf8');
    expect(log).not.toContain('Echo:');
    expect(log).not.toContain(SECRET);
    running = await startHost(dataDir);
    host = running.host;
    const after = await host.api.listCalls();

    // The same calls, newest first, each entry in input order with the state and decision it had.
    expect(after.map(seen)).toEqual(before.map(seen));
    for (const [index, call] of after.entries()) {
      expect(call.finishedAt).toBeDefined();
      expect(call.createdAt <= call.finishedAt!).toBe(true);
      expect(call.agentId).toBe(before[index]!.agentId);
    }
    const [batchAfter, deniedAfter, approvedAfter] = after;
    expect(approvedAfter!.entries[0]).toMatchObject({
      arguments: { message: 'approved before the restart' },
      durationMs: expect.any(Number),
    });
    // A successful result is never logged, so it is not there to show.
    expect(approvedAfter!.entries[0]!.summary).toBeUndefined();
    expect(deniedAfter!.entries[0]!.summary).toContain('not today');
    expect(batchAfter!.entries[2]!.summary).toContain('slack');
    expect(batchAfter!.entries[1]!.app).toMatchObject({ title: 'GitHub' });
    const restored = JSON.stringify(after);
    expect(restored).not.toContain('Echo:');
    expect(restored).not.toContain(SECRET);

    // A new call goes on top of the restored ones.
    const agentAfter = await connectAgent(running);
    const nextCardAfter = cardQueue(host);
    ended = finishedCall(host);
    const fresh = toolCall(agentAfter, ECHO, { message: 'after the restart' });
    await host.api.resolveCard((await nextCardAfter()).id, { action: 'approve' });
    await fresh;
    await ended;
    expect((await host.api.listCalls()).map((call) => call.id)).toEqual([
      expect.any(String),
      ...after.map((call) => call.id),
    ]);
  });
});
