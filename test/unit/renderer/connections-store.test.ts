import { describe, expect, it } from 'vitest';
import { bindHost } from '../../../renderer/store/bind-host.js';
import { createAppStore } from '../../../renderer/store/index.js';
import type { ConnectionsView, ConnectorToolView } from '../../../src/api/ui-api.js';
import { createFakeApi } from '../web/fake-api.js';

const ready = (aliases: string[]): ConnectionsView => ({
  state: 'ready',
  apps: [
    {
      connector: 'github',
      app: { title: 'GitHub' },
      enabled: true,
      connected: true,
      accounts: aliases.map((alias, index) => ({ alias, default: index === 0, connected: true })),
      disabledTools: [],
    },
  ],
});

const tool = (patch: Partial<ConnectorToolView> = {}): ConnectorToolView => ({
  name: 'connectors__github__CREATE_ISSUE',
  connector: 'github',
  toolName: 'CREATE_ISSUE',
  description: 'Create an issue.',
  policy: { effective: 'ask', source: 'default', reason: 'The default policy.' },
  blocked: false,
  ...patch,
});

describe('the connections slice', () => {
  it('lists again on connectionsChanged only once the view has asked', async () => {
    let aliases = ['home'];
    const fake = createFakeApi({ listConnections: async () => ready(aliases) });
    const store = createAppStore(fake.api);
    const unbind = bindHost(fake.api, store);
    fake.emit('connectionsChanged', { connector: 'github' });
    expect(fake.calls.filter((call) => call.method === 'listConnections')).toHaveLength(0);
    await store.getState().loadConnections();
    aliases = ['home', 'work'];
    fake.emit('connectionsChanged', { connector: 'github' });
    await expect
      .poll(() => store.getState().appConnections?.apps[0]?.accounts.map((account) => account.alias))
      .toEqual(['home', 'work']);
    unbind();
  });

  it('keeps the newest answer when two lists race', async () => {
    const answers: Array<(view: ConnectionsView) => void> = [];
    const fake = createFakeApi({
      listConnections: () => new Promise<ConnectionsView>((resolve) => answers.push(resolve)),
    });
    const store = createAppStore(fake.api);
    const first = store.getState().loadConnections();
    const second = store.getState().loadConnections();
    answers[1]!(ready(['new']));
    await second;
    answers[0]!(ready(['old']));
    await first;
    expect(store.getState().appConnections?.apps[0]?.accounts[0]?.alias).toBe('new');
  });

  it('replaces one tool after its policy is set, and keeps a refusal for the view', async () => {
    const fake = createFakeApi({
      listConnectorTools: async () => ({ connector: 'github', listed: true, tools: [tool()] }),
      setConnectorToolPolicy: async (_name, policy) =>
        tool({
          policy: {
            setting: policy ?? undefined,
            effective: 'deny',
            source: 'tool',
            reason: 'Set for this tool.',
          },
        }),
    });
    const store = createAppStore(fake.api);
    await store.getState().loadConnectorTools('github');
    const outcome = await store.getState().setConnectorToolPolicy('connectors__github__CREATE_ISSUE', 'deny');
    expect(outcome.ok).toBe(true);
    expect(store.getState().connectorTools.github?.tools[0]?.policy.effective).toBe('deny');
    const refused = await store.getState().renameConnectorAccount('github', 'home', 'x');
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
