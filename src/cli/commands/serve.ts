import { fileURLToPath } from 'node:url';
import { DEFAULT_AGENT_ID } from '../../agents/agent-registry.js';
import type { Policy } from '../../api/ui-api.js';
import { createHost, DEFAULT_HOST_PORT, type Host } from '../../host/host.js';
import { checkClientMetadataUrl } from '../../servers/oauth/mcp-oauth.js';
import { resolveDataDir } from '../../store/settings-file.js';
import { WebUi } from '../../web/web-ui.js';
import { type CliCommand, type CliIo, integerFlag, parseArgs, usageError } from '../command.js';
import { keepServingOnUnexpectedErrors } from '../unexpected-errors.js';

export const AGENT_TOKEN_ENV = 'TOOLBRIDGE_AGENT_TOKEN';

const FLAGS = {
  'data-dir': 'string',
  port: 'string',
  'agent-token': 'string',
  policy: 'string',
  bind: 'string',
  'unsafe-allow-non-loopback': 'boolean',
  'oauth-client-metadata-url': 'string',
} as const;

const RENDERER_DIR = fileURLToPath(new URL('../../../out/renderer', import.meta.url));

export interface ServeOptions {
  /** Resolves when the server should stop. @defaultValue the first SIGINT or SIGTERM */
  shutdown?: () => Promise<void>;
}

export function parsePolicy(command: string, value: string | undefined): Policy | undefined {
  if (value === undefined) return undefined;
  if (value !== 'allow' && value !== 'ask' && value !== 'deny') {
    throw usageError(command, `--policy must be allow, ask or deny, got "${value}".`);
  }
  return value;
}

