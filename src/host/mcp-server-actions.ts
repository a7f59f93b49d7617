/**
 * `manage_connections` install / enable / authorize for local MCP servers. With a UI open each
 * one asks the person on a card and blocks until they answer. Without one the action runs at
 * once where nothing is started on this computer: enabling a remote server, and authorize,
 * which hands the agent the sign-in link. Adding or enabling a stdio server always needs the
 * card that shows the exact command (security checklist M13), so headless those two are refused.
 */

import type { ConnectionCardRow, ServerView } from '../api/ui-api.js';
import { calloutSentence, commandCallouts } from '../base/command-review.js';
import { ToolbridgeError } from '../base/errors.js';
import type {
  ConnectionCardPort,
  McpAction,
  McpActionResult,
  McpServerActions,
} from '../connectors/manage-connections.js';
import { catalogServerConfig, loadMcpCatalog, type McpCatalogEntry } from '../servers/mcp-catalog.js';
import type { ServerConfig } from '../servers/types.js';
import type { ServersService } from './servers-service.js';

export interface HostMcpActionsOptions {
  /** The servers' one service, the same the UI API calls. */
  servers: Pick<ServersService, 'listServers' | 'addServer' | 'setServerEnabled' | 'authorizeServer'>;
  dataDir: string;
  cards: ConnectionCardPort | undefined;
  uiPresent: () => boolean;
  cardTimeoutMs: () => number;
  /** How often to look whether a signed-in server has connected. @defaultValue 500 */
  pollIntervalMs?: number;
  catalog?: McpCatalogEntry[];
}

type CardAnswer = 'confirmed' | 'skipped' | 'timeout' | 'settled';

const TOOLS_READY = 'Its tools are available through tool_search and tool_call.';

export class HostMcpActions implements McpServerActions {
  private readonly catalog: McpCatalogEntry[];

  constructor(private readonly options: HostMcpActionsOptions) {
    this.catalog = options.catalog ?? loadMcpCatalog();
  }

  knows(name: string): boolean {
    return this.catalog.some((entry) => entry.id === name);
  }

