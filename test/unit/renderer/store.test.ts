import { describe, expect, it, vi } from 'vitest';
import { bindHost, loadAll } from '../../../renderer/store/bind-host.js';
import { createAppStore } from '../../../renderer/store/index.js';
import {
  selectCardsNewestFirst,
  selectPendingCardCount,
  selectServerCounts,
  selectServerList,
  selectTierLabel,
  selectToolsOf,
} from '../../../renderer/store/selectors.js';
import type {
  ActivityEntry,
  ApprovalCardView,
  Policy,
  PolicyRuleView,
  ServerView,
  TierView,
  ToolView,
} from '../../../src/api/ui-api.js';
import { UI_EVENTS } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { createFakeApi } from '../web/fake-api.js';

const server = (id: string, patch: Partial<ServerView> = {}): ServerView => ({
  id,
  name: id,
  status: 'connected',
  enabled: true,
  trusted: false,
  config: { id, transport: 'stdio', command: 'node', enabled: true },
  toolCount: 1,
  stderrTail: [],
  ...patch,
});

const tool = (serverId: string, toolName: string, patch: Partial<ToolView> = {}): ToolView => ({
  name: `mcp__${serverId}__${toolName}`,
  serverId,
  toolName,
  description: '',
  enabled: true,
  pinned: false,
  deferred: true,
  policy: { effective: 'ask', source: 'default', reason: 'The default policy.' },
  ...patch,
});

const card = (id: string, createdAt: string): ApprovalCardView => ({
  kind: 'approval',
  id,
  agentId: 'a',
  serverId: 's',
  toolName: 'mcp__s__t',
  arguments: {},
  secrets: [],
  validation: { ok: true },
  createdAt,
  expiresAt: '2100-01-01T00:00:00.000Z',
});

const entry = (id: string, patch: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id,
  time: '2026-01-01T00:00:00.000Z',
  agentId: 'a',
  toolName: 'mcp__files__read',
  serverId: 'files',
  arguments: {},
  decision: 'allow',
  decidedBy: 'policy',
  durationMs: 1,
  resultBytes: 1,
  isError: false,
  ...patch,
});

const tier = (contextLengthTokens: number, patch: Partial<TierView> = {}): TierView => ({
  contextLengthTokens,
  tier: 1,
  form: 'full',
  budgetTokens: 4000,
  listingTokens: 100,
  deferredCount: 2,
  deferredTokens: 900,
  visibleTokens: 300,
  visibleToolNames: [],
  toolSearchDescription: 'search',
  ...patch,
});

function loadedFake() {
  return createFakeApi({
    listServers: async () => [server('zeta'), server('alpha', { status: 'error', lastError: 'boom' })],
    listTools: async () => [tool('alpha', 'one'), tool('zeta', 'two'), tool('alpha', 'three')],
    listCards: async () => [card('old', '2026-01-01T00:00:00.000Z'), card('new', '2026-01-02T00:00:00.000Z')],
    listCalls: async () => [],
    queryActivity: async () => ({ entries: [entry('e1')], nextCursor: 'c1' }),
    getSettings: async () => ({
      toolSearch: {
        enabled: 'auto',
        listing: 'auto',
        thresholdPct: 5,
        listingMaxTokens: 4000,
        maxSearchLimit: 25,
        searchDefaultLimit: 5,
      },
      defaultPolicy: 'ask',
      cardTimeoutMs: 1000,
      maxResultBytes: 262144,
      callTimeoutMs: 1000,
      maxCallTimeoutMs: 600000,
      preferElicitationCards: false,
      redactionPatterns: [],
      dataDir: '/tmp/x',
      secretStoreKind: 'file-0600',
      connectors: { enabled: true, signedIn: false },
    }),
    listAgents: async () => [],
    getTier: async (options) => tier(options.contextLengthTokens ?? 0),
    listPolicyRules: async () => [rule('r1')],
  });
}

