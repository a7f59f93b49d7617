import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  decidePolicy,
  type PolicyConfig,
  type RuleAccount,
} from '../../../src/approvals/policy.js';

const key = { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file' };

describe('decidePolicy', () => {
  it('falls back to the server setting, then the default, which is ask', () => {
    expect(DEFAULT_POLICY).toBe('ask');
    expect(decidePolicy({ defaultPolicy: DEFAULT_POLICY }, key)).toMatchObject({
      policy: 'ask',
      source: 'default',
    });
    const config: PolicyConfig = { defaultPolicy: 'ask', servers: { files: { policy: 'allow' } } };
    expect(decidePolicy(config, key)).toMatchObject({ policy: 'allow', source: 'server' });
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'other', toolName: 'x' }),
    ).toMatchObject({ policy: 'ask' });
  });

  it('issue #16: a tool with a suspicious description asks until the person sets its own policy', () => {
    const subject = { ...key, suspicious: true, annotations: { readOnlyHint: true } };
    for (const config of [
      { defaultPolicy: 'allow' },
      { defaultPolicy: 'ask', servers: { files: { policy: 'allow', trusted: true } } },
      { defaultPolicy: 'ask', rules: [{ toolKind: 'mcp' as const, serverId: 'files', policy: 'allow' }] },
    ] satisfies PolicyConfig[]) {
      expect(decidePolicy(config, subject)).toMatchObject({ policy: 'ask', source: 'suspicious' });
      expect(decidePolicy(config, { ...subject, suspicious: false }).policy).toBe('allow');
    }
    // Its own rule is the review: the person read it and chose.
    const reviewed: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [{ toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'allow' }],
    };
    expect(decidePolicy(reviewed, subject)).toMatchObject({ policy: 'allow', source: 'rule' });
    // It never loosens a deny.
    expect(decidePolicy({ defaultPolicy: 'deny' }, subject).policy).toBe('deny');
  });

  it('a tool rule beats the server fallback', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      servers: { files: { policy: 'ask' } },
      rules: [{ toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'allow' }],
    };
    expect(decidePolicy(config, key)).toMatchObject({ policy: 'allow', source: 'rule' });
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'files', toolName: 'read_file' }).policy,
    ).toBe('ask');
  });

  it('judges deny, then ask, then allow: a broad deny beats a narrow allow, ask beats allow', () => {
    const broadDeny: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'allow' },
        { toolKind: 'mcp' as const, serverId: 'files', policy: 'deny' },
      ],
    };
    expect(decidePolicy(broadDeny, key)).toMatchObject({ policy: 'deny', rule: { policy: 'deny' } });
    const askAndAllow: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'allow' },
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'ask' },
      ],
    };
    expect(decidePolicy(askAndAllow, key).policy).toBe('ask');
  });

  it('an allow rule bound to a definition hash stops holding when the definition changes', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'ask',
      rules: [
        {
          toolKind: 'mcp' as const,
          serverId: 'files',
          toolName: 'delete_file',
          policy: 'allow',
          definitionHash: 'h1',
        },
      ],
    };
    expect(decidePolicy(config, { ...key, definitionHash: 'h1' }).policy).toBe('allow');
    expect(decidePolicy(config, { ...key, definitionHash: 'h2' }).policy).toBe('ask');
    expect(decidePolicy(config, key).policy).toBe('ask');
  });

  describe('accounts (connector tools)', () => {
    const send = {
      toolKind: 'mcp' as const,
      serverId: 'slack',
      toolName: 'SEND_MESSAGE',
      definitionHash: 'h1',
    };
    const work = { alias: 'work' };
    const allowAs = (account?: RuleAccount): PolicyConfig => ({
      defaultPolicy: 'ask',
      rules: [{ ...send, policy: 'allow', ...(account === undefined ? {} : { account }) }],
    });

    it('an allow rule bound to an account holds only for calls under that account', () => {
      const config = allowAs(work);
      expect(decidePolicy(config, { ...send, account: work })).toMatchObject({
        policy: 'allow',
        source: 'rule',
      });
      expect(decidePolicy(config, { ...send, account: { alias: 'personal' } }).policy).toBe('ask');
      // A call that names no account runs as the default one, which may or may not be "work".
      expect(decidePolicy(config, { ...send, account: { default: true } }).policy).toBe('ask');
      // A local call has no account, and an account-bound rule is never one for it.
      expect(decidePolicy(config, send).policy).toBe('ask');
    });

    it('one bound to the default account holds for calls that name none, never for a named alias', () => {
      const config = allowAs({ default: true });
      expect(decidePolicy(config, { ...send, account: { default: true } }).policy).toBe('allow');
      expect(decidePolicy(config, { ...send, account: { alias: 'slack-account' } }).policy).toBe('ask');
      expect(decidePolicy(config, send).policy).toBe('ask');
    });

    it('a rule without an account (saved before accounts were recorded) still holds for every account', () => {
      const config = allowAs();
      for (const account of [work, { alias: 'personal' }, { default: true as const }]) {
        expect(decidePolicy(config, { ...send, account }).policy).toBe('allow');
      }
      expect(decidePolicy(config, send).policy).toBe('allow');
    });

    it('deny and ask rules hold for every account; the account narrows only what an allow covers', () => {
      const config: PolicyConfig = {
        defaultPolicy: 'allow',
        rules: [
          { ...send, policy: 'allow', account: work },
          {
            toolKind: 'mcp' as const,
            serverId: 'slack',
            toolName: 'SEND_MESSAGE',
            policy: 'ask',
            account: { alias: 'other' },
          },
        ],
      };
      expect(decidePolicy(config, { ...send, account: work })).toMatchObject({
        policy: 'ask',
        rule: { policy: 'ask' },
      });
    });
  });

  it('a deny rule keeps holding whatever the definition hash', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        {
          toolKind: 'mcp' as const,
          serverId: 'files',
          toolName: 'delete_file',
          policy: 'deny',
          definitionHash: 'h1',
        },
      ],
    };
    expect(decidePolicy(config, { ...key, definitionHash: 'h2' }).policy).toBe('deny');
  });

  it('deny and ask rules cover look-alike names on the same server; allow rules do not', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'delete_file', policy: 'deny' },
        { toolKind: 'mcp' as const, serverId: 'files', toolName: 'move_file', policy: 'ask' },
      ],
    };
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'files', toolName: 'Delete-File' }).policy,
    ).toBe('deny');
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'files', toolName: 'MOVE_FILE' }).policy,
    ).toBe('ask');
    expect(
      decidePolicy(config, { toolKind: 'mcp' as const, serverId: 'other', toolName: 'delete_file' }).policy,
    ).toBe('allow');
    const allowOnly: PolicyConfig = {
      defaultPolicy: 'ask',
      rules: [{ toolKind: 'mcp' as const, serverId: 'files', toolName: 'read_file', policy: 'allow' }],
    };
    expect(
      decidePolicy(allowOnly, { toolKind: 'mcp' as const, serverId: 'files', toolName: 'Read_File' }).policy,
    ).toBe('ask');
  });

  describe('annotations', () => {
    const readOnly = { ...key, annotations: { readOnlyHint: true } };

    it('a read-only hint relaxes ask to allow only on a server the user trusts', () => {
      const trusted: PolicyConfig = { defaultPolicy: 'ask', servers: { files: { trusted: true } } };
      expect(decidePolicy(trusted, readOnly)).toMatchObject({ policy: 'allow', source: 'read-only' });
      expect(decidePolicy({ defaultPolicy: 'ask' }, readOnly).policy).toBe('ask');
      expect(
        decidePolicy({ defaultPolicy: 'ask', servers: { files: { trusted: false } } }, readOnly).policy,
      ).toBe('ask');
    });

    it('never relaxes a deny, a rule, or a tool that also says it is destructive', () => {
      const trusted = { trusted: true };
      expect(decidePolicy({ defaultPolicy: 'deny', servers: { files: trusted } }, readOnly).policy).toBe(
        'deny',
      );
      expect(
        decidePolicy(
          { defaultPolicy: 'allow', servers: { files: trusted }, rules: [{ ...key, policy: 'ask' }] },
          readOnly,
        ).policy,
      ).toBe('ask');
      const contradictory = { ...key, annotations: { readOnlyHint: true, destructiveHint: true } };
      expect(decidePolicy({ defaultPolicy: 'ask', servers: { files: trusted } }, contradictory).policy).toBe(
        'ask',
      );
    });

    it('from an untrusted server, no annotation relaxes anything', () => {
      const hints = [
        { readOnlyHint: true },
        { destructiveHint: false },
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ];
      for (const annotations of hints) {
        for (const defaultPolicy of ['ask', 'deny'] as const) {
          expect(decidePolicy({ defaultPolicy }, { ...key, annotations }).policy).toBe(defaultPolicy);
        }
      }
    });
  });

  it('asks for outbound redaction when a matching rule or the server says so', () => {
    expect(decidePolicy({ defaultPolicy: 'allow' }, key).redactOutbound).toBe(false);
    expect(
      decidePolicy(
        { defaultPolicy: 'allow', rules: [{ ...key, policy: 'allow', redactOutbound: true }] },
        key,
      ).redactOutbound,
    ).toBe(true);
    expect(
      decidePolicy({ defaultPolicy: 'allow', servers: { files: { redactOutbound: true } } }, key)
        .redactOutbound,
    ).toBe(true);
  });
});
