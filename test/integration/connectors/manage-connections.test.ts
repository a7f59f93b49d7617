import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCardRow } from '../../../src/api/ui-api.js';
import { Emitter } from '../../../src/base/emitter.js';
import type { DirectTool } from '../../../src/bridge/types.js';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import {
  CARD_RESULT_NOTE,
  type ConnectionCardPort,
  type ConnectionCardSession,
  createManageConnectionsTool,
  LINK_RESULT_NOTE,
  NOT_SET_UP_HINT,
  STATUS_HINT,
} from '../../../src/connectors/manage-connections.js';
import {
  allowInBrowser,
  type FixtureGateway,
  startFixtureGateway,
} from '../../fixtures/gateway/fixture-gateway.js';

let gateway: FixtureGateway;

/** A card surface driven by the test as a user would drive the real one. */
class FakeCards implements ConnectionCardPort {
  readonly opened: Array<{ agentId: string; targets: ConnectionCardRow[]; expiresAt: number }> = [];
  readonly updates: ConnectionCardRow[][] = [];
  readonly closed: string[] = [];
  readonly skips = new Emitter<string>();
  readonly stop = new AbortController();
  constructor(
    private readonly user: (targets: ConnectionCardRow[], cards: FakeCards) => Promise<void> = async () => {},
  ) {}

  open(request: { agentId: string; targets: ConnectionCardRow[]; expiresAt: number }): ConnectionCardSession {
    this.opened.push(request);
    // The user acts once the card is on screen, after open() has returned.
    queueMicrotask(() => void this.user(request.targets, this));
    return {
      update: (targets) => this.updates.push(targets),
      onDidSkip: this.skips.event,
      stopped: this.stop.signal,
      close: (summary) => this.closed.push(summary),
    };
  }
}

function tool(
  cards?: ConnectionCardPort,
  options: { baseUrl?: string | undefined; cardTimeoutMs?: number } = {},
) {
  const client = new GatewayClient({
    baseUrl: 'baseUrl' in options ? options.baseUrl : gateway.url,
    token: gateway.token,
    retryDelayMs: 10,
  });
  const direct: DirectTool = createManageConnectionsTool({
    client,
    pollIntervalMs: 20,
    cardTimeoutMs: options.cardTimeoutMs ?? 5000,
    ...(cards === undefined ? {} : { cards }),
  });
  return direct;
}

function payload(result: CallToolResult): Record<string, unknown> {
  const [first] = result.content as Array<{ type: string; text: string }>;
  return JSON.parse(first!.text) as Record<string, unknown>;
}

const context = { agentId: 'agent-1' };
const connectRequests = () =>
  gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/connectors/connections');

beforeEach(async () => {
  gateway = await startFixtureGateway({ connected: ['github'] });
});

afterEach(async () => {
  await gateway.close();
});

describe('manage_connections status', () => {
  it('lists every app with its state and the hint, optionally filtered', async () => {
    const all = payload(await tool().call({}, context));
    expect(all.hint).toBe(STATUS_HINT);
    expect(
      (all.connectors as Array<{ connector: string; connected: boolean }>).map((c) => [
        c.connector,
        c.connected,
      ]),
    ).toEqual([
      ['github', true],
      ['notion', false],
      ['slack', false],
    ]);
    expect((all.connectors as Array<{ accounts: unknown }>)[0]?.accounts).toEqual([
      { alias: 'github-account', default: true, connected: true, connectionStatus: 'active' },
    ]);
    const some = payload(await tool().call({ action: 'status', connectors: [' Slack '] }, context));
    expect(some.connectors).toEqual([
      { connector: 'slack', enabled: true, connected: false, accounts: [], disabledTools: [] },
    ]);
  });

  it('says plainly when the gateway fails or is not configured', async () => {
    gateway.setMode('500');
    const failed = await tool().call({ action: 'status' }, context);
    expect(failed.isError).toBe(true);
    expect(payload(failed).error).toMatch(/^The connector gateway request failed: /);
    gateway.setMode('404');
    const dark = await tool().call({ action: 'status' }, context);
    expect(payload(dark)).toMatchObject({ reason: 'dark', error: expect.stringContaining('not available') });
  });

  it('without a gateway, every hosted action says connector accounts are not set up and where to fix it', async () => {
    for (const args of [
      {},
      { action: 'connect', connectors: ['github'] },
      { action: 'reconnect', connectors: ['github'], force: true },
    ]) {
      const answer = await tool(undefined, { baseUrl: undefined }).call(args, context);
      expect(answer.isError).toBe(true);
      expect(payload(answer)).toEqual({
        status: 'not_set_up',
        reason: 'not_set_up',
        error: expect.stringContaining('not set up'),
        hint: NOT_SET_UP_HINT,
      });
    }
    expect(NOT_SET_UP_HINT).toContain('Settings → Connectors');
    expect(gateway.requests).toEqual([]);
  });

  it('with a gateway but no token, says who must sign in where', async () => {
    const client = new GatewayClient({ baseUrl: gateway.url, token: undefined });
    const answer = await createManageConnectionsTool({ client }).call({}, context);
    expect(payload(answer)).toMatchObject({ status: 'not_set_up', hint: expect.stringContaining('sign in') });
  });

  it('refuses an unknown action and a connect without apps', async () => {
    expect(payload(await tool().call({ action: 'disconnect' }, context)).error).toContain('unknown action');
    expect(payload(await tool().call({ action: 'connect' }, context)).error).toContain(
      'needs at least one app',
    );
    expect(gateway.requests).toEqual([]);
  });
});

