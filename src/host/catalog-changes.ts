import type { AgentRegistry } from '../agents/agent-registry.js';
import type { DefinitionReviews } from '../approvals/definition-reviews.js';
import { Emitter, type Event } from '../base/emitter.js';
import type { Disposable } from '../base/lifecycle.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { AgentSurfaces } from './agent-surfaces.js';
import type { HostCatalog } from './host-catalog.js';
import type { HostSettings } from './host-settings.js';
import type { UiEventHub } from './ui-event-hub.js';

const CHANGE_DEBOUNCE_MS = 25;

/**
 * Every change that may alter what agents list, coalesced: the catalog is dropped at once, and
 * after a short quiet spell the UI hears `catalogChanged` and, only when some agent's list really
 * changed, `onDidChangeAgentTools` fires (both agent endpoints listen to it).
 */
export class CatalogChanges implements Disposable {
  private readonly _onDidChangeAgentTools = new Emitter<void>();
  readonly onDidChangeAgentTools: Event<void> = this._onDidChangeAgentTools.event;
  private fingerprint = '';
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly catalog: Pick<HostCatalog, 'invalidate' | 'entries'>,
    private readonly surfaces: Pick<AgentSurfaces, 'toolsFingerprint'>,
    private readonly events: Pick<UiEventHub, 'fire'>,
  ) {}

  /** Called on every change that may alter what agents list; coalesces bursts. */
  changed(): void {
    this.catalog.invalidate();
    if (this.timer !== undefined || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.events.fire('catalogChanged', { toolCount: this.catalog.entries.length });
      const next = this.surfaces.toolsFingerprint();
      if (next === this.fingerprint) return;
      this.fingerprint = next;
      this._onDidChangeAgentTools.fire();
    }, CHANGE_DEBOUNCE_MS);
    this.timer.unref();
  }

  /** Takes what agents list now as known (at start, after a new agent is watched): not announced. */
  settle(): void {
    this.fingerprint = this.surfaces.toolsFingerprint();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this._onDidChangeAgentTools.dispose();
  }
}

/**
 * What the catalog is built from, watched: servers' tools and status, the settings, the agents.
 * A tool seen for the first time is taken as reviewed (trust on first use); a changed one is held.
 */
export function watchCatalogInputs(
  inputs: {
    servers: Pick<ServerManager, 'onDidChangeTools' | 'onDidChangeStatus'>;
    settings: Pick<HostSettings, 'onDidChange'>;
    agents: Pick<AgentRegistry, 'onDidChangeAgents'>;
    reviews: Pick<DefinitionReviews, 'observe'>;
  },
  changes: Pick<CatalogChanges, 'changed'>,
): Disposable[] {
  const changed = () => changes.changed();
  return [
    inputs.servers.onDidChangeTools(({ id, tools }) => {
      inputs.reviews.observe(id, tools);
      changed();
    }),
    inputs.servers.onDidChangeStatus(changed),
    inputs.settings.onDidChange(changed),
    inputs.agents.onDidChangeAgents(changed),
  ];
}
