import { fileURLToPath } from 'node:url';

/**
 * Copy-paste configs for common MCP clients, shown in the UI next to an agent's token.
 * Cursor and VS Code speak Streamable HTTP with headers; Claude Desktop's config file only
 * starts stdio servers, so it runs `toolbridge mcp --connect`, which relays to the endpoint.
 */

export interface ClientConfigInput {
  /** e.g. `http://127.0.0.1:43117/mcp` */
  endpointUrl: string;
  token: string;
  /** How a client starts the toolbridge CLI, e.g. `{ command: '/usr/bin/node', args: ['/opt/toolbridge/bin/toolbridge.js'] }`. */
  cli: { command: string; args: string[] };
  /** Key under which the server appears in the client. @defaultValue `'toolbridge'` */
  serverName?: string;
}

export type ClientConfigs = Record<'claude-desktop' | 'cursor' | 'vscode', string>;

export function clientConfigs(input: ClientConfigInput): ClientConfigs {
  const name = input.serverName ?? 'toolbridge';
  const headers = { Authorization: `Bearer ${input.token}` };
  const claudeDesktop = {
    mcpServers: {
      [name]: {
        command: input.cli.command,
        args: [...input.cli.args, 'mcp', '--connect', input.endpointUrl],
        env: { TOOLBRIDGE_AGENT_TOKEN: input.token },
      },
    },
  };
  const cursor = { mcpServers: { [name]: { url: input.endpointUrl, headers } } };
  const vscode = { servers: { [name]: { type: 'http', url: input.endpointUrl, headers } } };
  return {
    'claude-desktop': pretty(claudeDesktop),
    cursor: pretty(cursor),
    vscode: pretty(vscode),
  };
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** How a client starts our CLI: this Node and the package's `bin/toolbridge.js`. */
export function defaultCliCommand(): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL('../../bin/toolbridge.js', import.meta.url))],
  };
}
