import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCardView } from '../../../src/api/ui-api.js';
import { ConnectionHold, SKIPPED_HINT, TIMED_OUT_HINT } from '../../../src/connectors/connection-hold.js';
import { ConnectorExecutor } from '../../../src/connectors/connector-executor.js';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import { ConnectionManager } from '../../../src/connectors/manage-connections.js';
import { ConnectionCards } from '../../../src/host/connection-cards.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';

let gateway: FixtureGateway;
let cards: ConnectionCards;

beforeEach(async () => {
  gateway = await startFixtureGateway({ connected: ['notion'] });
  cards = new ConnectionCards();
});

afterEach(async () => {
  cards.dispose();
  await gateway.close();
});

function hold(options: { uiPresent?: boolean; cardTimeoutMs?: number } = {}) {
  const client = new GatewayClient({ baseUrl: gateway.url, token: gateway.token, retryDelayMs: 10 });
  const manager = new ConnectionManager({
    client,
    cards,
    cardsAvailable: () => options.uiPresent ?? true,
    pollIntervalMs: 20,
    cardTimeoutMs: options.cardTimeoutMs ?? 5000,
  });
  const executor = new ConnectorExecutor({ client, surface: () => (manager.canShowCards ? 'card' : 'link') });
  return new ConnectionHold(executor, manager);
}

/** Resolves with the next card the hold opens. */
function nextCard(): Promise<ConnectionCardView> {
  return new Promise((resolve) => {
    const subscription = cards.onDidOpen((card) => {
      subscription.dispose();
      resolve(card);
    });
  });
}

const entry = { name: 'connectors__github__ADD_ISSUE_COMMENT' };
const args = { title: 'Hello' };

describe('ConnectionHold', () => {
  it('holds an unlinked entry behind a card, then runs it once the account is linked', async () => {
    const opened = nextCard();
    const call = hold().execute(entry, args, { agentId: 'agent-1' });
    const card = await opened;
    expect(card.agentId).toBe('agent-1');
    const row = card.targets[0]!;
    expect(row).toMatchObject({ name: 'github', kind: 'connector', state: 'initiated' });
    expect(await allowInBrowser(row.connectUrl!)).toContain('Connected github');
    const outcome = await call;
    expect(outcome).toMatchObject({ response: { ran: 'GITHUB_ADD_ISSUE_COMMENT', arguments: args } });
    expect(gateway.executions.map((run) => run.slug)).toEqual(['GITHUB_ADD_ISSUE_COMMENT']);
    expect(cards.list()).toEqual([]);
  });

  it('Skip fails the entry marked skipped, and the same turn does not ask again', async () => {
    const turn = new AbortController();
    const opened = nextCard();
    const first = hold();
    const call = first.execute(entry, args, { agentId: 'agent-1', stop: turn });
    cards.skip((await opened).id, 'github');
    const outcome = await call;
    expect(outcome).toEqual({
      error: expect.objectContaining({
        code: 'CONNECTION_REQUIRED',
        connector: 'github',
        skipped_by_user: true,
        hint: SKIPPED_HINT,
      }),
    });
    expect(JSON.stringify(outcome)).not.toContain('connect_url');
    let reopened = false;
    cards.onDidOpen(() => {
      reopened = true;
    });
    const again = await first.execute(entry, args, { agentId: 'agent-1', stop: turn });
    expect(again).toMatchObject({ error: { code: 'CONNECTION_REQUIRED', skipped_by_user: true } });
    expect(reopened).toBe(false);
    expect(gateway.executions).toEqual([]);
  });

  it('issue #16: one Skip skips every entry waiting for that app; one Connect runs every one', async () => {
    const held = hold();
    const cardsOpened = (count: number) =>
      new Promise<ConnectionCardView[]>((resolve) => {
        const seen: ConnectionCardView[] = [];
        const subscription = cards.onDidOpen((card) => {
          seen.push(card);
          if (seen.length < count) return;
          subscription.dispose();
          resolve(seen);
        });
      });
    let opened = cardsOpened(2);
    const skipped = [
      held.execute(entry, args, { agentId: 'agent-1' }),
      held.execute(entry, { title: 'Other' }, { agentId: 'agent-2' }),
    ];
    const [first] = await opened;
    cards.skip(first!.id, 'github');
    for (const outcome of await Promise.all(skipped)) {
      expect(outcome).toMatchObject({ error: { code: 'CONNECTION_REQUIRED', skipped_by_user: true } });
    }
    expect(cards.list()).toEqual([]);

    opened = cardsOpened(2);
    const linked = [
      held.execute(entry, args, { agentId: 'agent-1' }),
      held.execute(entry, { title: 'Other' }, { agentId: 'agent-2' }),
    ];
    const [one] = await opened;
    await allowInBrowser(one!.targets[0]!.connectUrl!);
    for (const outcome of await Promise.all(linked)) {
      expect(outcome).toMatchObject({ response: { ran: 'GITHUB_ADD_ISSUE_COMMENT' } });
    }
    expect(gateway.executions).toHaveLength(2);
  });

  it('the card deadline fails the entry with a timeout note', async () => {
    const outcome = await hold({ cardTimeoutMs: 100 }).execute(entry, args, { agentId: 'agent-1' });
    expect(outcome).toMatchObject({
      error: { code: 'CONNECTION_REQUIRED', skipped_by_user: false, timed_out: true, hint: TIMED_OUT_HINT },
    });
    expect(cards.list()).toEqual([]);
  });

  it('without a UI the entry fails at once with the sign-in link and no card opens', async () => {
    let opened = false;
    cards.onDidOpen(() => {
      opened = true;
    });
    const outcome = await hold({ uiPresent: false }).execute(entry, args, { agentId: 'agent-1' });
    expect(outcome).toMatchObject({ error: { code: 'CONNECTION_REQUIRED', connector: 'github' } });
    const error = (outcome as { error: Record<string, unknown> }).error;
    expect(typeof error.connect_url).toBe('string');
    expect(error.connect_card_available).toBeUndefined();
    expect(opened).toBe(false);
  });

  it('a linked account runs at once without a card', async () => {
    const outcome = await hold().execute(
      { name: 'connectors__notion__GET_SELF' },
      {},
      { agentId: 'agent-1' },
    );
    expect('error' in outcome).toBe(false);
    expect(cards.list()).toEqual([]);
  });
});
