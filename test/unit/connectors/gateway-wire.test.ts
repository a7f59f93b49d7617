import { describe, expect, it } from 'vitest';
import {
  parseConnectionRow,
  parseConnectionStarts,
  parseRenameResponse,
  parseToolsResponse,
} from '../../../src/connectors/gateway-wire.js';

describe('parseConnectionRow', () => {
  it('reads every account, skipping ones without an alias', () => {
    const row = parseConnectionRow({
      connector: 'github',
      connected: true,
      account: 'home',
      accounts: [
        { alias: 'home', default: true, connected: true, connection_status: 'active', connection_id: 'c1' },
        { alias: 'work', connected: false, connectionStatus: 'initiated', statusReason: 'waiting' },
        { connected: true },
      ],
    });
    expect(row?.accounts).toEqual([
      { alias: 'home', default: true, connected: true, connectionStatus: 'active', connectionId: 'c1' },
      {
        alias: 'work',
        default: false,
        connected: false,
        connectionStatus: 'initiated',
        statusReason: 'waiting',
      },
    ]);
  });

  it('reads a gateway with one account per connector from its top-level fields', () => {
    const row = parseConnectionRow({
      connector: 'slack',
      connected: true,
      connectionStatus: 'active',
      connectionId: 'c7',
      account: 'me',
    });
    expect(row?.accounts).toEqual([
      { alias: 'me', default: true, connected: true, connectionStatus: 'active', connectionId: 'c7' },
    ]);
    expect(parseConnectionRow({ connector: 'notion', connected: false })?.accounts).toEqual([]);
  });

  it('issue #16: reads the tool count in either spelling, and leaves it out when a gateway sends none', () => {
    expect(parseConnectionRow({ connector: 'github', toolCount: 35 })?.toolCount).toBe(35);
    expect(parseConnectionRow({ connector: 'github', tool_count: 0 })?.toolCount).toBe(0);
    const old = parseConnectionRow({ connector: 'github', connected: true });
    expect(old).toBeDefined();
    expect(old).not.toHaveProperty('toolCount');
    for (const bad of [-1, 2.5, '35', null, Number.POSITIVE_INFINITY]) {
      expect(parseConnectionRow({ connector: 'github', toolCount: bad })).not.toHaveProperty('toolCount');
    }
  });
});

describe('parseConnectionStarts', () => {
  it('keeps the alias of the account being linked', () => {
    expect(
      parseConnectionStarts({ connections: [{ connector: 'github', alias: 'work', status: 'initiated' }] }),
    ).toEqual([{ connector: 'github', alias: 'work', status: 'initiated' }]);
  });
});

describe('parseRenameResponse', () => {
  it('reads the renamed account or the refusal, and nothing else', () => {
    expect(parseRenameResponse({ connector: 'github', account: { alias: 'work', connected: true } })).toEqual(
      {
        connector: 'github',
        account: { alias: 'work', default: false, connected: true },
      },
    );
    expect(parseRenameResponse({ error: { code: 'ALIAS_TAKEN', message: 'taken' } })).toEqual({
      error: { code: 'ALIAS_TAKEN', message: 'taken' },
    });
    expect(parseRenameResponse({ connector: 'github' })).toBeUndefined();
    expect(parseRenameResponse('<html>')).toBeUndefined();
  });
});

describe('parseToolsResponse', () => {
  it('reads each tool in the schemas’ shape and drops entries without a slug or connector', () => {
    expect(
      parseToolsResponse({
        tools: [
          { connector: 'github', tool: 'GITHUB_CREATE_ISSUE', description: 'Create an issue.' },
          { connector: 'github', description: 'no slug' },
          { tool: 'NO_CONNECTOR' },
          'junk',
          { connector: 'github', tool: 'GITHUB_GET_ME', input_schema: { type: 'object' } },
        ],
      }),
    ).toEqual([
      {
        connector: 'github',
        tool: 'GITHUB_CREATE_ISSUE',
        description: 'Create an issue.',
        inputSchema: undefined,
      },
      { connector: 'github', tool: 'GITHUB_GET_ME', description: '', inputSchema: { type: 'object' } },
    ]);
  });

  it('answers undefined for a body that is not a tools list', () => {
    expect(parseToolsResponse({ schemas: {} })).toBeUndefined();
    expect(parseToolsResponse('nope')).toBeUndefined();
  });
});
