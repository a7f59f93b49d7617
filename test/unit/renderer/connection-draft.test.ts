import { describe, expect, it } from 'vitest';
import {
  accountStateLabel,
  appStateLabel,
  checkAlias,
  filterConnectorTools,
} from '../../../renderer/drafts/connection-draft.js';
import type { ConnectorAppView, ConnectorToolView } from '../../../src/api/ui-api.js';

const app = (accounts: ConnectorAppView['accounts']): ConnectorAppView => ({
  connector: 'github',
  app: { title: 'GitHub' },
  enabled: true,
  connected: accounts[0]?.connected ?? false,
  accounts,
  disabledTools: [],
});

const tool = (name: string, description: string): ConnectorToolView => ({
  name,
  connector: 'github',
  toolName: name.split('__')[2]!,
  description,
  policy: { effective: 'ask', source: 'default', reason: 'The default policy.' },
  blocked: false,
});

describe('connection draft', () => {
  it('checks an alias as the gateway would, and against the app’s other accounts', () => {
    expect(checkAlias(' work ', ['home'])).toEqual({ ok: true, value: 'work' });
    expect(checkAlias('', ['home'])).toMatchObject({
      ok: false,
      message: expect.stringContaining('Type an alias'),
    });
    expect(checkAlias('Work Account', [])).toMatchObject({
      ok: false,
      message: expect.stringContaining('1–32 lower-case letters'),
    });
    expect(checkAlias('-x', [])).toMatchObject({ ok: false });
    expect(checkAlias('a'.repeat(33), [])).toMatchObject({ ok: false });
    expect(checkAlias('home', ['home', 'work'])).toMatchObject({
      ok: false,
      message: 'This app already has an account "home"; pick another alias.',
    });
    // Renaming to its own alias is not a clash.
    expect(checkAlias('home', ['home'], 'home')).toEqual({ ok: true, value: 'home' });
  });

  it('says each link state in plain words, never "initiated"', () => {
    expect(accountStateLabel({ connected: true, connectionStatus: 'active' })).toBe('connected');
    expect(accountStateLabel({ connected: false, connectionStatus: 'initiated' })).toBe(
      'waiting for you to allow access',
    );
    expect(accountStateLabel({ connected: false, connectionStatus: 'skipped' })).toBe('skipped on a card');
    expect(accountStateLabel({ connected: false, connectionStatus: 'expired' })).toBe('link expired');
    expect(accountStateLabel({ connected: false, connectionStatus: 'failed' })).toBe('could not connect');
    expect(accountStateLabel({ connected: false, connectionStatus: 'not_connected' })).toBe('not connected');
    expect(accountStateLabel({ connected: false })).toBe('not connected');
  });

  it('gives the app its default account’s state, or not connected without accounts', () => {
    expect(appStateLabel(app([]))).toBe('not connected');
    expect(
      appStateLabel(
        app([
          { alias: 'work', default: false, connected: true },
          { alias: 'home', default: true, connected: false, connectionStatus: 'initiated' },
        ]),
      ),
    ).toBe('waiting for you to allow access');
  });

  it('filters tools by every word, in name or description, any case', () => {
    const tools = [
      tool('connectors__github__CREATE_ISSUE', 'Create a new issue.'),
      tool('connectors__github__GET_ME', 'Who am I.'),
    ];
    expect(filterConnectorTools(tools, 'create ISSUE').map((t) => t.toolName)).toEqual(['CREATE_ISSUE']);
    expect(filterConnectorTools(tools, '  ').length).toBe(2);
    expect(filterConnectorTools(tools, 'who issue')).toEqual([]);
  });
});
