import { describe, expect, it } from 'vitest';
import {
  isoToLocalInput,
  localInputToIso,
  withField,
  withTimeRange,
} from '../../../renderer/drafts/activity-filter.js';
import { parseContextLength, TOKEN_MASK, visibleConfig } from '../../../renderer/drafts/agent-draft.js';
import { statusOf } from '../../../renderer/drafts/form-status.js';
import {
  canSignIn as canSignInGateway,
  gatewayPatch,
  toGatewayDraft,
} from '../../../renderer/drafts/gateway-draft.js';
import { canSignIn, describeTransport } from '../../../renderer/drafts/server-draft.js';
import { settingsPatchFromDraft, toSettingsDraft } from '../../../renderer/drafts/settings-draft.js';
import { matchesFilter } from '../../../renderer/store/activity-slice.js';
import type { ServerView, SettingsView } from '../../../src/api/ui-api.js';

const settings: SettingsView = {
  toolSearch: {
    enabled: 'auto',
    listing: 'auto',
    thresholdPct: 10,
    listingMaxTokens: 4000,
    maxSearchLimit: 50,
    searchDefaultLimit: 5,
  },
  defaultPolicy: 'ask',
  cardTimeoutMs: 120_000,
  callTimeoutMs: 60_500,
  maxCallTimeoutMs: 600_000,
  preferElicitationCards: false,
  maxResultBytes: 256 * 1024,
  redactionPatterns: ['sk-[a-z]+', 'ghp_\\w+'],
  dataDir: '/data',
  secretStoreKind: 'memory',
  connectors: { enabled: true, gatewayUrl: 'https://gw.example', signedIn: false },
};

const server = (patch: Partial<ServerView> = {}): ServerView => ({
  id: 'files',
  name: 'files',
  status: 'connected',
  enabled: true,
  trusted: false,
  config: {
    id: 'files',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', 'server-filesystem', '/tmp'],
    enabled: true,
  },
  toolCount: 1,
  stderrTail: [],
  ...patch,
});

describe('settings draft', () => {
  it('round-trips the saved settings unchanged', () => {
    const draft = toSettingsDraft(settings);
    expect(draft).toMatchObject({
      cardTimeoutSeconds: '120',
      callTimeoutSeconds: '60.5',
      maxResultKib: '256',
    });
    expect(settingsPatchFromDraft(draft)).toEqual({
      ok: true,
      value: {
        toolSearch: settings.toolSearch,
        defaultPolicy: 'ask',
        cardTimeoutMs: 120_000,
        callTimeoutMs: 60_500,
        maxResultBytes: 256 * 1024,
        redactionPatterns: ['sk-[a-z]+', 'ghp_\\w+'],
      },
    });
  });

  it('drops blank and padded redaction lines', () => {
    const draft = { ...toSettingsDraft(settings), redactionPatterns: '  a+ \n\n   \nb' };
    const patch = settingsPatchFromDraft(draft);
    expect(patch.ok && patch.value.redactionPatterns).toEqual(['a+', 'b']);
  });

  it.each([
    [{ cardTimeoutSeconds: '0' }, 'Timeouts must be positive numbers of seconds.'],
    [{ callTimeoutSeconds: '' }, 'Timeouts must be positive numbers of seconds.'],
    [{ cardTimeoutSeconds: 'soon' }, 'Timeouts must be positive numbers of seconds.'],
    [{ maxResultKib: '-1' }, 'The result size limit must be a positive number of KiB.'],
  ])('refuses %o with a message saying what to fix', (patch, message) => {
    expect(settingsPatchFromDraft({ ...toSettingsDraft(settings), ...patch })).toEqual({
      ok: false,
      message,
    });
  });
});

describe('statusOf', () => {
  it('turns a host outcome or a draft check into the line under a form', () => {
    expect(statusOf({ ok: true, value: 1 })).toEqual({ error: undefined, saved: true });
    expect(statusOf({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'bad url' } })).toEqual({
      error: 'bad url',
      saved: false,
    });
    expect(statusOf({ ok: false, message: 'fix this' })).toEqual({ error: 'fix this', saved: false });
  });
});