describe('manage_connections target rules', () => {
  it('refuses what the alias rules forbid, before anything reaches the gateway', async () => {
    const error = async (args: Record<string, unknown>) => {
      const answer = await tool().call(args, context);
      expect(answer.isError).toBe(true);
      return String(payload(answer).error);
    };
    expect(await error({ action: 'rename', connectors: [{ name: 'github', alias: 'a' }] })).toContain(
      'exactly one target',
    );
    expect(
      await error({
        action: 'rename',
        connectors: [
          { name: 'github', alias: 'a', to: 'b' },
          { name: 'slack', alias: 'c', to: 'd' },
        ],
      }),
    ).toContain('exactly one target');
    expect(await error({ action: 'rename', connectors: ['github'] })).toContain('exactly one target');
    expect(
      await error({ action: 'connect', connectors: [{ name: 'github', alias: 'a', to: 'b' }] }),
    ).toContain('"to" is only for rename');
    expect(
      await error({ action: 'connect', connectors: [{ name: 'github', alias: 'work' }, 'slack'] }),
    ).toContain('one target only');
    expect(await error({ action: 'status', connectors: [{ name: 'github', alias: 'work' }] })).toContain(
      'leave alias out',
    );
    for (const bad of ['Work', '-work', 'a'.repeat(33), 'wo rk', 7]) {
      expect(await error({ action: 'connect', connectors: [{ name: 'github', alias: bad }] })).toContain(
        'is not valid',
      );
    }
    expect(
      await error({ action: 'rename', connectors: [{ name: 'github', alias: 'work', to: 'Acme' }] }),
    ).toContain('to "Acme" is not valid');
    expect(gateway.requests).toEqual([]);
  });
});

describe('manage_connections connect without a card surface', () => {
  it('answers at once with a link per app and a note, and the link works', async () => {
    const answer = payload(
      await tool().call({ action: 'connect', connectors: ['slack', 'github', 'nope'] }, context),
    );
    expect(answer.note).toBe(LINK_RESULT_NOTE);
    const results = answer.results as Array<Record<string, string>>;
    expect(results.map((r) => [r.connector, r.status])).toEqual([
      ['slack', 'initiated'],
      ['github', 'connected'],
      ['nope', 'failed'],
    ]);
    await allowInBrowser(results[0]!.connect_url!);
    const status = payload(await tool().call({ connectors: ['slack'] }, context));
    expect(status.connectors).toMatchObject([{ connector: 'slack', connected: true }]);
  });
});

