// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests spell out the literal ${secret:…} reference syntax.
import { describe, expect, it } from 'vitest';
import { decidePolicy, type PolicyRule } from '../../../src/approvals/policy.js';
import { policyConfigFromSettings } from '../../../src/approvals/policy-settings.js';
import { createRedactor } from '../../../src/approvals/redaction.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { GatewayClient } from '../../../src/connectors/gateway-client.js';
import {
  connectorGatewayUrl,
  DEFAULT_TOOL_SEARCH,
  defaultSettings,
  migrateSettings,
  parseSettingsValue,
  SETTINGS_VERSION,
  validateServerConfig,
  validateSettings,
  withAlwaysAllowRule,
} from '../../../src/store/settings-schema.js';

function issuesOf(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (error) {
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    return (error as { data: { issues: Array<{ path: string; message: string }> } }).data.issues;
  }
  throw new Error('expected a validation error');
}

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
        tools: { mcp__remote__x: 'ask' },
        rules: [
          { serverId: 'github', toolName: 'create_issue', policy: 'allow', definitionHash: 'a1b2' },
          { serverId: 'remote', policy: 'deny' },
          { serverId: 'gmail', toolName: 'SEND_EMAIL', policy: 'ask', redactOutbound: true },
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
      maxResultBytes: 65_536,
    };
    expect(validateSettings(doc)).toEqual(doc);
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

describe('policies.rules', () => {
  it('defaults to no rules, with or without a policies section', () => {
    expect(validateSettings({}).policies.rules).toEqual([]);
    expect(validateSettings({ policies: { default: 'deny' } }).policies.rules).toEqual([]);
  });

  it('holds exactly what the approvals gate reads: an always-allow rule bound to its hash, redactOutbound', () => {
    const settings = validateSettings({
      servers: [{ id: 'github', transport: 'stdio', command: 'x' }],
      policies: {
        rules: [
          { serverId: 'github', toolName: 'create_issue', policy: 'allow', definitionHash: 'h1' },
          { serverId: 'github', toolName: 'push', policy: 'ask', redactOutbound: true },
        ],
      },
    });
    const config = policyConfigFromSettings(settings.policies, settings.servers);
    const issue = { serverId: 'github', toolName: 'create_issue' };
    expect(decidePolicy(config, { ...issue, definitionHash: 'h1' })).toMatchObject({
      policy: 'allow',
      source: 'rule',
    });
    // A changed definition asks again (the default policy).
    expect(decidePolicy(config, { ...issue, definitionHash: 'h2' })).toMatchObject({
      policy: 'ask',
      source: 'default',
    });
    expect(decidePolicy(config, { serverId: 'github', toolName: 'push' })).toMatchObject({
      policy: 'ask',
      redactOutbound: true,
    });
  });

  it('names each rule field that is wrong, what was wrong and what to send', () => {
    const issues = issuesOf(() =>
      validateSettings({
        policies: {
          rules: [
            { toolName: 'x', policy: 'allow' },
            { serverId: 'a', policy: 'sometimes' },
            { serverId: ' a', policy: 'deny', toolName: '' },
            { serverId: 'github', toolName: 'mcp__github__create_issue', policy: 'deny' },
            { serverId: 'a', policy: 'allow', definitionHash: 'h' },
            { serverId: 'a', toolName: 't', policy: 'deny', definitionHash: 'h' },
            { serverId: 'a', policy: 'ask', redactOutbound: 'yes', colour: 'blue' },
            'allow everything',
          ],
        },
      }),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'policies.rules[0].serverId',
        'policies.rules[1].policy',
        'policies.rules[2].serverId',
        'policies.rules[2].toolName',
        'policies.rules[3].toolName',
        'policies.rules[4].definitionHash',
        'policies.rules[5].definitionHash',
        'policies.rules[6].redactOutbound',
        'policies.rules[6].colour',
        'policies.rules[7]',
      ].sort(),
    );
    expect(byPath['policies.rules[0].serverId']).toMatch(/non-empty string \(the server or connector id/);
    expect(byPath['policies.rules[1].policy']).toBe('must be "allow", "ask" or "deny"; got "sometimes".');
    expect(byPath['policies.rules[2].serverId']).toBe('must not start or end with spaces; send "a".');
    expect(byPath['policies.rules[3].toolName']).toContain('send "create_issue"');
    expect(byPath['policies.rules[4].definitionHash']).toMatch(/needs a toolName/);
    expect(byPath['policies.rules[5].definitionHash']).toMatch(/only for allow rules; a deny rule holds/);
    expect(byPath['policies.rules[6].redactOutbound']).toBe('must be true or false; got "yes".');
    expect(byPath['policies.rules[6].colour']).toContain('allowed here: serverId, toolName, policy');
    expect(byPath['policies.rules[7]']).toContain('"serverId": "github"');
  });

  it('wants a list', () => {
    expect(issuesOf(() => validateSettings({ policies: { rules: {} } }))).toEqual([
      { path: 'policies.rules', message: expect.stringContaining('must be a list of rules like') },
    ]);
  });
});

