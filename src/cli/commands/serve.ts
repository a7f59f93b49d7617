import { fileURLToPath } from 'node:url';
import { DEFAULT_AGENT_ID } from '../../agents/agent-registry.js';
import type { Policy, ServerView } from '../../api/ui-api.js';
import { createHost, DEFAULT_HOST_PORT, type Host } from '../../host/host.js';
import { UiLinkKey } from '../../host/ui-link-key.js';
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
  /** When serve says which servers it still waits for. @defaultValue DEFAULT_SLOW_START */
  slowStart?: SlowStartTiming;
}

export interface SlowStartTiming {
  /** First notice, once start-up has taken this long. */
  afterMs: number;
  /** Then again this often, while the list of servers still starting changes. */
  everyMs: number;
}

export const DEFAULT_SLOW_START: SlowStartTiming = Object.freeze({ afterMs: 1500, everyMs: 5000 });

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
once every server has connected or failed (failures are reported on stderr; while slow servers
start, stderr says which ones it waits for). A ui: link works once; \`toolbridge ui-link\` prints
a new one without a restart. Stop it with
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
        const linkKey = await UiLinkKey.create(dataDir);
        const webUi = new WebUi({ api: host.api, rendererDir: RENDERER_DIR, linkKey: linkKey.key });
        try {
          webUi.mount(host.http!);
          const stopReporting = reportSlowStart(() => host!.api.listServers(), io, options.slowStart);
          const stoppedEarly = await Promise.race([
            host.ready.then(() => false),
            shutdown.stopped.then(() => true),
          ]).finally(stopReporting);
          if (!stoppedEarly) {
            await reportServerFailures(host, io);
            io.stdout(`agent endpoint: ${host.endpointUrl}\n`);
            io.stdout(`agent token: ${await host.agents.token(DEFAULT_AGENT_ID)}\n`);
            io.stdout(`ui: ${webUi.launchUrl(host.http!.url)}\n`);
            await shutdown.stopped;
          }
          io.stderr('toolbridge serve: shutting down\n');
        } finally {
          await linkKey.close();
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

/** The stderr line naming the servers still starting, or undefined when none is. */
export function waitingLine(servers: readonly ServerView[]): string | undefined {
  const starting = servers.filter((server) => server.status === 'starting');
  if (starting.length === 0) return undefined;
  const names = starting.map((server) => `${server.id} (${describeStart(server)})`).join(', ');
  const count = starting.length === 1 ? '1 server' : `${starting.length} servers`;
  return `toolbridge serve: waiting for ${count} to start: ${names}. The endpoint and ui: link follow once they are up or have failed; Ctrl-C stops.`;
}

function describeStart(server: ServerView): string {
  const config = server.config;
  if (config.transport !== 'stdio') return config.url;
  const line = [config.command, ...(config.args ?? [])].join(' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Says on stderr which servers serve still waits for, first after `afterMs` and again whenever
 * the list has changed at each `everyMs`, so a slow `npx` download does not look like a hang.
 * Returns the stop.
 */
export function reportSlowStart(
  listServers: () => Promise<readonly ServerView[]>,
  io: CliIo,
  timing: SlowStartTiming = DEFAULT_SLOW_START,
): () => void {
  let last: string | undefined;
  let interval: NodeJS.Timeout | undefined;
  let stopped = false;
  const report = async () => {
    const line = waitingLine(await listServers());
    if (!stopped && line !== undefined && line !== last) io.stderr(`${line}\n`);
    last = line;
  };
  const first = setTimeout(() => {
    void report();
    interval = setInterval(() => void report(), timing.everyMs);
    interval.unref();
  }, timing.afterMs);
  first.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(interval);
  };
}

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
