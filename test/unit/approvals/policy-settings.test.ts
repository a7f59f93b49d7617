import { describe, expect, it } from 'vitest';
import { decidePolicy } from '../../../src/approvals/policy.js';
import { keysForName, policyConfigFromSettings } from '../../../src/approvals/policy-settings.js';

describe('keysForName', () => {
  it('splits names with the configured server ids, including ids that contain __', () => {
    expect(keysForName('mcp__files__read_file', ['files'])).toEqual([
      { toolKind: 'mcp', serverId: 'files', toolName: 'read_file' },
    ]);
    expect(keysForName('mcp__a__b__c', ['a', 'a__b'])).toEqual([
      { toolKind: 'mcp', serverId: 'a', toolName: 'b__c' },
      { toolKind: 'mcp', serverId: 'a__b', toolName: 'c' },
    ]);
    expect(keysForName('mcp__gone__tool', [])).toEqual([
      { toolKind: 'mcp', serverId: 'gone', toolName: 'tool' },
    ]);
    expect(keysForName('connectors__gmail__SEND_EMAIL', [])).toEqual([
      { toolKind: 'connectors', serverId: 'gmail', toolName: 'SEND_EMAIL' },
    ]);
    for (const bad of ['read_file', 'mcp__files__', 'mcp____x', 'connectors__gmail', 'MCP__files__x']) {
      expect(keysForName(bad, ['files']), bad).toEqual([]);
    }
  });
});

describe('policyConfigFromSettings', () => {
  const config = policyConfigFromSettings(
    {
      default: 'ask',
      servers: { files: 'allow', github: 'deny' },
      connectors: {},
      tools: {
        mcp__files__delete_file: 'deny',
        mcp__github__get_issue: 'allow',
        mcp__a__b__c: 'allow',
        mcp__a__b__d: 'deny',
      },
      rules: [
        {
          toolKind: 'mcp',
          serverId: 'memory',
          toolName: 'store',
          policy: 'allow',
          definitionHash: 'h1',
          redactOutbound: true,
        },
      ],
    },
    [{ id: 'files', trusted: true }, { id: 'github' }, { id: 'a' }, { id: 'a__b' }, { id: 'memory' }],
  );
  const decide = (serverId: string, toolName: string, extra = {}) =>
    decidePolicy(config, { toolKind: 'mcp', serverId, toolName, ...extra }).policy;

  it('a tool setting beats its server setting, which beats the default', () => {
    expect(decide('files', 'read_file')).toBe('allow');
    expect(decide('files', 'delete_file')).toBe('deny');
    expect(decide('github', 'get_issue')).toBe('allow');
    expect(decide('github', 'create_issue')).toBe('deny');
    expect(decide('memory', 'recall')).toBe('ask');
  });

  it('carries the trusted flag and the extra rules', () => {
    expect(config.servers?.files).toEqual({ trusted: true, policy: 'allow' });
    expect(decide('memory', 'store', { definitionHash: 'h1' })).toBe('allow');
    expect(decide('memory', 'store', { definitionHash: 'h2' })).toBe('ask');
  });

  it('an ambiguous name denies under both readings and allows under neither', () => {
    expect(decide('a', 'b__d')).toBe('deny');
    expect(decide('a__b', 'd')).toBe('deny');
    expect(decide('a', 'b__c')).toBe('ask');
    expect(decide('a__b', 'c')).toBe('ask');
  });
});
