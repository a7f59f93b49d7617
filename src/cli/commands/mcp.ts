import type { Readable, Writable } from 'node:stream';
import { DEFAULT_CONTEXT_LENGTH_TOKENS } from '../../agents/agent-registry.js';
import { StdioEndpoint } from '../../agents/stdio-endpoint.js';
import { StdioRelay } from '../../agents/stdio-relay.js';
import { DataDirLock } from '../../host/data-dir-lock.js';
import { createHost, type Host, STDIO_AGENT_ID } from '../../host/host.js';
import { resolveDataDir } from '../../store/settings-file.js';
import { type CliCommand, type CliIo, integerFlag, parseArgs, usageError } from '../command.js';
import { AGENT_TOKEN_ENV, agentTokenFrom, parsePolicy, shutdownSignal } from './serve.js';

/**
 * The longest stopping the servers may take in `mcp` before SIGKILL (0.4 s after stdin's end, 0.4 s
 * after SIGTERM; all servers at once). An agent that closes our stdin sends SIGTERM 2 s later and
 * SIGKILL 2 s after that (the SDK's client does), so we must be done well within that.
 */
const MCP_STOP_GRACE_MS = 800;

const FLAGS = {
  'data-dir': 'string',
  'context-length': 'string',
  policy: 'string',
  connect: 'string',
  'agent-token': 'string',
} as const;

/** The protocol streams; the process's own by default. */
export interface McpIo {
  stdin?: Readable;
  stdout?: Writable;
}

export function createMcpCommand(streams: McpIo = {}): CliCommand {
  return {
    name: 'mcp',
    summary: 'serve one agent over stdio (for agents that spawn their tools)',
    help: `Usage:
  toolbridge mcp [--data-dir DIR] [--context-length N] [--policy allow|ask|deny]
  toolbridge mcp --connect URL        (token in ${AGENT_TOKEN_ENV} or --agent-token)

Speaks MCP on stdin/stdout, for clients whose config starts a command (Claude Desktop).

Without --connect it runs its own host on the data folder: it starts the configured servers
itself and reads the settings without ever writing them, so it can run next to the app or
toolbridge serve. Settings changes made elsewhere apply when it is restarted. No UI is attached
to it, so calls under the "ask" policy wait for a card nobody sees and time out.

With --connect it only relays to a running host (the app or toolbridge serve): one set of
servers, and approvals appear in that host's UI. This is what the Claude Desktop snippet in the
UI uses.

Options:
  --data-dir DIR        settings and secrets to read (default $XDG_CONFIG_HOME/toolbridge)
  --context-length N    the model's context window in tokens; sizes the tool listing
                        (default ${DEFAULT_CONTEXT_LENGTH_TOKENS})
  --policy P            default approval policy for this run only: allow, ask or deny
  --connect URL         relay to a running host's agent endpoint instead
  --agent-token TOKEN   that endpoint's agent token (prefer ${AGENT_TOKEN_ENV}: ps shows arguments)
`,
    async run(args, io) {
      const { flags, positionals } = parseArgs('mcp', args, FLAGS);
      if (positionals.length > 0) throw usageError('mcp', `unexpected argument "${positionals[0]}".`);
      if (flags.connect !== undefined) {
        for (const flag of ['data-dir', 'context-length', 'policy'] as const) {
          if (flags[flag] !== undefined) {
            throw usageError(
              'mcp',
              `--${flag} belongs to the host; with --connect the running host decides it.`,
            );
          }
        }
        return relay(flags.connect, agentTokenFrom(flags['agent-token']), streams, io);
      }
      if (flags['agent-token'] !== undefined)
        throw usageError('mcp', '--agent-token only goes with --connect.');
      const contextLength =
        integerFlag('mcp', flags['context-length'], 'context-length', { min: 1_000, max: 100_000_000 }) ??
        DEFAULT_CONTEXT_LENGTH_TOKENS;
      const policyOverride = parsePolicy('mcp', flags.policy);
      const dataDir = resolveDataDir(flags['data-dir'] === undefined ? {} : { dataDir: flags['data-dir'] });

      const running = await DataDirLock.read(dataDir);
      if (running?.endpointUrl !== undefined) {
        io.stderr(
          `toolbridge mcp: a Toolbridge host (pid ${running.pid}) is running on this data folder; this process starts its own servers. ` +
            `To share that host's servers and approvals, use --connect ${running.endpointUrl} with ${AGENT_TOKEN_ENV}.\n`,
        );
      }
      // Agents stop us with a signal as often as by closing stdin; either way the servers must stop too.
      let host: Host | undefined;
      const shutdown = shutdownSignal('mcp', io, { force: () => host?.servers.killAllNow() });
      try {
        host = await createHost({
          dataDir,
          listen: false,
          readOnlySettings: true,
          serverOptions: { stopGraceMs: MCP_STOP_GRACE_MS },
          ...(policyOverride === undefined ? {} : { policyOverride }),
          log: (line) => io.stderr(`${line}\n`),
        });
        try {
          if ((policyOverride ?? host.settings.current.policies.default) === 'ask') {
            io.stderr(
              'toolbridge mcp: the default policy is "ask" but no UI is attached to this process; such calls will time out. ' +
                'Use --connect to a running host, or --policy allow.\n',
            );
          }
          // Clients often list tools once, right after connecting: let the servers come up first.
          await Promise.race([host.ready, shutdown.stopped]);
          host.watchAgent(STDIO_AGENT_ID, contextLength);
          const running = host;
          const endpoint = new StdioEndpoint(
            STDIO_AGENT_ID,
            (agentId) => running.surfaceFor(agentId),
            streams,
            running.relay,
          );
          const subscription = host.onDidChangeAgentTools(() => endpoint.notifyToolsChanged());
          await endpoint.start();
          await Promise.race([endpoint.done, shutdown.stopped]);
          subscription.dispose();
          await endpoint.close();
        } finally {
          await host.close();
        }
      } finally {
        shutdown.dispose();
      }
      return 0;
    },
  };
}

export const mcpCommand = createMcpCommand();

async function relay(url: string, token: string | undefined, streams: McpIo, io: CliIo): Promise<number> {
  if (token === undefined) {
    throw usageError(
      'mcp',
      `--connect needs the agent token: set ${AGENT_TOKEN_ENV} (or pass --agent-token).`,
    );
  }
  let endpointUrl: string;
  try {
    endpointUrl = new URL(url).href;
  } catch {
    throw usageError('mcp', `--connect needs a URL like http://127.0.0.1:7345/mcp, got "${url}".`);
  }
  const relayed = new StdioRelay({ endpointUrl, token, ...streams, log: (line) => io.stderr(`${line}\n`) });
  const shutdown = shutdownSignal('mcp', io);
  try {
    await relayed.start();
    await Promise.race([relayed.done, shutdown.stopped]);
    await relayed.close();
  } finally {
    shutdown.dispose();
  }
  return 0;
}
