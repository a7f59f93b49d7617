import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import type { CliCommand, CliIo } from '../../../src/cli/command.js';
import { COMMANDS, run } from '../../../src/cli/main.js';
import { runCli } from './run-cli.js';

function collect(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
  };
  return io;
}

const failing = (error: unknown): CliCommand => ({
  name: 'boom',
  summary: 'fails',
  help: 'boom help\n',
  run() {
    throw error;
  },
});

describe('run', () => {
  it('lists every command in the help', async () => {
    const { code, stdout } = await runCli('--help');
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toContain(`  ${command.name}`);
  });

  it('prints usage on stderr and exits 2 without a command', async () => {
    const { code, stdout, stderr } = await runCli();
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Usage: toolbridge <command>');
  });

  it('prints a command help for --help or -h anywhere before --', async () => {
    for (const command of COMMANDS) {
      const { code, stdout } = await runCli(command.name, '--catalog-dir', 'x', '-h');
      expect(code).toBe(0);
      expect(stdout).toBe(command.help);
      expect(stdout).toContain(`toolbridge ${command.name}`);
    }
  });

  it('rejects an unknown command on one line, exit 2', async () => {
    const { code, stderr } = await runCli('frobnicate');
    expect(code).toBe(2);
    expect(stderr).toBe(
      'toolbridge: unknown command "frobnicate". Commands: search, describe, listing, eval, serve, ui-link, mcp.\n',
    );
  });

  it('prints an expected failure as one line with the command name, no stack', async () => {
    const io = collect();
    const code = await run(['boom'], io, [
      failing(new ToolbridgeError('SERVER_UNAVAILABLE', 'Server "x" is down.\nStart it.')),
    ]);
    expect(code).toBe(1);
    expect(io.err).toBe('toolbridge boom: Server "x" is down. Start it.\n');
  });

  it('says "internal error" for a bug, with the stack only under --debug', async () => {
    const quiet = collect();
    expect(await run(['boom'], quiet, [failing(new TypeError('x is undefined'))])).toBe(1);
    expect(quiet.err).toBe('toolbridge boom: internal error. Run again with --debug for details.\n');
    const loud = collect();
    expect(await run(['--debug', 'boom'], loud, [failing(new TypeError('x is undefined'))])).toBe(1);
    expect(loud.err).toContain('TypeError: x is undefined');
    expect(loud.err).toContain('    at ');
  });

  it('keeps --debug after -- as an argument', async () => {
    let seen: readonly string[] = [];
    const echo: CliCommand = {
      name: 'echo',
      summary: '',
      help: '',
      run(args) {
        seen = args;
        return 0;
      },
    };
    await run(['echo', 'a', '--debug', '--', '--debug', '--help'], collect(), [echo]);
    expect(seen).toEqual(['a', '--', '--debug', '--help']);
  });

  it('issue #14: serve refuses an --oauth-client-metadata-url that is not https with a path, before starting anything', async () => {
    for (const url of ['http://toolbridge.example/client.json', 'https://toolbridge.example/', 'nope']) {
      const { code, stdout, stderr } = await runCli(
        'serve',
        '--oauth-client-metadata-url',
        url,
        '--port',
        '0',
      );
      expect(code, url).not.toBe(0);
      expect(stderr, url).toContain('is not an https URL with a path');
      expect(stderr, url).not.toContain('    at ');
      expect(stdout, url).toBe('');
    }
  });
});
