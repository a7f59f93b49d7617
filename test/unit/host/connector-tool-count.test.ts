// Tests for src/host/connector-tool-count.ts: the Tiers view's connector tool count.
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../src/connectors/gateway-client.js';
import type { GatewayConnectionRow } from '../../../src/connectors/gateway-wire.js';
import { ConnectorToolCount, countConnectorTools } from '../../../src/host/connector-tool-count.js';

const row = (connector: string, extra: Partial<GatewayConnectionRow> = {}): GatewayConnectionRow => ({
  connector,
  enabled: true,
  connected: false,
  accounts: [],
  disabledTools: [],
  ...extra,
});

describe('countConnectorTools', () => {
  it('sums the enabled apps and counts apart the ones that did not say', () => {
    expect(
      countConnectorTools([
        row('github', { toolCount: 20 }),
        row('notion', { toolCount: 15 }),
        row('slack', { toolCount: 40, enabled: false }),
        row('linear'),
      ]),
    ).toEqual({ count: 35, apps: 3, uncountedApps: 1 });
    expect(countConnectorTools([])).toEqual({ count: 0, apps: 0, uncountedApps: 0 });
  });
});

describe('ConnectorToolCount', () => {
  /** A client that answers `rows` (or fails) and counts how often it was asked. */
  function fakeClient(answer: () => Awaited<ReturnType<GatewayClient['listConnections']>>) {
    const client = {
      asked: 0,
      listConnections: async () => {
        client.asked += 1;
        return answer();
      },
    };
    return client;
  }

  it('asks once per moment, again after it or for a new gateway, and keeps no failure', async () => {
    let now = 0;
    let ok = true;
    const first = fakeClient(() =>
      ok
        ? { ok: true, value: [row('github', { toolCount: 7 })] }
        : { ok: false, failure: { kind: 'unreachable', message: 'The gateway is down.' } },
    );
    let client: unknown = first;
    const count = new ConnectorToolCount(() => client as GatewayClient, { clock: () => now, cacheMs: 1000 });
    expect(await count.current()).toEqual({ count: 7, apps: 1, uncountedApps: 0 });
    now = 999;
    await count.current();
    expect(first.asked).toBe(1);
    now = 1000;
    ok = false;
    expect(await count.current()).toEqual({
      count: 0,
      apps: 0,
      uncountedApps: 0,
      problem: 'The gateway is down.',
    });
    ok = true;
    expect((await count.current())?.count).toBe(7);
    expect(first.asked).toBe(3);
    count.forget();
    await count.current();
    expect(first.asked).toBe(4);
    const second = fakeClient(() => ({ ok: true, value: [] }));
    client = second;
    expect(await count.current()).toEqual({ count: 0, apps: 0, uncountedApps: 0 });
    client = undefined;
    expect(await count.current()).toBeUndefined();
  });
});
