import { type AgentRegistry, DEFAULT_CONTEXT_LENGTH_TOKENS } from '../agents/agent-registry.js';
import type { AgentSurface } from '../bridge/types.js';
import type { HostCatalog } from './host-catalog.js';

/**
 * What each agent lists and calls as of now, sized by its context length, and the calls still in
 * progress (so the host's close can let refused ones answer first).
 */
export class AgentSurfaces {
  /** Context lengths of agents outside the registry (stdio), so their lists are watched too. */
  private readonly extraContexts = new Map<string, number>();
  private readonly calls = new Set<Promise<unknown>>();

  constructor(
    private readonly catalog: Pick<HostCatalog, 'surface'>,
    private readonly agents: Pick<AgentRegistry, 'get' | 'list'>,
    /** An agent's roots changed: every server hears roots/list_changed and asks again. */
    private readonly rootsChanged: () => void = () => undefined,
  ) {}

  /** Tools and calls for one agent as of now (each call gets its Stop from the bridge). */
  surfaceFor(agentId: string, contextLengthTokens?: number): AgentSurface {
    const surface = this.catalog.surface(contextLengthTokens ?? this.contextLengthOf(agentId));
    return {
      listTools: () => surface.listTools(),
      instructions: () => surface.instructions(),
      callTool: (name, args, context) => {
        const call = surface.callTool(name, args, context);
        this.calls.add(call);
        const done = () => this.calls.delete(call);
        call.then(done, done);
        return call;
      },
      rootsChanged: this.rootsChanged,
    };
  }

  /** Registers an agent the registry does not hold (the stdio agent) with its context length. */
  watch(agentId: string, contextLengthTokens: number): void {
    this.extraContexts.set(agentId, contextLengthTokens);
  }

  /** Waits for the agent calls still running to answer, or `ms` at most (a tool still running is cut by the close). */
  async callsSettled(ms: number): Promise<void> {
    if (this.calls.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.calls]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  /** What every agent lists, as one string: notify only when it really changed. */
  toolsFingerprint(): string {
    const contexts = new Set<number>([...this.extraContexts.values()]);
    for (const agent of this.agents.list()) contexts.add(agent.contextLengthTokens);
    return JSON.stringify([...contexts].sort().map((length) => this.catalog.surface(length).listTools()));
  }

  private contextLengthOf(agentId: string): number {
    return (
      this.extraContexts.get(agentId) ??
      this.agents.get(agentId)?.contextLengthTokens ??
      DEFAULT_CONTEXT_LENGTH_TOKENS
    );
  }
}