  async run(
    action: McpAction,
    server: string,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    try {
      const configured = (await this.options.servers.listServers()).find((view) => view.id === server);
      if (action === 'install') return await this.install(server, configured, context);
      if (configured === undefined) {
        return {
          server,
          status: 'failed',
          message: `No configured server "${server}".${this.knows(server) ? ' Call install first.' : ''}`,
        };
      }
      return action === 'enable'
        ? await this.enable(configured, context)
        : await this.authorize(configured, context);
    } catch (error) {
      return { server, status: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }

  private async install(
    server: string,
    configured: ServerView | undefined,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    if (configured !== undefined) {
      return {
        server,
        status: 'unchanged',
        message: configured.enabled ? 'Already installed.' : 'Already installed but turned off: call enable.',
      };
    }
    const entry = this.catalog.find((candidate) => candidate.id === server);
    if (entry === undefined) {
      const names = this.catalog.map((candidate) => candidate.id).join(', ');
      return {
        server,
        status: 'failed',
        message: `"${server}" is not in the catalog. Installable: ${names}.`,
      };
    }
    const config = catalogServerConfig(entry, this.options.dataDir);
    const answer = await this.ask(server, config, context);
    if (answer !== 'confirmed') return declined(server, answer);
    await this.options.servers.addServer(config);
    return { server, status: 'installed', message: TOOLS_READY };
  }

  private async enable(
    configured: ServerView,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    const server = configured.id;
    if (configured.enabled) return { server, status: 'unchanged', message: 'Already enabled.' };
    const remote = configured.config.transport !== 'stdio';
    // A remote server the user configured starts nothing here: headless, it is switched on at once.
    if (!remote || this.canShowCard()) {
      const answer = await this.ask(server, configured.config, context);
      if (answer !== 'confirmed') return declined(server, answer);
    }
    await this.options.servers.setServerEnabled(server, true);
    return {
      server,
      status: 'enabled',
      message: remote
        ? 'Its tools are available through tool_search and tool_call once it has connected; if it needs sign-in, call authorize.'
        : TOOLS_READY,
    };
  }

  private async authorize(
    configured: ServerView,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    const server = configured.id;
    if (configured.status === 'connected')
      return { server, status: 'unchanged', message: 'Already connected.' };
    const { authorizationUrl } = await this.options.servers.authorizeServer(server);
    const cards = this.options.cards;
    if (cards === undefined || !this.canShowCard()) {
      return {
        server,
        status: 'initiated',
        connect_url: authorizationUrl,
        message:
          'Show the user this link to sign in. Once they have allowed access the server connects by itself and ' +
          'its tools are available through tool_search and tool_call. Do not call authorize again meanwhile.',
      };
    }
    const answer = await this.onCard(
      cards,
      {
        name: server,
        kind: 'mcp',
        state: 'initiated',
        connectUrl: authorizationUrl,
        message: `Sign in to ${configured.name}${configured.config.transport === 'stdio' ? '' : ` at ${configured.config.url}`}${scopesAsked(authorizationUrl)}.`,
      },
      context,
      async () =>
        (await this.options.servers.listServers()).some((v) => v.id === server && v.status === 'connected'),
    );
    return answer === 'settled'
      ? { server, status: 'connected', message: `Signed in. ${TOOLS_READY}` }
      : declined(server, answer);
  }

  private canShowCard(): boolean {
    return this.options.cards !== undefined && this.options.uiPresent();
  }

  /** Asks on a card; refuses when no one can see one. */
  private async ask(
    server: string,
    config: ServerConfig,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<CardAnswer> {
    const cards = this.options.cards;
    if (cards === undefined || !this.canShowCard()) {
      throw new ToolbridgeError(
        'DENIED',
        'Adding or enabling a server that runs on this computer needs the user to approve its command in Toolbridge; ' +
          'ask them to open Toolbridge and try again.',
      );
    }
    return this.onCard(
      cards,
      {
        name: server,
        kind: 'mcp',
        state: 'pending',
        message:
          config.transport === 'stdio'
            ? `${commandText(config)}\nIt runs on this computer with your rights.`
            : commandText(config),
      },
      context,
    );
  }

  /** One row on a card until it is confirmed, skipped, settled (`settled()` turns true) or times out. */
  private onCard(
    cards: ConnectionCardPort,
    row: ConnectionCardRow,
    context: { agentId: string; signal?: AbortSignal },
    settled?: () => Promise<boolean>,
  ): Promise<CardAnswer> {
    const deadline = Date.now() + this.options.cardTimeoutMs();
    const card = cards.open({ agentId: context.agentId, targets: [row], expiresAt: deadline });
    return new Promise<CardAnswer>((resolve) => {
      let done = false;
      const finish = (answer: CardAnswer) => {
        if (done) return;
        done = true;
        clearInterval(poll);
        clearTimeout(timer);
        skip.dispose();
        confirm?.dispose();
        card.stopped.removeEventListener('abort', stop);
        context.signal?.removeEventListener('abort', stop);
        const state = answer === 'confirmed' || answer === 'settled' ? 'connected' : 'skipped';
        card.update([{ ...row, state }]);
        card.close(`${row.name}: ${state}`);
        resolve(answer);
      };
      const stop = () => finish('skipped');
      const skip = card.onDidSkip(() => finish('skipped'));
      const confirm = card.onDidConfirm?.(() => finish('confirmed'));
      card.stopped.addEventListener('abort', stop, { once: true });
      context.signal?.addEventListener('abort', stop, { once: true });
      const timer = setTimeout(() => finish('timeout'), Math.max(0, deadline - Date.now()));
      const poll = setInterval(() => {
        if (settled !== undefined) void settled().then((yes) => yes && finish('settled'));
      }, this.options.pollIntervalMs ?? 500);
    });
  }
}

function commandText(config: ServerConfig): string {
  if (config.transport !== 'stdio') return `Connect to ${config.url}`;
  const env = Object.keys(config.env ?? {});
  // The same call-outs as the command form and config import (one detector).
  const callouts = commandCallouts({ command: config.command, args: config.args ?? [], envNames: env });
  const sentence = calloutSentence(callouts);
  return [
    `Run: ${[config.command, ...(config.args ?? [])].join(' ')}`,
    ...(env.length > 0 ? [`Environment: ${env.join(', ')}`] : []),
    ...(sentence === undefined ? [] : [sentence]),
    ...callouts.flatMap((callout) => (callout.code ? [`It runs: ${callout.code}`] : [])),
  ].join('\n');
}

function declined(server: string, answer: CardAnswer): McpActionResult {
  return answer === 'timeout'
    ? {
        server,
        status: 'not_connected',
        message: 'The user did not answer in time; ask whether to try again.',
      }
    : { server, status: 'skipped', message: 'The user declined; do not ask again or work around it.' };
}

/** The scopes a sign-in asks for, as the card says them (M12: the person sees what is asked). */
function scopesAsked(authorizationUrl: string): string {
  const scope = new URL(authorizationUrl).searchParams.get('scope');
  return scope === null || scope === '' ? '' : `, allowing the scopes ${scope}`;
}
