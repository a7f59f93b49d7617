import { describe, expect, it } from 'vitest';
import { agentFacingName, nameMatchesKey, nameSkeleton } from '../../../src/approvals/tool-key.js';

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