describe('withAlwaysAllowRule', () => {
  const deny: PolicyRule = { serverId: 'gh', toolName: 'push', policy: 'deny' };
  const other: PolicyRule = { serverId: 'gh', toolName: 'list', policy: 'allow', definitionHash: 'l1' };

  it('replaces the stale allow rule of the same tool and keeps every other rule', () => {
    const old: PolicyRule = { serverId: 'gh', toolName: 'push', policy: 'allow', definitionHash: 'p1' };
    const next = withAlwaysAllowRule([old, deny, other], {
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p2',
    });
    expect(next).toEqual([
      deny,
      other,
      { serverId: 'gh', toolName: 'push', policy: 'allow', definitionHash: 'p2' },
    ]);
    expect(() => validateSettings({ policies: { rules: next } })).not.toThrow();
  });

  it('keeps outbound redaction the user had set on the replaced rule', () => {
    const old: PolicyRule = {
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p1',
      redactOutbound: true,
    };
    const next = withAlwaysAllowRule([old], {
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p2',
    });
    expect(next).toEqual([{ ...old, definitionHash: 'p2' }]);
    // Nothing to carry over: the saved rule gets no redactOutbound field at all.
    const plain = withAlwaysAllowRule([other], { serverId: 'gh', toolName: 'push', policy: 'allow' });
    expect(plain).toEqual([other, { serverId: 'gh', toolName: 'push', policy: 'allow' }]);
    expect('redactOutbound' in plain[1]!).toBe(false);
  });
});

describe('redactionPatterns', () => {
  // Literal secrets pasted as patterns, each broken in a different way.
  const secrets = [
    'sk-CANARYaaaa1111(',
    '[ghp_CANARYbbbb2222',
    '(?<CANARYcccc3333',
    'CANARYdddd4444{2,1}',
    'CANARYeeee5555\\',
  ];

  it('refuses every pattern that does not compile, by position, never quoting it', () => {
    let thrown: unknown;
    try {
      validateSettings({ redactionPatterns: ['ok-[a-z]+', ...secrets] });
    } catch (error) {
      thrown = error;
    }
    expect(ToolbridgeError.is(thrown, 'INVALID_ARGUMENT')).toBe(true);
    const issues = (thrown as { data: { issues: Array<{ path: string; message: string }> } }).data.issues;
    expect(issues.map((i) => i.path)).toEqual(secrets.map((_, index) => `redactionPatterns[${index + 1}]`));
    expect(issues[0]?.message).toMatch(
      /^is refused: Redaction pattern 2 is not a valid regular expression \(.+\)/,
    );
    const everything = JSON.stringify({ message: (thrown as Error).message, issues });
    expect(everything).not.toContain('CANARY');
  });

  it('refuses an empty pattern, which the redactor would refuse at start', () => {
    const issues = issuesOf(() => validateSettings({ redactionPatterns: ['a', ''] }));
    expect(issues).toEqual([{ path: 'redactionPatterns[1]', message: expect.stringContaining('non-empty') }]);
    expect(() => createRedactor(['a', ''])).toThrow();
  });

  it('accepts exactly what the redactor compiles', () => {
    const patterns = ['sk-[A-Za-z0-9]{20,}', '(?<name>x)\\d', 'x|y', '\\bpassword=\\S+'];
    const settings = validateSettings({ redactionPatterns: patterns });
    expect(settings.redactionPatterns).toEqual(patterns);
    expect(createRedactor(settings.redactionPatterns).redactText('password=hunter2')).toBe('[REDACTED]');
  });

  it('does not quote a wrong shape either', () => {
    for (const value of ['sk-CANARY-single', ['ok', 7, 'sk-CANARY-in-list']]) {
      const issues = issuesOf(() => validateSettings({ redactionPatterns: value }));
      expect(issues).toEqual([
        { path: 'redactionPatterns', message: expect.stringContaining('must be a list') },
      ]);
      expect(JSON.stringify(issues)).not.toContain('CANARY');
    }
  });
});

