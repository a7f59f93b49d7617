// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests spell out the literal ${secret:…} reference syntax.
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../../src/host/settings-document.js';
import { validateServerConfig } from '../../../src/servers/settings.js';
import { issuesOf } from '../../helpers/settings-issues.js';

describe('validateServerConfig', () => {
  it('validates one server on its own', () => {
    expect(validateServerConfig({ id: 's', transport: 'sse', url: 'http://127.0.0.1:1/sse' })).toEqual({
      id: 's',
      transport: 'sse',
      url: 'http://127.0.0.1:1/sse',
      enabled: true,
    });
    expect(() =>
      validateServerConfig({ id: 's', transport: 'stdio', command: 'x', url: 'http://a' }),
    ).toThrow(/server\.url is not a known field/);
  });
});

describe("a server's roots", () => {
  it('issue #14: must be absolute folders or file: URIs, and say so', () => {
    const issues = issuesOf(() =>
      validateSettings({
        servers: [{ id: 'a', transport: 'stdio', command: 'x', roots: ['/ok', 'relative/dir', 'https://x'] }],
      }),
    );
    expect(issues).toEqual([
      {
        path: 'servers[0].roots[1]',
        message: expect.stringContaining('must be an absolute folder or a file: URI'),
      },
      { path: 'servers[0].roots[2]', message: expect.stringContaining('"/home/me/projects"') },
    ]);
  });
});

describe("a remote server's pre-registered OAuth client", () => {
  const remote = { id: 'r', transport: 'http', url: 'https://example.com/mcp' };

  it('keeps client id, secret reference and redirect port', () => {
    const oauth = { clientId: 'tb-app', clientSecret: '${secret:r:oauth.clientSecret}', redirectPort: 33418 };
    expect(validateServerConfig({ ...remote, oauth })).toEqual({ ...remote, enabled: true, oauth });
    expect(validateServerConfig({ ...remote, oauth: { clientId: 'tb-app' } })).toMatchObject({
      oauth: { clientId: 'tb-app' },
    });
  });

  it('names each wrong field and never quotes the secret', () => {
    const secret = 'client-secret-canary-77';
    const issues = issuesOf(() =>
      validateSettings({
        servers: [
          { ...remote, oauth: { clientSecret: secret, redirectPort: 70_000, scope: 'x' } },
          { ...remote, id: 's', oauth: 'tb-app' },
          { ...remote, id: 't', oauth: { clientId: ' tb ', clientSecret: 42 } },
          { id: 'u', transport: 'stdio', command: 'x', oauth: { clientId: 'a' } },
        ],
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'servers[0].oauth.scope',
      'servers[0].oauth.clientId',
      'servers[0].oauth.redirectPort',
      'servers[1].oauth',
      'servers[2].oauth.clientId',
      'servers[2].oauth.clientSecret',
      'servers[3].oauth',
    ]);
    expect(issues[2]!.message).toContain('from 1 to 65535');
    expect(JSON.stringify(issues)).not.toContain(secret);
  });
});