const rule = (id: string, patch: Partial<PolicyRuleView> = {}): PolicyRuleView => ({
  id,
  toolKind: 'mcp',
  serverId: 'alpha',
  toolName: 'one',
  policy: 'allow',
  kind: 'always-allow',
  redactOutbound: false,
  description: 'Always allow.',
  ...patch,
});

describe('loadAll and selectors', () => {
  it('loads every view and derives sorted lists and counts', async () => {
    const fake = loadedFake();
    const store = createAppStore(fake.api);
    await loadAll(store);
    const state = store.getState();
    expect(selectServerList(state).map((s) => s.id)).toEqual(['alpha', 'zeta']);
    expect(selectServerCounts(state)).toEqual({ connected: 1, failing: 1, total: 2 });
    expect(state.tools.alpha?.map((t) => t.toolName)).toEqual(['one', 'three']);
    expect(selectCardsNewestFirst(state).map((c) => c.id)).toEqual(['new', 'old']);
    expect(selectPendingCardCount(state)).toBe(2);
    expect(state.activityCursor).toBe('c1');
    expect(state.settings?.secretStoreKind).toBe('file-0600');
    expect(selectTierLabel(state)).toBe('Tier 1 · search bridge with a listing');
    expect(state.policyRules.map((r) => r.id)).toEqual(['r1']);
    expect(state.notices).toEqual([]);
  });

  it('gives the same empty list for a server without tools, so a component does not re-render forever', () => {
    const state = createAppStore(createFakeApi().api).getState();
    expect(selectToolsOf('nope')(state)).toBe(selectToolsOf('nope')(state));
  });

  it('says once, as a notice, when something failed to load', async () => {
    const fake = createFakeApi({ listServers: async () => [] });
    const store = createAppStore(fake.api);
    await loadAll(store);
    expect(store.getState().notices).toHaveLength(1);
    expect(store.getState().notices[0]?.text).toContain('Could not load everything');
  });
});

