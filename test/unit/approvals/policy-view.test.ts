import { describe, expect, it } from 'vitest';
import { decidePolicy, type PolicyRule } from '../../../src/approvals/policy.js';
import { type PolicySettingsLike, policyConfigFromSettings } from '../../../src/approvals/policy-settings.js';
import { policyRuleId, policyRuleViews, toolPolicyView } from '../../../src/approvals/policy-view.js';
import { withAlwaysAllowRule } from '../../../src/approvals/settings.js';
import { validateSettings } from '../../../src/host/settings-document.js';

const ALWAYS: PolicyRule = {
  toolKind: 'mcp',
  serverId: 'files',
  toolName: 'write_file',
  policy: 'allow',
  definitionHash: 'h1',
  savedAt: '2026-11-30T18:05:00.000Z',
  savedFrom: 'card',
};

const policies: PolicySettingsLike = {
  default: 'ask',
  servers: { github: 'deny' },
  connectors: {},
  tools: { mcp__files__delete_file: 'deny', mcp__github__get_issue: 'allow', mcp__memory__store: 'allow' },
  rules: [
    ALWAYS,
    { toolKind: 'mcp' as const, serverId: 'memory', policy: 'deny' },
    { toolKind: 'mcp' as const, serverId: 'files', toolName: 'move_file', policy: 'ask' },
  ],
};
const servers = [{ id: 'files', trusted: true }, { id: 'github' }, { id: 'memory' }];

/** The view of one tool under `policies`, through the same decision the gate makes. */
function view(
  serverId: string,
  toolName: string,
  extra: { definitionHash?: string; readOnly?: boolean } = {},
) {
  const config = policyConfigFromSettings(policies, servers);
  const decision = decidePolicy(config, {
    toolKind: 'mcp',
    serverId,
    toolName,
    ...(extra.definitionHash === undefined ? {} : { definitionHash: extra.definitionHash }),
    ...(extra.readOnly ? { annotations: { readOnlyHint: true } } : {}),
  });
  return toolPolicyView(
    { toolKind: 'mcp', serverId, toolName },
    decision,
    policies.tools[`mcp__${serverId}__${toolName}`],
  );
}

describe('toolPolicyView', () => {
  it('names where the effective policy comes from', () => {
    expect(view('files', 'delete_file')).toEqual({
      setting: 'deny',
      effective: 'deny',
      source: 'tool',
      reason: 'Set for this tool.',
    });
    expect(view('github', 'create_issue')).toEqual({
      effective: 'deny',
      source: 'server',
      reason: 'Set for its server "github".',
    });
    expect(view('github', 'get_issue')).toMatchObject({
      setting: 'allow',
      effective: 'allow',
      source: 'tool',
    });
    expect(view('files', 'read_file')).toEqual({
      effective: 'ask',
      source: 'default',
      reason: 'The default policy.',
    });
    expect(view('files', 'read_file', { readOnly: true })).toMatchObject({
      effective: 'allow',
      source: 'read-only',
    });
  });

  it('says when an "always allow" from a card decides, only while the definition matches', () => {
    expect(view('files', 'write_file', { definitionHash: 'h1' })).toEqual({
      effective: 'allow',
      source: 'always-allow',
      reason: 'Always allow, saved from an approval card on 2026-11-30.',
    });
    expect(view('files', 'write_file', { definitionHash: 'h2' })).toMatchObject({
      effective: 'ask',
      source: 'default',
    });
  });

  it('shows a rule overriding the tool’s own setting, and rules that cover look-alike names', () => {
    // The tool says allow, but a whole-server deny rule wins (deny is judged first).
    expect(view('memory', 'store')).toEqual({
      setting: 'allow',
      effective: 'deny',
      source: 'rule',
      reason: 'A saved rule denies every tool of server "memory".',
    });
    expect(view('files', 'Move-File')).toEqual({
      effective: 'ask',
      source: 'rule',
      reason: 'A saved rule for "move_file" asks before look-alike names such as this one.',
    });
    expect(view('files', 'move_file').reason).toBe('A saved rule asks before this tool.');
  });

  it('says when the default is the run-only --policy', () => {
    const decision = decidePolicy(
      { defaultPolicy: 'allow' },
      { toolKind: 'mcp' as const, serverId: 'x', toolName: 'y' },
    );
    expect(
      toolPolicyView({ toolKind: 'mcp' as const, serverId: 'x', toolName: 'y' }, decision, undefined, true)
        .reason,
    ).toBe('The default policy for this run (--policy).');
  });
});