describe('connectors', () => {
  it('defaults to enabled without a gateway, which leaves connectors off', () => {
    const settings = validateSettings({});
    expect(settings.connectors).toEqual({ enabled: true });
    expect(connectorGatewayUrl(settings.connectors)).toBeUndefined();
  });

  it('uses the gateway URL only while enabled; a blank URL means none', () => {
    const on = validateSettings({ connectors: { gatewayUrl: '  https://gw.example.com/api/ ' } }).connectors;
    expect(on).toEqual({ gatewayUrl: 'https://gw.example.com/api/', enabled: true });
    expect(connectorGatewayUrl(on)).toBe('https://gw.example.com/api/');
    const off = validateSettings({
      connectors: { gatewayUrl: 'http://127.0.0.1:8080', enabled: false },
    }).connectors;
    expect(connectorGatewayUrl(off)).toBeUndefined();
    expect(validateSettings({ connectors: { gatewayUrl: ' ' } }).connectors).toEqual({ enabled: true });
  });

  it('says what is wrong with a URL without quoting it', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['ftp://gw.example.com/', /must be an http:\/\/ or https:\/\/ address .*got a "ftp:" address/],
      ['gw.example.com CANARY', /is not a valid URL; enter the gateway's address like "https:/],
      ['https://me:CANARYpw@gw.example.com/', /must not hold a user name or password.*secret store/],
      ['https://gw.example.com/?token=CANARYtok', /must not hold a query .*secret store/],
      ['https://gw.example.com/#CANARY', /must not hold a query \("\?…"\) or fragment/],
      [42, /must be a string like "https:\/\/gateway\.example\.com\/"; got number 42/],
    ];
    for (const [gatewayUrl, message] of cases) {
      const issues = issuesOf(() => validateSettings({ connectors: { gatewayUrl } }));
      expect(issues).toEqual([{ path: 'connectors.gatewayUrl', message: expect.stringMatching(message) }]);
      expect(JSON.stringify(issues)).not.toContain('CANARY');
    }
  });

  it('accepts a URL exactly when the gateway client does', () => {
    const urls = [
      'https://gw.example.com',
      'http://127.0.0.1:9000/base',
      'HTTPS://GW.EXAMPLE.COM/v1/',
      'ftp://gw.example.com/',
      'https://u:p@gw.example.com/',
      'not a url',
    ];
    for (const gatewayUrl of urls) {
      let schemaOk = true;
      try {
        validateSettings({ connectors: { gatewayUrl } });
      } catch {
        schemaOk = false;
      }
      let clientOk = true;
      try {
        new GatewayClient({ baseUrl: gatewayUrl, token: undefined });
      } catch {
        clientOk = false;
      }
      expect(schemaOk, gatewayUrl).toBe(clientOk);
    }
  });

  it('refuses a token in settings and says where it belongs, and other wrong fields', () => {
    const issues = issuesOf(() =>
      validateSettings({ connectors: { token: 'CANARY', enabled: 'yes', url: 'https://x' } }),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(Object.keys(byPath).sort()).toEqual(['connectors.enabled', 'connectors.token', 'connectors.url']);
    expect(byPath['connectors.token']).toMatch(/secret store, never in settings\.json/);
    expect(byPath['connectors.url']).toContain('allowed here: gatewayUrl, enabled');
    expect(JSON.stringify(issues)).not.toContain('CANARY');
    expect(issuesOf(() => validateSettings({ connectors: 'https://me:CANARY@gw.example.com/' }))).toEqual([
      { path: 'connectors', message: expect.stringMatching(/like \{"gatewayUrl".*got a string\.$/) },
    ]);
    expect(issuesOf(() => validateSettings({ connectors: true }))).toEqual([
      { path: 'connectors', message: expect.stringContaining('must be an object like {"gatewayUrl"') },
    ]);
  });
});

describe('validateServerConfig', () => {
  it('validates one server on its own', () => {
    expect(validateServerConfig({ id: 's', transport: 'sse', url: 'http://127.0.0.1:1/sse' })).toEqual({
      id: 's',
      transport: 'sse',
      url: 'http://127.0.0.1:1/sse',
      enabled: true,
    });
    expect(() =>
      validateServerConfig({ id: 's', transport: 'stdio', command: 'x', url: 'http://a' }),
    ).toThrow(/server\.url is not a known field/);
  });
});

describe("a remote server's pre-registered OAuth client", () => {
  const remote = { id: 'r', transport: 'http', url: 'https://example.com/mcp' };

  it('keeps client id, secret reference and redirect port', () => {
    const oauth = { clientId: 'tb-app', clientSecret: '${secret:r:oauth.clientSecret}', redirectPort: 33418 };
    expect(validateServerConfig({ ...remote, oauth })).toEqual({ ...remote, enabled: true, oauth });
    expect(validateServerConfig({ ...remote, oauth: { clientId: 'tb-app' } })).toMatchObject({
      oauth: { clientId: 'tb-app' },
    });
  });

  it('names each wrong field and never quotes the secret', () => {
    const secret = 'client-secret-canary-77';
    const issues = issuesOf(() =>
      validateSettings({
        servers: [
          { ...remote, oauth: { clientSecret: secret, redirectPort: 70_000, scope: 'x' } },
          { ...remote, id: 's', oauth: 'tb-app' },
          { ...remote, id: 't', oauth: { clientId: ' tb ', clientSecret: 42 } },
          { id: 'u', transport: 'stdio', command: 'x', oauth: { clientId: 'a' } },
        ],
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'servers[0].oauth.scope',
      'servers[0].oauth.clientId',
      'servers[0].oauth.redirectPort',
      'servers[1].oauth',
      'servers[2].oauth.clientId',
      'servers[2].oauth.clientSecret',
      'servers[3].oauth',
    ]);
    expect(issues[2]!.message).toContain('from 1 to 65535');
    expect(JSON.stringify(issues)).not.toContain(secret);
  });
});

describe('migrateSettings', () => {
  it('treats a document without a version as the current one', () => {
    expect(migrateSettings({ servers: [] })).toEqual({
      value: { servers: [], version: SETTINGS_VERSION },
      fromVersion: SETTINGS_VERSION,
    });
  });

  it('runs each step from the old version up to the current one', () => {
    const steps = [
      (raw: Record<string, unknown>) => ({ ...raw, renamed: raw.old }),
      (raw: Record<string, unknown>) => ({ ...raw, third: true }),
    ];
    expect(migrateSettings({ version: 1, old: 'x' }, steps, 3)).toEqual({
      value: { version: 3, old: 'x', renamed: 'x', third: true },
      fromVersion: 1,
    });
    expect(migrateSettings({ version: 2 }, steps, 3).value).toEqual({ version: 3, third: true });
  });

  it('reads a version-1 document as version 2 with the new sections at their defaults', () => {
    const v1 = {
      version: 1,
      servers: [{ id: 'a', transport: 'stdio', command: 'x', enabled: true }],
      policies: { default: 'deny', servers: {}, tools: {} },
    };
    const { settings, fromVersion } = parseSettingsValue(v1);
    expect(fromVersion).toBe(1);
    expect(settings.version).toBe(2);
    expect(settings.policies).toEqual({ default: 'deny', servers: {}, tools: {}, rules: [] });
    expect(settings.connectors).toEqual({ enabled: true });
    expect(settings.servers).toEqual(v1.servers);
  });

  it('refuses a file from a newer Toolbridge with advice', () => {
    expect(() => migrateSettings({ version: SETTINGS_VERSION + 1 })).toThrow(
      /newer Toolbridge.*Update Toolbridge/,
    );
  });

  it('refuses a document that is not an object', () => {
    expect(() => migrateSettings([1, 2])).toThrow(/must be a JSON object; got a list/);
  });
});
