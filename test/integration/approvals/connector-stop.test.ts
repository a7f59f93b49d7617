/**
 * Stop in the middle of a connector batch, end to end: the real fixture gateway (loopback HTTP)
 * is configured in the settings (connectors.gatewayUrl) with its token in the host's own secret
 * store, so the host builds its real gateway client; an SDK agent sends one tool_call with four
 * connector entries under `ask`; the person approves the first card and presses Stop on the second.
 * Every entry gets its own audit line, the two the Stop ended before they reached the gate too.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureGateway, startFixtureGateway } from '../../fixtures/gateway/fixture-gateway.js';
import { approvalCards, connectAgent, type RunningHost, startGatewayHost, text } from './kit.js';

let gateway: FixtureGateway;
let running: RunningHost | undefined;

beforeEach(async () => {
  gateway = await startFixtureGateway({ connected: ['github'] });
});

afterEach(async () => {
  await running?.close();
  await gateway.close();
});

describe('Stop during a connector batch', () => {
  it('reports the entries not yet started INTERRUPTED and the gateway never runs them', async () => {
    running = await startGatewayHost(gateway);
    const agent = await connectAgent(running);

    const titles = ['first', 'second', 'third', 'fourth'];
    const firstCard = approvalCards(running.host);
    const batch = agent.callTool(
      {
        name: 'tool_call',
        arguments: {
          calls: titles.map((title) => ({
            name: 'connectors__github__CREATE_ISSUE',
            arguments: { owner: 'o', repo: 'r', title },
          })),
        },
      },
      undefined,
      { timeout: 120_000 },
    ) as Promise<CallToolResult>;

    const [card1] = await firstCard;
    expect(card1).toMatchObject({
      toolName: 'connectors__github__CREATE_ISSUE',
      serverId: 'github',
      arguments: { title: 'first' },
    });
    // Entries run one at a time: nothing reached the gateway before the approval.
    expect(gateway.executions).toEqual([]);
    const secondCard = approvalCards(running.host);
    await running.host.api.resolveCard(card1!.id, { action: 'approve' });
    const [card2] = await secondCard;
    expect(card2?.arguments).toMatchObject({ title: 'second' });
    expect(gateway.executions.map((run) => (run.arguments as { title: string }).title)).toEqual(['first']);

    let later = 0;
    const off = running.host.api.on('cardOpened', () => later++);
    await running.host.api.resolveCard(card2!.id, { action: 'stop' });
    const result = await batch;
    off();

    const payload = JSON.parse(text(result)) as {
      results: Array<{
        index: number;
        name: string;
        response?: unknown;
        error?: { code: string; message: string };
      }>;
    };
    expect(payload.results.map((slot) => slot.index)).toEqual([0, 1, 2, 3]);
    expect(payload.results[0]?.error).toBeUndefined();
    expect(payload.results[0]?.response).toBeDefined();
    for (const slot of payload.results.slice(1)) {
      expect(slot.error, JSON.stringify(slot)).toEqual({
        code: 'INTERRUPTED',
        message: 'Stopped by the user before this call was made.',
      });
    }
    // No card for the entries after Stop, and the gateway ran only the approved one.
    expect(later).toBe(0);
    expect(gateway.executions.map((run) => (run.arguments as { title: string }).title)).toEqual(['first']);
    expect(
      gateway.requests.filter((request) => request.path.endsWith('execute')).map((request) => request.body),
    ).toHaveLength(1);
    expect(await running.host.api.listCards()).toEqual([]);
    // The audit log has one line per entry, newest first: the run, the stopped one, and each
    // entry the Stop ended before it reached the gate.
    const activity = (await running.host.api.queryActivity({ toolName: 'connectors__github__CREATE_ISSUE' }))
      .entries;
    expect(
      activity.map((entry) => [entry.decision, entry.decidedBy, entry.serverId, entry.arguments]),
    ).toEqual(
      [
        ['interrupted', 'fourth'],
        ['interrupted', 'third'],
        ['interrupted', 'second'],
        ['allow', 'first'],
      ].map(([decision, title]) => [decision, 'user', 'github', { owner: 'o', repo: 'r', title }]),
    );
    for (const entry of activity.slice(0, 3)) {
      expect(entry).toMatchObject({
        isError: true,
        message: 'Stopped by the user before this call was made.',
      });
    }
  });
});
