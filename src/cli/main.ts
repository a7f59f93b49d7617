import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolbridgeError } from '../base/errors.js';
import { type CliCommand, type CliIo, EXIT_BAD_INPUT } from './command.js';
import { describeCommand } from './commands/describe.js';
import { evalCommand } from './commands/eval.js';
import { listingCommand } from './commands/listing.js';
import { mcpCommand } from './commands/mcp.js';
import { searchCommand } from './commands/search.js';
import { serveCommand } from './commands/serve.js';
import { uiLinkCommand } from './commands/ui-link.js';

/** Every `toolbridge <command>`. A new command is one file in commands/ and one line here. */
export const COMMANDS: readonly CliCommand[] = [
  searchCommand,
  describeCommand,
  listingCommand,
  evalCommand,
  serveCommand,
  uiLinkCommand,
  mcpCommand,
];

function mainHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `Usage: toolbridge <command> [options]

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run \`toolbridge <command> --help\` for a command's options. Add --debug to see stack traces.
`;
}

/**
 * Runs one command line and returns the exit code: 0 done, 1 failed, 2 bad input. This is the
 * one place errors are caught: an expected failure (ToolbridgeError) prints its message on one
 * line; anything else prints "internal error", with the stack only under --debug.
 */
export async function run(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  const debug = options.includes('--debug');
  const args = argv.filter((arg, i) => !(arg === '--debug' && (end < 0 || i < end)));
  const [name, ...rest] = args;
  let prefix = 'toolbridge';
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      (name === undefined ? io.stderr : io.stdout)(mainHelp(commands));
      return name === undefined ? EXIT_BAD_INPUT : 0;
    }
    const command = commands.find((candidate) => candidate.name === name);
    if (command === undefined) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `unknown command "${name}". Commands: ${commands.map((c) => c.name).join(', ')}.`,
      );
    }
    prefix = `toolbridge ${command.name}`;
    const restEnd = rest.indexOf('--');
    const beforeEnd = restEnd < 0 ? rest : rest.slice(0, restEnd);
    if (beforeEnd.includes('--help') || beforeEnd.includes('-h')) {
      io.stdout(command.help);
      return 0;
    }
    return await command.run(rest, io);
  } catch (error) {
    if (ToolbridgeError.is(error)) {
      io.stderr(`${prefix}: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
      if (debug && error.stack) io.stderr(`${error.stack}\n`);
      return error.code === 'INVALID_ARGUMENT' || error.code === 'NOT_FOUND' ? EXIT_BAD_INPUT : 1;
    }
    io.stderr(`${prefix}: internal error. Run again with --debug for details.\n`);
    if (debug) io.stderr(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

function processIo(): CliIo {
  // A closed pipe (`toolbridge search … | head`) is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  // A stderr nobody reads any more (the parent that held it is gone) has nowhere to report to.
  // Unheard, its 'error' became an uncaught exception whose one-line report went to stderr again,
  // failing again, in a loop that starved the event loop: serve spun at full CPU and never heard
  // SIGTERM. Its lines are dropped instead; the process goes on and stops when told.
  process.stderr.on('error', () => undefined);
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  };
}

/** True when this file is the program: run directly, or imported by bin/toolbridge.js. */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    const started = realpathSync(script);
    const self = fileURLToPath(import.meta.url);
    const bin = fileURLToPath(new URL('../../bin/toolbridge.js', import.meta.url));
    return started === realpathSync(self) || started === realpathSync(bin);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  // Should the command ever wait on something nothing can settle (a bug), Node would exit 13 without
  // a word; say what happened instead.
  const stalled = (): void => {
    process.stderr.write(
      'toolbridge: internal error: the command stopped waiting on work that can never finish. Run again with --debug and report it.\n',
    );
    process.exit(1);
  };
  process.once('beforeExit', stalled);
  process.exitCode = await run(process.argv.slice(2), processIo());
  process.off('beforeExit', stalled);
}