describe('bindHost', () => {
  it('routes every host event into the store and unsubscribes from all of them', async () => {
    vi.useFakeTimers();
    try {
      const fake = loadedFake();
      const store = createAppStore(fake.api);
      const unbind = bindHost(fake.api, store);
      expect(fake.listenerCount()).toBe(UI_EVENTS.length);

      fake.emit('serverStatusChanged', server('beta', { status: 'starting' }));
      expect(store.getState().servers.beta?.status).toBe('starting');
      fake.emit('serverRemoved', { id: 'beta' });
      expect(store.getState().servers.beta).toBeUndefined();

      fake.emit('cardOpened', card('c1', '2026-01-03T00:00:00.000Z'));
      fake.emit('cardUpdated', { ...card('c1', '2026-01-03T00:00:00.000Z'), agentId: 'b' });
      const updated = store.getState().cards.c1;
      expect(updated?.kind === 'approval' && updated.agentId).toBe('b');
      fake.emit('cardResolved', { id: 'c1', outcome: 'approved' });
      expect(store.getState().cards.c1).toBeUndefined();

      fake.emit('activityAppended', entry('live'));
      expect(store.getState().activity[0]?.id).toBe('live');
      fake.emit('agentsChanged', { agents: [{ id: 'x', name: 'X', contextLengthTokens: 1, createdAt: '' }] });
      expect(store.getState().agents.map((a) => a.id)).toEqual(['x']);
      const settings = await fake.api.getSettings();
      fake.emit('settingsChanged', { ...settings, defaultPolicy: 'deny' });
      expect(store.getState().settings?.defaultPolicy).toBe('deny');
      // Saved rules and server policies are settings too: both are read again.
      await vi.waitFor(() => expect(store.getState().policyRules.map((r) => r.id)).toEqual(['r1']));
      expect(fake.calls.filter((c) => c.method === 'listServers')).toHaveLength(1);
      // So is the gateway's sign-in, which Tiers counts connector tools with: the tier is read again.
      expect(fake.calls.filter((c) => c.method === 'getTier')).toHaveLength(1);

      // A burst of catalog changes reloads tools and tier once.
      fake.emit('catalogChanged', { toolCount: 3 });
      fake.emit('catalogChanged', { toolCount: 3 });
      await vi.runAllTimersAsync();
      expect(fake.calls.filter((c) => c.method === 'listTools')).toHaveLength(1);
      expect(fake.calls.filter((c) => c.method === 'getTier')).toHaveLength(2);
      expect(fake.calls.filter((c) => c.method === 'listPolicyRules')).toHaveLength(2);

      unbind();
      expect(fake.listenerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('slices', () => {
  it('applies only the newest tier preview when answers arrive out of order', async () => {
    const answers: Array<(view: TierView) => void> = [];
    const fake = createFakeApi({ getTier: () => new Promise((resolve) => answers.push(resolve)) });
    const store = createAppStore(fake.api);
    const first = store.getState().setTierPreview({ contextLengthTokens: 8000 });
    const second = store.getState().setTierPreview({ contextLengthTokens: 16000 });
    answers[1]?.(tier(16000));
    answers[0]?.(tier(8000));
    await Promise.all([first, second]);
    expect(store.getState().tier?.contextLengthTokens).toBe(16000);
    expect(fake.calls.map((c) => c.params)).toEqual([
      [{ contextLengthTokens: 8000 }],
      [{ contextLengthTokens: 16000 }],
    ]);
  });

  it('keeps a card after a failed decision, drops it after success or when it is already gone', async () => {
    let failWith: ToolbridgeError | undefined;
    const fake = createFakeApi({
      resolveCard: async () => {
        if (failWith !== undefined) throw failWith;
      },
    });
    const store = createAppStore(fake.api);
    for (const id of ['a', 'b', 'c']) store.getState().cardChanged(card(id, '2026-01-01T00:00:00.000Z'));

    failWith = new ToolbridgeError('INTERNAL', 'nope');
    expect(await store.getState().resolveCard('a', { action: 'approve' })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'nope' },
    });
    expect(store.getState().cards.a).toBeDefined();

    failWith = new ToolbridgeError('NOT_FOUND', 'Card b is gone.');
    await store.getState().resolveCard('b', { action: 'deny', message: 'no' });
    expect(store.getState().cards.b).toBeUndefined();

    failWith = undefined;
    expect(await store.getState().resolveCard('c', { action: 'approve' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(Object.keys(store.getState().cards)).toEqual(['a']);
  });

  it('adds live activity only when it matches the filter, and pages with the cursor', async () => {
    const fake = createFakeApi({
      queryActivity: async (query) =>
        query.cursor === undefined
          ? { entries: [entry('e2', { decision: 'deny' })], nextCursor: 'next' }
          : { entries: [entry('e1', { decision: 'deny' })] },
    });
    const store = createAppStore(fake.api);
    await store.getState().loadActivity({ decision: 'deny' });
    store.getState().activityAppended(entry('allowed'));
    store.getState().activityAppended(entry('denied', { decision: 'deny' }));
    await store.getState().loadMoreActivity();
    expect(store.getState().activity.map((e) => e.id)).toEqual(['denied', 'e2', 'e1']);
    expect(store.getState().activityCursor).toBeUndefined();
    expect(fake.calls.map((c) => c.params[0])).toEqual([
      { decision: 'deny', limit: 100 },
      { decision: 'deny', cursor: 'next', limit: 100 },
    ]);
  });

  it('forgets a removed server together with its tools', async () => {
    const fake = loadedFake();
    const store = createAppStore({ ...fake.api, removeServer: async () => {} });
    await loadAll(store);
    expect(await store.getState().removeServer('alpha')).toEqual({ ok: true, value: undefined });
    expect(store.getState().servers.alpha).toBeUndefined();
    expect(store.getState().tools.alpha).toBeUndefined();
    expect(store.getState().tools.zeta).toHaveLength(1);
  });

  it('a server policy change updates the server and reloads its tools’ effective policies', async () => {
    let effective: Policy = 'ask';
    const fake = createFakeApi({
      listTools: async () => [
        tool('alpha', 'one', {
          policy: { effective, source: 'server', reason: 'Set for its server "alpha".' },
        }),
      ],
      setServerPolicy: async (id, policy) => {
        effective = policy ?? 'ask';
        return server(id, policy === null ? {} : { policy });
      },
    });
    const store = createAppStore(fake.api);
    expect(await store.getState().setServerPolicy('alpha', 'deny')).toMatchObject({ ok: true });
    expect(store.getState().servers.alpha?.policy).toBe('deny');
    expect(store.getState().tools.alpha?.[0]?.policy.effective).toBe('deny');
    await store.getState().setServerPolicy('alpha', null);
    expect(store.getState().servers.alpha?.policy).toBeUndefined();
    expect(store.getState().tools.alpha?.[0]?.policy.effective).toBe('ask');
  });

  it('a tool policy change replaces that tool; a failure leaves it and reports the host’s message', async () => {
    const fake = createFakeApi({
      listTools: async () => [tool('alpha', 'one'), tool('alpha', 'two')],
      setToolPolicy: async (name, policy) => {
        if (name.endsWith('two')) throw new ToolbridgeError('NOT_FOUND', `No tool "${name}".`);
        return tool('alpha', 'one', {
          policy: {
            setting: policy ?? undefined,
            effective: policy ?? 'ask',
            source: 'tool',
            reason: 'Set for this tool.',
          },
        });
      },
    });
    const store = createAppStore(fake.api);
    await store.getState().loadTools();
    await store.getState().setToolPolicy('mcp__alpha__one', 'deny');
    expect(await store.getState().setToolPolicy('mcp__alpha__two', 'deny')).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No tool "mcp__alpha__two".' },
    });
    expect(store.getState().tools.alpha?.map((t) => t.policy.effective)).toEqual(['deny', 'ask']);
    expect(fake.calls.map((c) => [c.method, ...c.params])).toContainEqual([
      'setToolPolicy',
      'mcp__alpha__one',
      'deny',
    ]);
  });

  it('keeps the newest list of rules when a reload and a removal answer out of order', async () => {
    const answers: Array<(rules: PolicyRuleView[]) => void> = [];
    const fake = createFakeApi({
      listPolicyRules: () => new Promise((resolve) => answers.push(resolve)),
      removePolicyRule: () => new Promise((resolve) => answers.push(resolve)),
    });
    const store = createAppStore(fake.api);
    const load = store.getState().loadPolicyRules();
    const remove = store.getState().removePolicyRule('r1');
    answers[1]?.([rule('r2')]);
    answers[0]?.([rule('r1'), rule('r2')]);
    await Promise.all([load, remove]);
    expect(store.getState().policyRules.map((r) => r.id)).toEqual(['r2']);
    expect(fake.calls.map((c) => [c.method, ...c.params])).toEqual([
      ['listPolicyRules'],
      ['removePolicyRule', 'r1'],
    ]);
  });

  it('updates one tool in place after pinning it', async () => {
    const fake = createFakeApi({
      listTools: async () => [tool('alpha', 'one'), tool('alpha', 'two')],
      setToolPinned: async (name, pinned) =>
        tool('alpha', name.split('__')[2] ?? '', { pinned, deferred: !pinned }),
    });
    const store = createAppStore(fake.api);
    await store.getState().loadTools();
    await store.getState().setToolPinned('mcp__alpha__two', true);
    expect(store.getState().tools.alpha?.map((t) => [t.toolName, t.pinned])).toEqual([
      ['one', false],
      ['two', true],
    ]);
  });
});
