import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogChanges } from '../../../src/host/catalog-changes.js';

/** A catalog and agent surfaces reduced to what CatalogChanges reads: what agents list, as one string. */
function parts() {
  const state = { listed: 'a', invalidations: 0, entries: [] as unknown[] };
  const catalog = {
    invalidate: () => void state.invalidations++,
    get entries() {
      return state.entries as never;
    },
  };
  const surfaces = { toolsFingerprint: () => state.listed };
  const fired: Array<{ event: string; payload: unknown }> = [];
  const events = { fire: (event: string, payload: unknown) => void fired.push({ event, payload }) };
  return { state, catalog, surfaces, events, fired };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('CatalogChanges', () => {
  it('issue #13: a burst of changes drops the catalog each time and tells the UI once', async () => {
    const { state, catalog, surfaces, events, fired } = parts();
    const changes = new CatalogChanges(catalog, surfaces, events as never);
    changes.settle();
    let agentNotices = 0;
    changes.onDidChangeAgentTools(() => agentNotices++);
    state.entries = [1, 2];
    for (let i = 0; i < 5; i++) changes.changed();
    expect(state.invalidations).toBe(5);
    await vi.advanceTimersByTimeAsync(100);
    expect(fired).toEqual([{ event: 'catalogChanged', payload: { toolCount: 2 } }]);
    // What agents list did not change: no list_changed for them.
    expect(agentNotices).toBe(0);
    changes.dispose();
  });

  it('issue #13: agents hear of a change only when what they list changed, and not after dispose', async () => {
    const { state, catalog, surfaces, events } = parts();
    const changes = new CatalogChanges(catalog, surfaces, events as never);
    changes.settle();
    let agentNotices = 0;
    changes.onDidChangeAgentTools(() => agentNotices++);
    state.listed = 'b';
    changes.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(agentNotices).toBe(1);
    // A watched agent's new list is taken as known: settle() keeps it from being announced.
    state.listed = 'c';
    changes.settle();
    changes.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(agentNotices).toBe(1);
    changes.dispose();
    state.listed = 'd';
    changes.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(agentNotices).toBe(1);
  });
});
