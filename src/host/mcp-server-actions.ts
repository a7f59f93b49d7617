/**
 * `manage_connections` install / enable / authorize for local MCP servers. Adding or enabling a
 * stdio server always asks the person on a card that shows the exact command (security
 * checklist M13), so without an open UI those two are refused; authorize opens the server's
 * sign-in page from a card, or hands the agent the link when no UI is open.
 */
import { ToolbridgeError } from '../base/errors.js';
import type {
  ConnectionCardPort,
  McpAction,
  McpActionResult,
  McpServerActions,
} from '../connectors/manage-connections.js';
import { catalogServerConfig, loadMcpCatalog, type McpCatalogEntry } from '../connectors/mcp-catalog.js';
import type { ServerConfig } from '../servers/types.js';
import type { ConnectionCardRow, ServerView, ToolbridgeApi } from './api.js';

export interface HostMcpActionsOptions {
  api: () => Pick<ToolbridgeApi, 'listServers' | 'addServer' | 'setServerEnabled' | 'authorizeServer'>;
  dataDir: string;
  cards: ConnectionCardPort | undefined;
  uiPresent: () => boolean;
  cardTimeoutMs: () => number;
  /** How often to look whether a signed-in server has connected. @defaultValue 500 */
  pollIntervalMs?: number;
  catalog?: McpCatalogEntry[];
}

type CardAnswer = 'confirmed' | 'skipped' | 'timeout' | 'settled';

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
      const configured = (await this.options.api().listServers()).find((view) => view.id === server);
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
    const answer = await this.ask(server, commandText(config), context);
    if (answer !== 'confirmed') return declined(server, answer);
    await this.options.api().addServer(config);
    return {
      server,
      status: 'installed',
      message: 'Its tools are available through tool_search and tool_call.',
    };
  }

  private async enable(
    configured: ServerView,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    const server = configured.id;
    if (configured.enabled) return { server, status: 'unchanged', message: 'Already enabled.' };
    const text =
      configured.config.transport === 'stdio'
        ? commandText(configured.config)
        : `Connect to ${configured.config.url}`;
    const answer = await this.ask(server, text, context);
    if (answer !== 'confirmed') return declined(server, answer);
    await this.options.api().setServerEnabled(server, true);
    return { server, status: 'enabled' };
  }

  private async authorize(
    configured: ServerView,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<McpActionResult> {
    const server = configured.id;
    if (configured.status === 'connected')
      return { server, status: 'unchanged', message: 'Already connected.' };
    const { authorizationUrl } = await this.options.api().authorizeServer(server);
    const cards = this.options.cards;
    if (cards === undefined || !this.options.uiPresent()) {
      return {
        server,
        status: 'initiated',
        connect_url: authorizationUrl,
        message: 'Show the user this link to sign in, then retry.',
      };
    }
    const answer = await this.onCard(
      cards,
      { name: server, kind: 'mcp', state: 'initiated', connectUrl: authorizationUrl },
      context,
      async () =>
        (await this.options.api().listServers()).some((v) => v.id === server && v.status === 'connected'),
    );
    return answer === 'settled' ? { server, status: 'connected' } : declined(server, answer);
  }

  /** Asks on a card; refuses when no one can see one. */
  private async ask(
    server: string,
    text: string,
    context: { agentId: string; signal?: AbortSignal },
  ): Promise<CardAnswer> {
    const cards = this.options.cards;
    if (cards === undefined || !this.options.uiPresent()) {
      throw new ToolbridgeError(
        'DENIED',
        'Adding or enabling a server needs the user to approve it in Toolbridge; ask them to open Toolbridge and try again.',
      );
    }
    return this.onCard(
      cards,
      {
        name: server,
        kind: 'mcp',
        state: 'pending',
        message: `${text}\nIt runs on this computer with your rights.`,
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
  return [
    `Run: ${[config.command, ...(config.args ?? [])].join(' ')}`,
    ...(env.length > 0 ? [`Environment: ${env.join(', ')}`] : []),
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
