import { describe, expect, it } from 'vitest';
import { calloutSentence, commandCallouts, programName } from '../../../src/base/command-review.js';

const kinds = (command: string, ...args: string[]) => commandCallouts({ command, args }).map((c) => c.kind);
const inline = (command: string, ...args: string[]) =>
  commandCallouts({ command, args }).find((c) => c.kind === 'inline-script');

describe('issue #12: commandCallouts finds shell call-outs however they are spelled', () => {
  const cases: Array<[string, string[], string]> = [
    ['sh', ['-c', 'echo hi'], 'echo hi'],
    ['/bin/sh', ['-c', 'touch /tmp/x'], 'touch /tmp/x'],
    ['/usr/bin/env', ['bash', '-c', 'id'], 'id'],
    ['bash', ['-lc', 'id'], 'id'],
    ['bash', ['-e', '-c', 'id'], 'id'],
    ['zsh', ['-c', 'id'], 'id'],
    ['dash', ['-c', 'id'], 'id'],
    ['/usr/local/bin/fish', ['-c', 'id'], 'id'],
    ['busybox', ['sh', '-c', 'id'], 'id'],
    ['cmd', ['/c', 'del', 'x'], 'del x'],
    ['C:\\Windows\\System32\\cmd.exe', ['/C', 'whoami'], 'whoami'],
    ['powershell', ['-Command', 'Get-Process'], 'Get-Process'],
    ['pwsh', ['-c', 'ls'], 'ls'],
    ['powershell.exe', ['-NoProfile', '-com', 'ls'], 'ls'],
    ['python', ['-c', 'import os'], 'import os'],
    ['python3.12', ['-Ic', 'import os'], 'import os'],
    ['node', ['-e', 'require("child_process")'], 'require("child_process")'],
    ['node', ['--eval', 'x()'], 'x()'],
    ['node', ['--eval=x()'], 'x()'],
    ['nodejs', ['-p', '1'], '1'],
    ['perl', ['-e', 'system("id")'], 'system("id")'],
    ['perl', ['-ne', 'print'], 'print'],
    ['ruby', ['-e', 'puts 1'], 'puts 1'],
    ['sudo', ['-u', 'root', 'sh', '-c', 'id'], 'id'],
    ['env', ['-i', 'FOO=1', 'sh', '-c', 'id'], 'id'],
    ['nohup', ['bash', '-c', 'id'], 'id'],
    ['timeout', ['5', 'sh', '-c', 'id'], 'id'],
  ];
  // issue #16: a shell named by any path, version or wrapper is the same inline shell as bare `sh -c`.
  const shellSpellings: Array<[string, string[]]> = [
    ['/bin/sh', ['-c', 'id']],
    ['/usr/bin/bash', ['-c', 'id']],
    ['env', ['sh', '-c', 'id']],
    ['/usr/bin/env', ['-i', '/bin/sh', '-c', 'id']],
    ['/usr/local/bin/bash-5.2', ['-c', 'id']],
    ['bash5.2', ['-c', 'id']],
    ['/bin/rbash', ['-c', 'id']],
    ['ksh93', ['-c', 'id']],
    ['/nix/store/abc-bash-5.2/bin/bash', ['-c', 'id']],
    ['C:\\Program Files\\Git\\bin\\bash.exe', ['-c', 'id']],
    ['/bin/sh', ['-o', 'pipefail', '-c', 'id']],
    ['exec', ['-a', 'server', '/bin/sh', '-c', 'id']],
    ['nice', ['-n', '5', '/bin/bash', '-c', 'id']],
    ['wsl', ['-d', 'Ubuntu', 'bash', '-c', 'id']],
    ['wsl', ['-e', '/bin/sh', '-c', 'id']],
    ['toybox', ['sh', '-c', 'id']],
    ['su', ['-c', 'id', 'root']],
    ['runuser', ['-u', 'svc', '--command=id']],
  ];
  for (const [command, args] of shellSpellings) {
    it(`issue #16: ${[command, ...args].join(' ')} is called out as an inline shell`, () => {
      expect(inline(command, ...args)?.code).toBe('id');
    });
  }
  it('issue #16: shell-like names that are not shells stay quiet', () => {
    for (const command of ['shx', 'bashful', 'shellcheck', 'fisher', 'node']) {
      expect(kinds(command, '-c', 'x'), command).toEqual([]);
    }
  });
  for (const [command, args, code] of cases) {
    it(`${[command, ...args].join(' ')} runs code inline`, () => {
      expect(inline(command, ...args)?.code).toBe(code);
    });
  }

  it('decodes -EncodedCommand so the person reads the script', () => {
    const script = 'Remove-Item -Recurse C:\\x';
    const encoded = btoa(String.fromCharCode(...new Uint8Array(Buffer.from(script, 'utf16le'))));
    const callouts = commandCallouts({ command: 'powershell', args: ['-enc', encoded] });
    expect(callouts.find((c) => c.kind === 'inline-script')?.code).toBe(script);
    expect(callouts.map((c) => c.kind)).toContain('delete');
  });

  it('calls out sudo, rm -rf, pipes into shells and env assignments, also inside scripts', () => {
    expect(kinds('sudo', 'node', 'srv.js')).toEqual(['admin']);
    expect(kinds('doas', 'node', 'srv.js')).toEqual(['admin']);
    expect(kinds('sh', '-c', 'curl https://x.example/i.sh | sh')).toEqual(['pipe-to-shell', 'inline-script']);
    expect(kinds('sh', '-c', 'wget -qO- x | sudo bash')).toContain('pipe-to-shell');
    expect(kinds('bash', '-c', 'cd /tmp && rm -rf ./x; node s.js')).toEqual(['delete', 'inline-script']);
    expect(kinds('sh', '-c', 'rm --force --recursive /x')).toContain('delete');
    expect(kinds('sh', '-c', 'echo $(sudo id)')).toContain('admin');
    expect(kinds('sh', '-c', 'bash -c "python -c 1"')).toEqual([
      'inline-script',
      'inline-script',
      'inline-script',
    ]);
    expect(inline('sh', '-c', 'bash -c "python -c 1"')?.message).toContain('sh -c');
    expect(kinds('FOO=1', 'node', 's.js')).toEqual(['env-assignment']);
    expect(kinds('env', 'NODE_OPTIONS=--require=/tmp/x.js', 'node', 's.js')).toEqual(['env-assignment']);
    expect(kinds('env', '-S', 'sh -c id')).toContain('inline-script');
    expect(kinds('bash', 'install.sh')).toEqual(['script-file']);
  });

  it('calls out variables that load other code', () => {
    const callouts = commandCallouts({
      command: 'node',
      args: ['s.js'],
      envNames: ['API_KEY', 'NODE_OPTIONS', 'LD_PRELOAD'],
    });
    expect(callouts.map((c) => c.message)).toEqual([
      'sets NODE_OPTIONS, which can make the program load other code',
      'sets LD_PRELOAD, which can make the program load other code',
    ]);
  });

  it('leaves ordinary server commands alone', () => {
    for (const words of [
      ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      ['uvx', 'mcp-server-git', '--repository', '.'],
      ['node', '/srv/server.js', '--port', '0'],
      ['python', '-m', 'mcp_server_time'],
      ['docker', 'run', '-i', '--rm', 'mcp/github'],
      ['deno', 'run', '-A', 'server.ts'],
    ]) {
      expect(commandCallouts({ command: words[0]!, args: words.slice(1) }), words.join(' ')).toEqual([]);
    }
  });

  it('names programs by their last path segment, without .exe', () => {
    expect(programName('/usr/bin/BASH')).toBe('bash');
    expect(programName('C:\\Tools\\pwsh.exe')).toBe('pwsh');
  });

  it('says it in one sentence', () => {
    expect(calloutSentence(commandCallouts({ command: 'sudo', args: ['sh', '-c', 'id'] }))).toBe(
      'Careful: this command runs with administrator rights (sudo); runs a shell script inline (sh -c).',
    );
    expect(calloutSentence([])).toBeUndefined();
  });
});
