// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests spell out the literal ${secret:…} reference syntax.
import { describe, expect, it } from 'vitest';
import { connectorApprovalHash } from '../../../src/approvals/definition-hash.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS as DEFAULT_TOOL_SEARCH } from '../../../src/catalog/tool-search-config.js';
import { defaultSettings, SETTINGS_VERSION, validateSettings } from '../../../src/host/settings-document.js';
import { issuesOf } from '../../helpers/settings-issues.js';

describe('validateSettings', () => {
  it('fills every missing section with its default', () => {
    expect(validateSettings({ version: SETTINGS_VERSION })).toEqual(defaultSettings());
    expect(validateSettings({}).toolSearch).toEqual(DEFAULT_TOOL_SEARCH);
  });

  it('accepts a full document and keeps its values', () => {
    const doc = {
      version: SETTINGS_VERSION,
      servers: [
        {
          id: 'github',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', 'x'],
          env: { A: 'b' },
          enabled: true,
          roots: ['/home/me/projects', 'file:///srv/data'],
        },
        {
          id: 'remote',
          name: 'Remote',
          transport: 'http',
          url: 'https://example.com/mcp',
          enabled: false,
          trusted: true,
        },
      ],
      tools: { mcp__github__create_issue: { pinned: true }, mcp__remote__x: { enabled: false } },
      policies: {
        default: 'deny',
        servers: { github: 'allow' },
        connectors: { slack: 'deny' },
        tools: { mcp__remote__x: 'ask' },
        rules: [
          {
            toolKind: 'mcp',
            serverId: 'github',
            toolName: 'create_issue',
            policy: 'allow',
            definitionHash: 'a1b2',
          },
          { toolKind: 'mcp', serverId: 'remote', policy: 'deny' },
          {
            toolKind: 'connectors',
            serverId: 'gmail',
            toolName: 'SEND_EMAIL',
            policy: 'ask',
            redactOutbound: true,
          },
        ],
      },
      toolSearch: {
        enabled: 'on',
        listing: 'off',
        thresholdPct: 2.5,
        listingMaxTokens: 300,
        maxSearchLimit: 10,
        searchDefaultLimit: 10,
      },
      agents: [
        { id: 'a1', name: 'Claude', contextLengthTokens: 200000, createdAt: '2026-01-01T00:00:00.000Z' },
      ],
      connectors: { gatewayUrl: 'https://gateway.example.com/v1/', enabled: false },
      redactionPatterns: ['sk-[a-z0-9]+'],
      cardTimeoutMs: 10_000,
      callTimeoutMs: 5_000,
      maxCallTimeoutMs: 50_000,
      preferElicitationCards: true,
      maxResultBytes: 65_536,
    };
    expect(validateSettings(doc)).toEqual(doc);
  });

  it('issue #16: reads policies written when servers and apps shared one namespace, losing none', () => {
    const github = { id: 'github', transport: 'stdio', command: 'x', enabled: true };
    const { policies } = validateSettings({
      servers: [github],
      policies: {
        default: 'ask',
        servers: { github: 'deny', slack: 'ask' },
        tools: {},
        rules: [
          { serverId: 'github', toolName: 'create_issue', policy: 'allow', definitionHash: 'local' },
          {
            serverId: 'notion',
            toolName: 'POST_SEARCH',
            policy: 'allow',
            definitionHash: connectorApprovalHash('connectors__notion__POST_SEARCH'),
          },
          { serverId: 'gmail', toolName: 'SEND_EMAIL', policy: 'allow', account: { alias: 'work' } },
          { serverId: 'github', policy: 'deny' },
          { serverId: 'linear', policy: 'ask' },
        ],
      },
    });
    // A configured server's entries are that server's; the same-named app is not covered any more.
    expect(policies.servers).toEqual({ github: 'deny', slack: 'ask' });
    expect(policies.connectors).toEqual({ slack: 'ask' });
    expect(policies.rules.map((rule) => `${rule.toolKind} ${rule.serverId} ${rule.policy}`)).toEqual([
      'mcp github allow', // bound to a local definition
      'connectors notion allow', // bound to a connector tool's name
      'connectors gmail allow', // names an account
      'mcp github deny', // a configured server's id
      'mcp linear ask', // no server of that id: it held for both, and still does
      'connectors linear ask',
    ]);
    // Once saved, `connectors` is there and nothing is copied again.
    const saved = validateSettings({ servers: [], policies: { ...policies, servers: { gone: 'deny' } } });
    expect(saved.policies.connectors).toEqual({ slack: 'ask' });
  });

  it('defaults a server without "enabled" to enabled', () => {
    expect(
      validateSettings({ servers: [{ id: 'a', transport: 'stdio', command: 'x' }] }).servers[0]?.enabled,
    ).toBe(true);
  });

  it('names the field, the problem and the fix for a bad server id', () => {
    const issues = issuesOf(() =>
      validateSettings({ servers: [{ id: 'My Server', transport: 'stdio', command: 'x' }] }),
    );
    expect(issues).toEqual([
      { path: 'servers[0].id', message: expect.stringContaining('send "my-server" instead') },
    ]);
  });

  it('suggests the transport from the fields present', () => {
    const issues = issuesOf(() =>
      validateSettings({
        servers: [
          { id: 'a', command: 'npx' },
          { id: 'b', url: 'https://x' },
        ],
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(['servers[0].transport', 'servers[1].transport']);
    expect(issues[0]?.message).toContain('probably "stdio"');
    expect(issues[1]?.message).toContain('probably "http"');
  });

  it('collects every issue at once, with paths', () => {
    const issues = issuesOf(() =>
      validateSettings({
        servers: [
          { id: 'a', transport: 'http', url: 'ftp://x' },
          { id: 'a', transport: 'stdio', command: 'x' },
          { id: 'c', transport: 'stdio', command: '', env: { PORT: 8080 } },
        ],
        policies: { default: 'maybe' },
        toolSearch: { maxSearchLimit: 80, enabled: true },
        cardTimeoutMs: -1,
        colour: 'blue',
      }),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(
      [
        'cardTimeoutMs',
        'colour',
        'policies.default',
        'servers[0].url',
        'servers[1].id',
        'servers[2].command',
        'servers[2].env.PORT',
        'toolSearch.enabled',
        'toolSearch.maxSearchLimit',
      ].sort(),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(byPath['servers[2].env.PORT']).toContain('quote numbers');
    expect(byPath['toolSearch.maxSearchLimit']).toContain('from 1 to 50');
    expect(byPath.colour).toContain('not a known field');
  });

  it('bounds searchDefaultLimit by maxSearchLimit', () => {
    const issues = issuesOf(() =>
      validateSettings({ toolSearch: { maxSearchLimit: 5, searchDefaultLimit: 6 } }),
    );
    expect(issues).toEqual([
      { path: 'toolSearch.searchDefaultLimit', message: expect.stringContaining('from 1 to 5') },
    ]);
  });

  it('refuses an agent token in settings and says where it belongs', () => {
    const issues = issuesOf(() =>
      validateSettings({
        agents: [
          {
            id: 'a1',
            name: 'x',
            contextLengthTokens: 100000,
            createdAt: '2026-01-01T00:00:00Z',
            token: 'abc',
          },
        ],
      }),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toContain('secret store');
  });

  it('puts the paths into the human message too', () => {
    expect(() => validateSettings({ callTimeoutMs: 'soon' })).toThrow(/callTimeoutMs must be a whole number/);
  });
});
