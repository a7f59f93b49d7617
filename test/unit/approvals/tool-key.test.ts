import { describe, expect, it } from 'vitest';
import { agentFacingName, nameMatchesKey, nameSkeleton } from '../../../src/approvals/tool-key.js';

describe('nameSkeleton', () => {
  it('folds case, NFKC variants, invisible characters, separators and outer spaces', () => {
    const expected = nameSkeleton('mcp__files__delete_file');
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

  it('issue #12: folds letters that only look alike (TR39 confusables: Cyrillic, Greek, rn for m)', () => {
    const expected = nameSkeleton('delete_file');
    for (const variant of [
      'delete_fil\u0435',
      'd\u0435l\u0435t\u0435_fil\u0435',
      'DELETE_FILE',
      'delet\u0435_f\u0456le',
    ]) {
      expect(nameSkeleton(variant), variant).toBe(expected);
    }
    expect(nameSkeleton('da\u0433ger')).not.toBe(nameSkeleton('danger'));
    expect(nameSkeleton('rnove')).toBe(nameSkeleton('move'));
    expect(nameSkeleton('d\u0430nger')).toBe(nameSkeleton('danger'));
  });

  it('keeps names that only share letters apart', () => {
    expect(nameSkeleton('delete_file')).not.toBe(nameSkeleton('delete_files'));
    expect(nameSkeleton('read')).not.toBe(nameSkeleton('reed'));
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