describe('policyRuleViews', () => {
  const lookup = (hashes: Record<string, string>) => (key: { serverId: string; toolName: string }) => {
    const hash = hashes[`${key.serverId}/${key.toolName}`];
    return hash === undefined
      ? undefined
      : { name: `mcp__${key.serverId}__${key.toolName}`, definitionHash: hash };
  };

  it('describes each rule, lists identical rules once and says whether an always-allow still matches', () => {
    const rules = [...policies.rules!, { ...ALWAYS }];
    const current = policyRuleViews(rules, lookup({ 'files/write_file': 'h1' }));
    expect(current).toEqual([
      {
        id: policyRuleId(ALWAYS),
        toolKind: 'mcp',
        serverId: 'files',
        toolName: 'write_file',
        name: 'mcp__files__write_file',
        policy: 'allow',
        kind: 'always-allow',
        savedAt: '2026-11-30T18:05:00.000Z',
        savedFrom: 'card',
        redactOutbound: false,
        definition: 'current',
        description:
          "Always allow, saved from an approval card on 2026-11-30. It matches the tool's current definition.",
      },
      {
        id: policyRuleId({ toolKind: 'mcp' as const, serverId: 'memory', policy: 'deny' }),
        toolKind: 'mcp',
        serverId: 'memory',
        policy: 'deny',
        kind: 'rule',
        redactOutbound: false,
        description: 'Denies every tool of server "memory".',
      },
      expect.objectContaining({
        kind: 'rule',
        toolName: 'move_file',
        description: 'Asks before "move_file" on server "files" and names that look like it.',
      }),
    ]);

    const [changed] = policyRuleViews([ALWAYS], lookup({ 'files/write_file': 'h2' }));
    expect(changed).toMatchObject({ definition: 'changed', name: 'mcp__files__write_file' });
    expect(changed?.description).toContain('definition has changed since: the rule no longer applies');
    const [missing] = policyRuleViews([ALWAYS], lookup({}));
    expect(missing).toMatchObject({ definition: 'unknown' });
    expect(missing?.name).toBeUndefined();
    expect(missing?.description).toContain('not listed now');
  });

  it('mentions outbound redaction and a hand-written allow rule not bound to a definition', () => {
    const [rule] = policyRuleViews(
      [
        {
          toolKind: 'mcp' as const,
          serverId: 'files',
          toolName: 'read_file',
          policy: 'allow',
          redactOutbound: true,
        },
      ],
      lookup({}),
    );
    expect(rule).toMatchObject({ kind: 'rule', redactOutbound: true });
    expect(rule?.definition).toBeUndefined();
    expect(rule?.description).toBe(
      'Allows "read_file" on server "files". The server gets the arguments with secrets replaced.',
    );
  });

  it('says which account an always-allow holds for, in its words and as data', () => {
    const send = { toolKind: 'connectors' as const, serverId: 'slack', toolName: 'SEND_MESSAGE' };
    const everyAccount: PolicyRule = { ...ALWAYS, ...send };
    const work: PolicyRule = { ...everyAccount, account: { alias: 'work' } };
    const views = policyRuleViews(
      [work, { ...everyAccount, account: { default: true } }, everyAccount],
      () => ({
        name: 'connectors__slack__SEND_MESSAGE',
        definitionHash: 'h1',
      }),
    );
    const current = " It matches the tool's current definition.";
    expect(views.map((view) => [view.account, view.description])).toEqual([
      [
        { alias: 'work' },
        `Always allow as account work, saved from an approval card on 2026-11-30.${current}`,
      ],
      [
        { default: true },
        `Always allow as the default account, saved from an approval card on 2026-11-30.${current}`,
      ],
      [undefined, `Always allow, saved from an approval card on 2026-11-30.${current}`],
    ]);
    // Each account's rule is a rule of its own, removed on its own.
    expect(new Set(views.map((view) => view.id)).size).toBe(3);
    const decision = decidePolicy(
      { defaultPolicy: 'ask', rules: [work] },
      { ...send, definitionHash: 'h1', account: { alias: 'work' } },
    );
    expect(toolPolicyView(send, decision, undefined).reason).toBe(
      'Always allow as account work, saved from an approval card on 2026-11-30.',
    );
    const [handWritten] = policyRuleViews(
      [{ ...send, policy: 'allow', account: { default: true } }],
      () => undefined,
    );
    expect(handWritten?.description).toBe('Allows "SEND_MESSAGE" on app "slack" as the default account.');
  });

  it('ids depend on the whole content, not on key order', () => {
    const reordered = Object.fromEntries(Object.entries(ALWAYS).reverse()) as unknown as PolicyRule;
    expect(policyRuleId(reordered)).toBe(policyRuleId(ALWAYS));
    expect(policyRuleId({ ...ALWAYS, definitionHash: 'h2' })).not.toBe(policyRuleId(ALWAYS));
    expect(policyRuleId(ALWAYS)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('rules in the settings file', () => {
  const withRule = (rule: Record<string, unknown>) =>
    validateSettings({ policies: { default: 'ask', servers: {}, tools: {}, rules: [rule] } });

  it('keep when and where an always-allow was saved', () => {
    expect(withRule({ ...ALWAYS }).policies.rules).toEqual([ALWAYS]);
  });

  it('keep the account an always-allow holds for, and read a rule without one as before', () => {
    const work = { ...ALWAYS, serverId: 'slack', toolName: 'SEND_MESSAGE', account: { alias: 'work' } };
    const byDefault = { ...work, account: { default: true } };
    expect(withRule(work).policies.rules).toEqual([work]);
    expect(withRule(byDefault).policies.rules).toEqual([byDefault]);
    // An older file's rule has no account field, and reads back without one.
    const [older] = withRule({ ...ALWAYS }).policies.rules;
    expect(older).toEqual(ALWAYS);
    expect(older).not.toHaveProperty('account');
  });

  it('refuse an account that is not one alias or the default, or on a rule it cannot narrow', () => {
    const messages = (account: unknown, rule: Record<string, unknown> = { ...ALWAYS }) => {
      try {
        withRule({ ...rule, account });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(messages({ alias: 'Work' })).toMatch(
      /policies\.rules\[0\]\.account\.alias must be an account alias \(an alias is 1–32 lower-case/,
    );
    for (const bad of ['work', { alias: 'work', default: true }, { default: false }, {}]) {
      expect(messages(bad)).toMatch(
        /policies\.rules\[0\]\.account must be \{"alias": "work"\} for one account or \{"default": true\}/,
      );
    }
    expect(
      messages({ alias: 'work' }, { toolKind: 'mcp' as const, serverId: 'slack', policy: 'allow' }),
    ).toMatch(/account needs a toolName/);
    expect(
      messages(
        { alias: 'work' },
        { toolKind: 'mcp' as const, serverId: 'slack', toolName: 't', policy: 'deny' },
      ),
    ).toMatch(/account is only for allow rules; a deny rule holds for every account/);
  });

  it('saving "always" again replaces the same account’s rule only', () => {
    const rule = (account: PolicyRule['account'], definitionHash: string): PolicyRule => ({
      toolKind: 'connectors',
      serverId: 'slack',
      toolName: 'SEND_MESSAGE',
      policy: 'allow',
      definitionHash,
      ...(account === undefined ? {} : { account }),
    });
    let rules: PolicyRule[] = [rule(undefined, 'h0')];
    rules = withAlwaysAllowRule(rules, rule({ alias: 'work' }, 'h1'));
    rules = withAlwaysAllowRule(rules, rule({ default: true }, 'h1'));
    rules = withAlwaysAllowRule(rules, rule({ alias: 'work' }, 'h2'));
    expect(rules).toEqual([
      rule(undefined, 'h0'),
      rule({ default: true }, 'h1'),
      rule({ alias: 'work' }, 'h2'),
    ]);
  });

  it('refuse a savedAt that is not a time and a savedFrom other than card, saying what to send', () => {
    expect(() => withRule({ ...ALWAYS, savedAt: 'yesterday' })).toThrow(
      /policies\.rules\[0\]\.savedAt must be an ISO date and time/,
    );
    expect(() => withRule({ ...ALWAYS, savedFrom: 'agent' })).toThrow(
      /policies\.rules\[0\]\.savedFrom can only be "card"/,
    );
  });
});
