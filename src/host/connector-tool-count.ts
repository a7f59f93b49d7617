import type { ConnectorToolsView } from '../api/ui-api.js';
import { ToolbridgeError } from '../base/errors.js';
import type { GatewayClient } from '../connectors/gateway-client.js';
import type { GatewayConnectionRow } from '../connectors/gateway-wire.js';

export interface ConnectorToolCountOptions {
  /** How long one answer serves the Tiers view (its slider asks on every move). @defaultValue 5_000 */
  cacheMs?: number;
  /** How long the Tiers view waits for the gateway. @defaultValue 3_000 */
  timeoutMs?: number;
  /** @defaultValue Date.now */
  clock?: () => number;
}

/**
 * How many connector tools agents reach through tool_search, for the Tiers view: the gateway's
 * connections list says per app (`toolCount`, docs/gateway-protocol.md). Answers are kept a
 * moment, and a new gateway client (URL changed) asks again.
 */
export class ConnectorToolCount {
  private last: { client: GatewayClient; at: number; view: ConnectorToolsView } | undefined;
  private readonly clock: () => number;

  constructor(
    private readonly gateway: () => GatewayClient | undefined,
    private readonly options: ConnectorToolCountOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /** Drops the kept answer (the gateway token changed). */
  forget(): void {
    this.last = undefined;
  }

  /** Undefined while no gateway is in scope. */
  async current(): Promise<ConnectorToolsView | undefined> {
    const client = this.gateway();
    if (client === undefined) return undefined;
    const now = this.clock();
    const last = this.last;
    if (last?.client === client && now - last.at < (this.options.cacheMs ?? 5_000)) return last.view;
    const timeoutMs = this.options.timeoutMs ?? 3_000;
    try {
      const listed = await client.listConnections({ signal: AbortSignal.timeout(timeoutMs) });
      // A failure is not kept: signing in or the gateway coming back shows on the next look.
      if (!listed.ok) return uncounted(listed.failure.message);
      const view = countConnectorTools(listed.value);
      this.last = { client, at: now, view };
      return view;
    } catch (error) {
      if (ToolbridgeError.is(error) && error.code === 'CANCELLED') {
        return uncounted(`The connector gateway did not answer within ${timeoutMs / 1000} s.`);
      }
      throw error;
    }
  }
}

/** Sums the enabled apps' `toolCount`; apps from a gateway that sends none are counted apart. */
export function countConnectorTools(rows: readonly GatewayConnectionRow[]): ConnectorToolsView {
  const enabled = rows.filter((row) => row.enabled);
  let count = 0;
  let uncountedApps = 0;
  for (const row of enabled) {
    if (row.toolCount === undefined) uncountedApps += 1;
    else count += row.toolCount;
  }
  return { count, apps: enabled.length, uncountedApps };
}

function uncounted(problem: string): ConnectorToolsView {
  return { count: 0, apps: 0, uncountedApps: 0, problem };
}