/** The token from --agent-token, else from the environment (which `ps` does not show). */
export function agentTokenFrom(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (flag !== undefined) return flag;
  const fromEnv = env[AGENT_TOKEN_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

export function createServeCommand(options: ServeOptions = {}): CliCommand {
  return {
    name: 'serve',
    summary: 'run the host headless: agent endpoint and web UI on 127.0.0.1',
    help: `Usage:
  toolbridge serve [--data-dir DIR] [--port N] [--agent-token TOKEN] [--policy allow|ask|deny]

Starts the configured MCP servers (the reference servers everything, filesystem and memory on
first run), the agent endpoint and the web UI on one loopback port, then prints:
  agent endpoint: http://127.0.0.1:<port>/mcp
  agent token: <token>
  ui: http://127.0.0.1:<port>/#secret=<one-time secret>
once every server has connected or failed (failures are reported on stderr). Stop it with
Ctrl-C (SIGINT) or SIGTERM; the servers it started are stopped too.

Options:
  --data-dir DIR      settings, secrets and audit log (default $XDG_CONFIG_HOME/toolbridge)
  --port N            port to listen on, 0 for a free one (default ${DEFAULT_HOST_PORT})
  --agent-token TOKEN the default agent's token for this run (also ${AGENT_TOKEN_ENV});
                      without it the stored token is used (created on first run)
  --policy P          default approval policy for this run only: allow, ask or deny
  --bind ADDR         address to listen on (default 127.0.0.1)
  --unsafe-allow-non-loopback
                      allow --bind to a non-loopback address: anyone on that network
                      could then reach the endpoint. Do not use it without a reason.
  --oauth-client-metadata-url URL
                      the https URL of a Client ID Metadata Document describing this
                      Toolbridge, used as its client ID with remote servers' authorization
                      servers that accept one (else it registers dynamically)
`,
    async run(args, io) {
      const { flags, positionals } = parseArgs('serve', args, FLAGS);
      if (positionals.length > 0) throw usageError('serve', `unexpected argument "${positionals[0]}".`);
      const port = integerFlag('serve', flags.port, 'port', { min: 0, max: 65535 }) ?? DEFAULT_HOST_PORT;
      const policyOverride = parsePolicy('serve', flags.policy);
      const agentToken = agentTokenFrom(flags['agent-token']);
      const dataDir = resolveDataDir(flags['data-dir'] === undefined ? {} : { dataDir: flags['data-dir'] });
      const clientMetadataUrl = flags['oauth-client-metadata-url'];
      if (clientMetadataUrl !== undefined) checkClientMetadataUrl(clientMetadataUrl);

      // Signals are caught from the start: dying mid-start-up would orphan the servers' process groups.
      let host: Host | undefined;
      const shutdown = shutdownSignal('serve', io, {
        ...(options.shutdown === undefined ? {} : { given: options.shutdown }),
        force: () => host?.servers.killAllNow(),
      });
      try {
        host = await createHost({
          dataDir,
          port,
          ...(flags.bind === undefined ? {} : { bindAddress: flags.bind }),
          ...(flags['unsafe-allow-non-loopback'] ? { unsafeAllowNonLoopback: true } : {}),
          ...(agentToken === undefined ? {} : { agentToken }),
          ...(policyOverride === undefined ? {} : { policyOverride }),
          ...(clientMetadataUrl === undefined ? {} : { signIn: { clientMetadataUrl } }),
          log: (line) => io.stderr(`${line}\n`),
        });
        const webUi = new WebUi({ api: host.api, rendererDir: RENDERER_DIR });
        try {
          webUi.mount(host.http!);
          const stoppedEarly = await Promise.race([
            host.ready.then(() => false),
            shutdown.stopped.then(() => true),
          ]);
          if (!stoppedEarly) {
            await reportServerFailures(host, io);
            io.stdout(`agent endpoint: ${host.endpointUrl}\n`);
            io.stdout(`agent token: ${await host.agents.token(DEFAULT_AGENT_ID)}\n`);
            io.stdout(`ui: ${webUi.launchUrl(host.http!.url)}\n`);
            await shutdown.stopped;
          }
          io.stderr('toolbridge serve: shutting down\n');
        } finally {
          await webUi.close();
          await host.close();
        }
      } finally {
        shutdown.dispose();
      }
      return 0;
    },
  };
}

export const serveCommand = createServeCommand();

async function reportServerFailures(host: Host, io: CliIo): Promise<void> {
  for (const server of await host.api.listServers()) {
    if (server.status === 'error' || server.status === 'needs-auth') {
      io.stderr(
        `toolbridge serve: server "${server.id}" is not connected: ${server.lastError ?? server.status}\n`,
      );
    }
  }
}

/** A stop request that may come, and how to stop listening for one. */
export interface Shutdown {
  stopped: Promise<void>;
  dispose(): void;
}

/**
 * The first SIGINT/SIGTERM stops cleanly; a second one while stopping runs `force` (kill the
 * servers outright) and exits at once. Until disposed, unexpected errors are reported and survived
 * (see keepServingOnUnexpectedErrors).
 */
export function shutdownSignal(
  command: string,
  io: CliIo,
  options: { given?: () => Promise<void>; force?: () => void } = {},
): Shutdown {
  if (options.given) return { stopped: options.given(), dispose: () => undefined };
  // The same process-wide watch as for signals: this command owns the process until it stops.
  const errors = keepServingOnUnexpectedErrors(command, io);
  let first: ((signal: NodeJS.Signals) => void) | undefined;
  const again = (signal: NodeJS.Signals) => {
    io.stderr(`toolbridge ${command}: ${signal} again, stopping the servers at once\n`);
    options.force?.();
    process.exit(130);
  };
  const stopped = new Promise<void>((resolve) => {
    first = () => {
      process.off('SIGINT', first!);
      process.off('SIGTERM', first!);
      process.on('SIGINT', again);
      process.on('SIGTERM', again);
      resolve();
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });
  return {
    stopped,
    dispose: () => {
      errors.dispose();
      for (const listener of [first!, again]) {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      }
    },
  };
}
