// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests spell out the literal ${secret:…} reference syntax.
import { describe, expect, it } from 'vitest';
import { decidePolicy, type PolicyRule } from '../../../src/approvals/policy.js';
import { policyConfigFromSettings } from '../../../src/approvals/policy-settings.js';
import { createRedactor } from '../../../src/approvals/redaction.js';
import { withAlwaysAllowRule } from '../../../src/approvals/settings.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { validateSettings } from '../../../src/host/settings-document.js';
import { issuesOf } from '../../helpers/settings-issues.js';

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
          {
            toolKind: 'mcp' as const,
            serverId: 'github',
            toolName: 'create_issue',
            policy: 'allow',
            definitionHash: 'h1',
          },
          {
            toolKind: 'mcp' as const,
            serverId: 'github',
            toolName: 'push',
            policy: 'ask',
            redactOutbound: true,
          },
        ],
      },
    });
    const config = policyConfigFromSettings(settings.policies, settings.servers);
    const issue = { toolKind: 'mcp' as const, serverId: 'github', toolName: 'create_issue' };
    expect(decidePolicy(config, { ...issue, definitionHash: 'h1' })).toMatchObject({
      policy: 'allow',
      source: 'rule',
    });
    // A changed definition asks again (the default policy).
    expect(decidePolicy(config, { ...issue, definitionHash: 'h2' })).toMatchObject({
      policy: 'ask',
      source: 'default',
    });
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'github', toolName: 'push' }),
    ).toMatchObject({
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
            {
              toolKind: 'mcp' as const,
              serverId: 'github',
              toolName: 'mcp__github__create_issue',
              policy: 'deny',
            },
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
    expect(byPath['policies.rules[6].colour']).toContain(
      'allowed here: toolKind, serverId, toolName, policy',
    );
    expect(byPath['policies.rules[7]']).toContain('"serverId": "github"');
  });

  it('wants a list', () => {
    expect(issuesOf(() => validateSettings({ policies: { rules: {} } }))).toEqual([
      { path: 'policies.rules', message: expect.stringContaining('must be a list of rules like') },
    ]);
  });
});

describe('withAlwaysAllowRule', () => {
  const deny: PolicyRule = { toolKind: 'mcp' as const, serverId: 'gh', toolName: 'push', policy: 'deny' };
  const other: PolicyRule = {
    toolKind: 'mcp' as const,
    serverId: 'gh',
    toolName: 'list',
    policy: 'allow',
    definitionHash: 'l1',
  };

  it('replaces the stale allow rule of the same tool and keeps every other rule', () => {
    const old: PolicyRule = {
      toolKind: 'mcp' as const,
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p1',
    };
    const next = withAlwaysAllowRule([old, deny, other], {
      toolKind: 'mcp',
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p2',
    });
    expect(next).toEqual([
      deny,
      other,
      { toolKind: 'mcp' as const, serverId: 'gh', toolName: 'push', policy: 'allow', definitionHash: 'p2' },
    ]);
    expect(() => validateSettings({ policies: { rules: next } })).not.toThrow();
  });

  it('keeps outbound redaction the user had set on the replaced rule', () => {
    const old: PolicyRule = {
      toolKind: 'mcp',
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p1',
      redactOutbound: true,
    };
    const next = withAlwaysAllowRule([old], {
      toolKind: 'mcp',
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
      definitionHash: 'p2',
    });
    expect(next).toEqual([{ ...old, definitionHash: 'p2' }]);
    // Nothing to carry over: the saved rule gets no redactOutbound field at all.
    const plain = withAlwaysAllowRule([other], {
      toolKind: 'mcp' as const,
      serverId: 'gh',
      toolName: 'push',
      policy: 'allow',
    });
    expect(plain).toEqual([
      other,
      { toolKind: 'mcp' as const, serverId: 'gh', toolName: 'push', policy: 'allow' },
    ]);
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
