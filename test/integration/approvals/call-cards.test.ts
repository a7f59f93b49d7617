/**
 * One card per tool_call (issue #16), end to end on a real host: the fixture gateway, an SDK agent
 * sending a batch of connector entries under `ask`, the person answering through the host API as
 * the UI does. The host's call record shows every entry in input order with its state, the
 * cards attach to their entries, and a connection an entry waits on is part of the same call.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallView } from '../../../src/api/ui-api.js';
import { type FixtureGateway, startFixtureGateway } from '../../fixtures/gateway/fixture-gateway.js';
import { approvalCards, connectAgent, type RunningHost, startGatewayHost, text } from './kit.js';

let gateway: FixtureGateway;
let running: RunningHost | undefined;

beforeEach(async () => {
  gateway = await startFixtureGateway({ connected: ['github'] });
  running = await startGatewayHost(gateway);
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await gateway.close();
});

const issue = (title: string) => ({
  name: 'connectors__github__CREATE_ISSUE',
  arguments: { owner: 'o', repo: 'r', title },
});

/** Waits for the next callUpdated that satisfies `test`. */
function callWhere(test: (call: CallView) => boolean): Promise<CallView> {
  return new Promise((resolve) => {
    const off = running!.host.api.on('callUpdated', (call) => {
      if (!test(call)) return;
      off();
      resolve(call);
    });
  });
}

const states = (call: CallView) => call.entries.map((entry) => entry.state);

describe('issue #16: one card per tool_call', () => {
  it('shows every entry in input order with its state; approve the rest runs the others', async () => {
    const host = running!.host;
    const agent = await connectAgent(running!);
    const first = approvalCards(host);
    const batch = agent.callTool(
      { name: 'tool_call', arguments: { calls: [issue('one'), issue('two'), issue('three')] } },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;
    const [card1] = await first;
    expect(card1?.call).toEqual({ id: expect.any(String), index: 0 });
    const [listed] = await host.api.listCalls();
    expect(listed).toMatchObject({ id: card1!.call!.id, agentId: 'default' });
    expect(states(listed!)).toEqual(['waiting', 'queued', 'queued']);
    expect(listed!.entries.map((entry) => entry.arguments.title)).toEqual(['one', 'two', 'three']);
    expect(listed!.entries[0]?.cardId).toBe(card1!.id);

    // Deny the first one on its own; "approve the rest" decides the second and the third as they open.
    const second = approvalCards(host);
    await host.api.resolveCard(card1!.id, { action: 'deny' });
    const [card2] = await second;
    expect(card2?.call).toEqual({ id: card1!.call!.id, index: 1 });
    const finished = callWhere((call) => call.finishedAt !== undefined);
    await host.api.decideRest(card1!.call!.id, 'approve');
    const result = JSON.parse(text(await batch)) as { results: Array<{ index: number; error?: unknown }> };
    expect(result.results.map((slot) => [slot.index, slot.error === undefined])).toEqual([
      [0, false],
      [1, true],
      [2, true],
    ]);
    const done = await finished;
    expect(done.rest).toBe('approve');
    expect(states(done)).toEqual(['denied', 'done', 'done']);
    expect(done.entries.map((entry) => entry.decision)).toEqual(['denied', 'approved', 'approved']);
    expect(done.entries[1]?.summary).toMatch(/GITHUB_CREATE_ISSUE|two/);
    expect(done.entries[1]?.durationMs).toEqual(expect.any(Number));
    expect(gateway.executions.map((run) => (run.arguments as { title: string }).title)).toEqual([
      'two',
      'three',
    ]);
    // It stays in the recent history.
    expect((await host.api.listCalls()).map((call) => call.id)).toEqual([done.id]);
  });

  it('an entry of an unlinked app waits on a connection inside the same call; Skip ends it skipped', async () => {
    const host = running!.host;
    host.api.attachUi();
    const agent = await connectAgent(running!);
    const first = approvalCards(host);
    const batch = agent.callTool(
      {
        name: 'tool_call',
        arguments: {
          calls: [
            issue('linked'),
            { name: 'connectors__slack__CHAT_POST_MESSAGE', arguments: { channel: 'c', text: 'hi' } },
          ],
        },
      },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;
    const [card1] = await first;
    await host.api.decideRest(card1!.call!.id, 'approve');
    const waiting = await callWhere((call) => call.entries[1]?.state === 'account');
    const connectionCardId = waiting.entries[1]?.connectionCardId;
    const [connection] = (await host.api.listCards()).filter((card) => card.id === connectionCardId);
    expect(connection).toMatchObject({
      kind: 'connection',
      call: { id: waiting.id, index: 1 },
      forTool: 'connectors__slack__CHAT_POST_MESSAGE',
      targets: [{ name: 'slack', state: 'initiated', app: { title: 'Slack' } }],
    });
    // The entries name their apps; GitHub with its simple-icons logo.
    expect(waiting.entries[0]?.app).toEqual({
      title: 'GitHub',
      logo: { path: expect.stringMatching(/^M/), hex: '181717' },
    });
    const finished = callWhere((call) => call.finishedAt !== undefined);
    await host.api.resolveConnectionTarget(connectionCardId!, 'slack', 'skip');
    expect(text(await batch)).toContain('"skipped_by_user":true');
    expect(states(await finished)).toEqual(['done', 'skipped']);
  });

  it('Stop agent stops every open call of that agent and says how many', async () => {
    const host = running!.host;
    const agent = await connectAgent(running!);
    const opened = approvalCards(host, 2);
    const calls = [issue('a'), issue('b')].map(
      (entry) =>
        agent.callTool({ name: 'tool_call', arguments: { calls: [entry, issue('later')] } }, undefined, {
          timeout: 120_000,
        }) as Promise<CallToolResult>,
    );
    await opened;
    expect(await host.api.stopAgent('default')).toEqual({ calls: 2 });
    for (const result of await Promise.all(calls)) {
      expect(text(result)).toContain('INTERRUPTED');
    }
    expect(gateway.executions).toEqual([]);
    expect(await host.api.listCards()).toEqual([]);
    expect((await host.api.listCalls()).map(states)).toEqual([
      ['interrupted', 'interrupted'],
      ['interrupted', 'interrupted'],
    ]);
  });
});
