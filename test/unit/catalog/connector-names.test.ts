import { describe, expect, it } from 'vitest';
import {
  composeConnectorName,
  isConnectorName,
  parseConnectorName,
  resolveTwins,
  slugCandidates,
} from '../../../src/catalog/connector-names.js';

describe('composeConnectorName', () => {
  it('lower-cases the connector and strips the upper-case connector prefix from the slug', () => {
    expect(composeConnectorName('gmail', 'GMAIL_SEND_EMAIL')).toBe('connectors__gmail__SEND_EMAIL');
    expect(composeConnectorName('CUSTOM_X', 'CUSTOM_X_READ')).toBe('connectors__custom_x__READ');
  });

  it('keeps a slug without the prefix whole, case included', () => {
    expect(composeConnectorName('github', 'list_repos')).toBe('connectors__github__list_repos');
    expect(composeConnectorName('gmail', 'gmail_send')).toBe('connectors__gmail__gmail_send');
    expect(composeConnectorName('gmail', 'FETCH_PROFILE')).toBe('connectors__gmail__FETCH_PROFILE');
  });

  it('does not strip a prefix that would leave nothing', () => {
    expect(composeConnectorName('gmail', 'GMAIL_')).toBe('connectors__gmail__GMAIL_');
  });
});

describe('parseConnectorName', () => {
  it('splits into connector and tool, the tool keeping any further double underscores', () => {
    expect(parseConnectorName('connectors__gmail__SEND_EMAIL')).toEqual({
      connector: 'gmail',
      tool: 'SEND_EMAIL',
    });
    expect(parseConnectorName('connectors__x__A__B')).toEqual({ connector: 'x', tool: 'A__B' });
  });

  it('rejects names without exactly three non-empty parts', () => {
    for (const bad of [
      'connectors__broken',
      'connectors____X',
      'connectors__gmail__',
      'mcp__gmail__X',
      'connectors',
      'connector__gmail__X',
    ]) {
      expect(parseConnectorName(bad), bad).toBeUndefined();
    }
  });

  it('round-trips every composed name', () => {
    const parsed = parseConnectorName(composeConnectorName('Slack', 'SLACK_CHAT_POST_MESSAGE'));
    expect(parsed).toEqual({ connector: 'slack', tool: 'CHAT_POST_MESSAGE' });
  });
});

describe('isConnectorName', () => {
  it('recognises the prefix only', () => {
    expect(isConnectorName('connectors__a__b')).toBe(true);
    expect(isConnectorName('mcp__connectors__b')).toBe(false);
  });
});

describe('slugCandidates', () => {
  it('gives the prefixed slug first and the literal second', () => {
    expect(slugCandidates({ connector: 'gmail', tool: 'SEND_EMAIL' })).toEqual([
      'GMAIL_SEND_EMAIL',
      'SEND_EMAIL',
    ]);
    expect(slugCandidates({ connector: 'custom_x', tool: 'READ' })).toEqual(['CUSTOM_X_READ', 'READ']);
  });
});

describe('resolveTwins', () => {
  const schemaOf = (slug: string) => ({ slug, connector: 'gmail' });

  it('keeps the prefixed twin when it comes first', () => {
    const warnings: string[] = [];
    const kept = resolveTwins([schemaOf('GMAIL_FETCH_PROFILE'), schemaOf('FETCH_PROFILE')], (m) =>
      warnings.push(m),
    );
    expect(kept).toEqual([
      { slug: 'GMAIL_FETCH_PROFILE', connector: 'gmail', name: 'connectors__gmail__FETCH_PROFILE' },
    ]);
    expect(warnings).toHaveLength(1);
  });

  it('keeps the prefixed twin when the literal comes first, in the literal one’s place', () => {
    const warnings: string[] = [];
    const kept = resolveTwins(
      [schemaOf('FETCH_PROFILE'), schemaOf('GMAIL_SEND_EMAIL'), schemaOf('GMAIL_FETCH_PROFILE')],
      (m) => warnings.push(m),
    );
    expect(kept.map((k) => [k.name, k.slug])).toEqual([
      ['connectors__gmail__FETCH_PROFILE', 'GMAIL_FETCH_PROFILE'],
      ['connectors__gmail__SEND_EMAIL', 'GMAIL_SEND_EMAIL'],
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('keeping GMAIL_FETCH_PROFILE');
  });

  it('ignores a repeated slug without a warning', () => {
    const warnings: string[] = [];
    const kept = resolveTwins([schemaOf('GMAIL_X'), schemaOf('GMAIL_X')], (m) => warnings.push(m));
    expect(kept).toHaveLength(1);
    expect(warnings).toEqual([]);
  });
});