describe('gateway draft', () => {
  it('starts from the saved gateway with an empty token', () => {
    expect(toGatewayDraft(settings.connectors)).toEqual({
      url: 'https://gw.example',
      enabled: true,
      token: '',
    });
  });

  it('sends a trimmed URL, and null for an empty one', () => {
    expect(gatewayPatch({ url: ' https://x.example ', enabled: false, token: 't' })).toEqual({
      connectors: { gatewayUrl: 'https://x.example', enabled: false },
    });
    expect(gatewayPatch({ url: '   ', enabled: true, token: '' })).toEqual({
      connectors: { gatewayUrl: null, enabled: true },
    });
  });

  it('signs in only with a token', () => {
    expect(canSignInGateway({ url: '', enabled: true, token: '  ' })).toBe(false);
    expect(canSignInGateway({ url: '', enabled: true, token: 'tok' })).toBe(true);
  });
});

describe('agent draft', () => {
  it.each([
    ['200000', { ok: true, value: 200_000 }],
    ['128k', { ok: true, value: 128 }],
    ['0', { ok: false, message: 'Context length must be a positive number of tokens.' }],
    ['', { ok: false, message: 'Context length must be a positive number of tokens.' }],
  ])('parses the context length %s', (text, expected) => {
    expect(parseContextLength(text)).toEqual(expected);
  });

  it('masks every copy of the token in the shown config until Show', () => {
    const config = '{"token":"abc","again":"abc"}';
    expect(visibleConfig(config, 'abc', false)).toBe(`{"token":"${TOKEN_MASK}","again":"${TOKEN_MASK}"}`);
    expect(visibleConfig(config, 'abc', true)).toBe(config);
    expect(visibleConfig(config, undefined, false)).toBe(config);
  });
});

describe('server draft', () => {
  it('describes the command or URL on one line', () => {
    expect(describeTransport(server())).toBe('npx -y server-filesystem /tmp');
    expect(
      describeTransport(
        server({ config: { id: 'r', transport: 'sse', url: 'https://r.example/sse', enabled: true } }),
      ),
    ).toBe('SSE · https://r.example/sse');
  });

  it('offers Sign in only to a remote server that needs it', () => {
    const remote = { id: 'r', transport: 'http', url: 'https://r.example/mcp', enabled: true } as const;
    expect(canSignIn(server({ status: 'needs-auth', config: remote }))).toBe(true);
    expect(canSignIn(server({ status: 'needs-auth' }))).toBe(false);
    expect(canSignIn(server({ status: 'error', config: remote }))).toBe(false);
  });
});

describe('issue #16: activity time range and fields', () => {
  const now = new Date('2026-09-01T12:00:00Z');
  it('a quick range sets since from now and clears until; any clears both', () => {
    expect(withTimeRange({ toolName: 't', until: 'x' }, 'hour', now)).toEqual({
      toolName: 't',
      since: '2026-09-01T11:00:00.000Z',
    });
    expect(withTimeRange({ since: 'a', until: 'b', text: 'q' }, 'any', now)).toEqual({ text: 'q' });
    expect(withTimeRange({}, 'week', now).since).toBe('2026-08-25T12:00:00.000Z');
  });

  it('round-trips a datetime-local value and drops empty or invalid ones', () => {
    const iso = localInputToIso('2026-09-01T10:30');
    expect(iso).toBeDefined();
    expect(isoToLocalInput(iso)).toBe('2026-09-01T10:30');
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('not a time')).toBeUndefined();
    expect(isoToLocalInput(undefined)).toBe('');
  });

  it('never keeps an empty value in the filter', () => {
    expect(withField({ text: 'a', agentId: 'b' }, 'text', '')).toEqual({ agentId: 'b' });
    expect(withField({}, 'text', 'github')).toEqual({ text: 'github' });
    expect(withField({ since: 's' }, 'since', undefined)).toEqual({});
  });
});

describe('issue #16: the live activity filter is the host rule', () => {
  const entry = {
    id: '1',
    time: '2026-09-01T10:00:00.000Z',
    agentId: 'claude',
    toolName: 'mcp__github__create_issue',
    serverId: 'github',
    arguments: { title: 'Crash on Start' },
    decision: 'allow' as const,
    decidedBy: 'user' as const,
    durationMs: 1,
    resultBytes: 1,
    isError: false,
  };
  it('matches text in any case across fields, every word, and the time range', () => {
    expect(matchesFilter(entry, { text: 'crash GITHUB' })).toBe(true);
    expect(matchesFilter(entry, { text: 'crash gitlab' })).toBe(false);
    expect(matchesFilter(entry, { text: 'by user' })).toBe(true);
    expect(matchesFilter(entry, { since: '2026-09-01T09:00:00Z', until: '2026-09-01T10:00:00Z' })).toBe(true);
    expect(matchesFilter(entry, { since: '2026-09-01T10:00:01Z' })).toBe(false);
    expect(matchesFilter(entry, { since: 'garbage' })).toBe(false);
  });
});