describe('manage_connections connect with a card', () => {
  it('blocks until the user has allowed access, then answers without any link', async () => {
    const cards = new FakeCards(async (targets) => {
      for (const row of targets) if (row.connectUrl !== undefined) await allowInBrowser(row.connectUrl);
    });
    const result = await tool(cards).call({ action: 'connect', connectors: ['slack', 'notion'] }, context);
    const answer = payload(result);
    expect(answer).toEqual({
      results: [
        { connector: 'slack', status: 'connected' },
        { connector: 'notion', status: 'connected' },
      ],
      note: CARD_RESULT_NOTE,
    });
    expect(JSON.stringify(result)).not.toContain('http');
    expect(cards.opened[0]?.agentId).toBe('agent-1');
    expect(cards.opened[0]?.targets.map((t) => [t.name, t.state])).toEqual([
      ['slack', 'initiated'],
      ['notion', 'initiated'],
    ]);
    expect(cards.updates.at(-1)?.map((t) => t.state)).toEqual(['connected', 'connected']);
    expect(cards.closed).toEqual(['slack: connected\nnotion: connected']);
  });

  it('reports skipped and not connected targets when the user skips one and ignores the other', async () => {
    const cards = new FakeCards(async (_targets, self) => {
      self.skips.fire('notion');
    });
    const answer = payload(
      await tool(cards, { cardTimeoutMs: 300 }).call(
        { action: 'connect', connectors: ['notion', 'slack'] },
        context,
      ),
    );
    expect(answer.results).toEqual([
      { connector: 'notion', status: 'skipped' },
      { connector: 'slack', status: 'not_connected' },
    ]);
    expect(cards.closed).toEqual(['notion: skipped\nslack: not connected']);
  });

  it('issue #16: status reports a skipped app as skipped, not as waiting for the user', async () => {
    let round = 0;
    let duringSecondCard: Record<string, unknown> | undefined;
    const cards = new FakeCards(async (_targets, self) => {
      round += 1;
      if (round === 2) {
        // A new connect asks the person again: while its card is open the link is pending once more.
        duringSecondCard = payload(await direct.call({ action: 'status', connectors: ['notion'] }, context));
      }
      self.skips.fire('notion');
    });
    const direct = tool(cards, { cardTimeoutMs: 300 });
    await direct.call({ action: 'connect', connectors: ['notion', 'slack'] }, context);
    const rows = payload(await direct.call({ action: 'status', connectors: ['notion', 'slack'] }, context))
      .connectors as Array<Record<string, unknown>>;
    const byName = new Map(rows.map((row) => [row.connector, row]));
    expect(JSON.stringify(rows)).not.toContain('waiting for the user');
    expect(byName.get('notion')).toMatchObject({ connected: false, connectionStatus: 'skipped' });
    expect(String(byName.get('notion')?.statusReason)).toMatch(/chose not to connect/);
    expect(byName.get('notion')?.accounts).toEqual([
      expect.objectContaining({ connected: false, connectionStatus: 'skipped' }),
    ]);
    expect(byName.get('slack')).toMatchObject({ connected: false, connectionStatus: 'not_connected' });

    await direct.call({ action: 'connect', connectors: ['notion'] }, context);
    expect(duringSecondCard?.connectors).toEqual([
      expect.objectContaining({ connector: 'notion', connectionStatus: 'initiated' }),
    ]);
  });

  it('counts every open target as skipped when the user stops', async () => {
    const cards = new FakeCards(async (_targets, self) => {
      self.stop.abort();
    });
    const answer = payload(
      await tool(cards).call({ action: 'connect', connectors: ['notion', 'slack'] }, context),
    );
    expect(answer.results).toEqual([
      { connector: 'notion', status: 'skipped' },
      { connector: 'slack', status: 'skipped' },
    ]);
  });

  it('opens no card when everything named is already connected', async () => {
    const cards = new FakeCards();
    const answer = payload(await tool(cards).call({ action: 'connect', connectors: ['github'] }, context));
    expect(answer.results).toEqual([{ connector: 'github', status: 'connected' }]);
    expect(cards.opened).toEqual([]);
  });

  it('reconnects only what is not connected, unless forced', async () => {
    const cards = new FakeCards(async (targets) => {
      for (const row of targets) if (row.connectUrl !== undefined) await allowInBrowser(row.connectUrl);
    });
    await tool(cards).call({ action: 'reconnect', connectors: ['github', 'slack'] }, context);
    expect(connectRequests().map((r) => r.body)).toEqual([{ connectors: ['slack'], reinitiate: true }]);
    const forced = payload(
      await tool(cards).call({ action: 'reconnect', connectors: ['github'], force: true }, context),
    );
    expect(connectRequests()[1]?.body).toEqual({ connectors: ['github'], reinitiate: true });
    expect(forced.results).toEqual([{ connector: 'github', status: 'connected' }]);
  });
});
