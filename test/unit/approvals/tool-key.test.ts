import { describe, expect, it } from 'vitest';
import {
  agentFacingName,
  nameMatchesKey,
  nameSkeleton,
  ToolNameResolver,
} from '../../../src/approvals/tool-key.js';

const tools = [
  { name: 'mcp__files__delete_file', serverId: 'files', toolName: 'delete_file' },
  { name: 'mcp__files__read_file', serverId: 'files', toolName: 'read_file' },
  { name: 'mcp__a_b__c', serverId: 'a_b', toolName: 'c' },
  { name: 'mcp__a__b_c', serverId: 'a', toolName: 'b_c' },
  { name: 'connectors__gmail__SEND_EMAIL', serverId: 'gmail', toolName: 'SEND_EMAIL' },
];

describe('nameSkeleton', () => {
  it('folds case, NFKC variants, invisible characters, separators and outer spaces', () => {
    const expected = 'mcp_files_delete_file';
    for (const variant of [
      'MCP__Files__Delete_File',
      'ｍｃｐ＿＿ｆｉｌｅｓ＿＿ｄｅｌｅｔｅ＿ｆｉｌｅ',
      'mcp__files__delete\u200b_file\u202e',
      ' mcp--files--delete file\t',
      'mcp__files__delete_\ufb01le',
    ]) {
      expect(nameSkeleton(variant)).toBe(expected);
    }
  });

  it('keeps letters that only look alike apart (Cyrillic е is not e)', () => {
    expect(nameSkeleton('delete_fil\u0435')).not.toBe(nameSkeleton('delete_file'));
  });
});

describe('ToolNameResolver', () => {
  const resolver = new ToolNameResolver(tools);

  it('resolves exact names, including connector names whose tool part is upper case', () => {
    expect(resolver.resolve('mcp__files__read_file')).toMatchObject({
      serverId: 'files',
      toolName: 'read_file',
    });
    expect(resolver.resolve('connectors__gmail__SEND_EMAIL')).toMatchObject({
      serverId: 'gmail',
      toolName: 'SEND_EMAIL',
    });
  });

  it('resolves a sloppy spelling of exactly one known tool to that tool', () => {
    expect(resolver.resolve('mcp__files__Read-File ')?.name).toBe('mcp__files__read_file');
    expect(resolver.resolve('connectors__gmail__send_email')?.name).toBe('connectors__gmail__SEND_EMAIL');
  });

  it('treats an ambiguous spelling as unknown, while exact names stay distinct', () => {
    expect(resolver.resolve('mcp__a_b__c')?.serverId).toBe('a_b');
    expect(resolver.resolve('mcp__a__b_c')?.serverId).toBe('a');
    expect(resolver.resolve('mcp__a__b__c')).toBeUndefined();
    expect(resolver.resolve('MCP__A_B__C')).toBeUndefined();
  });

  it('does not guess missing or extra prefixes', () => {
    expect(resolver.resolve('files__read_file')).toBeUndefined();
    expect(resolver.resolve('mcp__mcp__files__read_file')).toBeUndefined();
    expect(resolver.resolve('connectors__files__read_file')).toBeUndefined();
    expect(resolver.resolve('')).toBeUndefined();
  });
});

describe('agentFacingName / nameMatchesKey', () => {
  it('composes both kinds and matches byte for byte only', () => {
    const key = { serverId: 'files', toolName: 'read_file' };
    expect(agentFacingName('mcp', key)).toBe('mcp__files__read_file');
    expect(agentFacingName('connectors', key)).toBe('connectors__files__read_file');
    expect(nameMatchesKey('mcp__files__read_file', key)).toBe(true);
    expect(nameMatchesKey('connectors__files__read_file', key)).toBe(true);
    expect(nameMatchesKey('mcp__files__read_file ', key)).toBe(false);
    expect(nameMatchesKey('mcp__files__Read_file', key)).toBe(false);
  });
});
