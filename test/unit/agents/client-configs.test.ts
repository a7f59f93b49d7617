import { describe, expect, it } from 'vitest';
import { clientConfigs } from '../../../src/agents/client-configs.js';

describe('clientConfigs', () => {
  const configs = clientConfigs({
    endpointUrl: 'http://127.0.0.1:4100/mcp',
    token: 'tb_secret',
    cli: { command: '/usr/bin/node', args: ['/opt/toolbridge/bin/toolbridge.js'] },
  });

  it('gives Cursor and VS Code the URL and the bearer header', () => {
    expect(JSON.parse(configs.cursor)).toEqual({
      mcpServers: {
        toolbridge: { url: 'http://127.0.0.1:4100/mcp', headers: { Authorization: 'Bearer tb_secret' } },
      },
    });
    expect(JSON.parse(configs.vscode)).toEqual({
      servers: {
        toolbridge: {
          type: 'http',
          url: 'http://127.0.0.1:4100/mcp',
          headers: { Authorization: 'Bearer tb_secret' },
        },
      },
    });
  });

  it('gives Claude Desktop a stdio relay with the token in the environment, not the arguments', () => {
    const server = JSON.parse(configs['claude-desktop']).mcpServers.toolbridge;
    expect(server.command).toBe('/usr/bin/node');
    expect(server.args).toEqual([
      '/opt/toolbridge/bin/toolbridge.js',
      'mcp',
      '--connect',
      'http://127.0.0.1:4100/mcp',
    ]);
    expect(server.args.join(' ')).not.toContain('tb_secret');
    expect(server.env).toEqual({ TOOLBRIDGE_AGENT_TOKEN: 'tb_secret' });
  });
});
