import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src/agents/http-response.js';
import { SESSION_REVOKED_CLOSE_CODE } from '../../../src/web/web-ui.js';
import { createFakeApi } from './fake-api.js';
import {
  closed,
  openSignedInSocket,
  openSocket,
  rawRequest,
  signIn,
  startUi,
  type UiUnderTest,
} from './web-test-kit.js';

let ui: UiUnderTest;
beforeEach(async () => {
  ui = await startUi(createFakeApi({ listServers: async () => [] }));
});
afterEach(async () => {
  await ui.close();
});

const jsonPost = (origin: string) => ({
  'Content-Type': 'application/json',
  'X-Toolbridge-CSRF': '1',
  Origin: origin,
});

describe('WebUi static files', () => {
  it('serves index.html at / with the CSP and frame headers and no CORS header', async () => {
    const res = await rawRequest(ui.port, { path: '/' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Toolbridge</title>');
    expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(ui.port));
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves hashed assets as immutable', async () => {
    const res = await rawRequest(ui.port, { path: '/assets/app-abc123.js' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/%5c..%5csecret.txt',
    '/index.html%00.js',
    '/leak.txt',
    '/%E0%A4%A',
  ])('never serves anything outside the renderer folder: %s', async (path) => {
    const res = await rawRequest(ui.port, { path });
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('TOP SECRET');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('refuses methods other than GET and HEAD on pages', async () => {
    const res = await rawRequest(ui.port, {
      method: 'POST',
      path: '/',
      headers: jsonPost(ui.origin),
      body: '{}',
    });
    expect(res.status).toBe(405);
  });
});

describe('WebUi sign-in', () => {
  it('trades the launch secret once for an HttpOnly SameSite=Strict cookie; a replay gets 401', async () => {
    const first = await rawRequest(ui.port, {
      method: 'POST',
      path: '/api/session',
      headers: jsonPost(ui.origin),
      body: JSON.stringify({ secret: ui.secret }),
    });
    expect(first.status).toBe(200);
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^toolbridge_ui_${ui.port}=[A-Za-z0-9_-]{43}; `));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');

    const replay = await rawRequest(ui.port, {
      method: 'POST',
      path: '/api/session',
      headers: jsonPost(ui.origin),
      body: JSON.stringify({ secret: ui.secret }),
    });
    expect(replay.status).toBe(401);
    expect(replay.headers['set-cookie']).toBeUndefined();

    const check = await rawRequest(ui.port, {
      path: '/api/session',
      headers: { Cookie: cookie.split(';')[0]! },
    });
    expect(check.status).toBe(200);
    expect((await rawRequest(ui.port, { path: '/api/session' })).status).toBe(401);
  });

  it('refuses a wrong secret with 401', async () => {
    const res = await rawRequest(ui.port, {
      method: 'POST',
      path: '/api/session',
      headers: jsonPost(ui.origin),
      body: JSON.stringify({ secret: `${ui.secret}x` }),
    });
    expect(res.status).toBe(401);
  });

  it.each([
    ['a text/plain body', { 'Content-Type': 'text/plain', 'X-Toolbridge-CSRF': '1' }],
    ['a form body', { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Toolbridge-CSRF': '1' }],
    ['no CSRF header', { 'Content-Type': 'application/json' }],
    ['Sec-Fetch-Site: cross-site', { ...jsonPost(''), Origin: '', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a state change with %s (403), and the secret stays unspent', async (_label, headers) => {
    const clean = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
    const res = await rawRequest(ui.port, {
      method: 'POST',
      path: '/api/session',
      headers: clean,
      body: JSON.stringify({ secret: ui.secret }),
    });
    expect(res.status).toBe(403);
    await expect(signIn(ui)).resolves.toMatch(/^toolbridge_ui_/);
  });

  it.each([
    'http://evil.example',
    'null',
    'http://127.0.0.1:9999',
    'http://localhost.evil.example',
    'https://127.0.0.1',
  ])('refuses the foreign Origin %s on every route, without any CORS header', async (origin) => {
    for (const request of [
      { method: 'POST', path: '/api/session', body: JSON.stringify({ secret: ui.secret }) },
      { method: 'GET', path: '/api/session' },
      { method: 'GET', path: '/' },
    ]) {
      const res = await rawRequest(ui.port, { ...request, headers: { ...jsonPost(origin) } });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    const res = await rawRequest(ui.port, { path: '/', headers: { Host: `attacker.example:${ui.port}` } });
    expect(res.status).toBe(403);
  });
});

describe('WebUi WebSocket upgrade', () => {
  it('refuses a socket with the right Origin but no cookie (401)', async () => {
    const result = await openSocket(ui, { Origin: ui.origin });
    expect(result).toEqual({ status: 401 });
  });

  it('refuses a socket with a cookie but a foreign or missing Origin (403)', async () => {
    const cookie = await signIn(ui);
    expect(await openSocket(ui, { Origin: 'http://127.0.0.1:9999', Cookie: cookie })).toEqual({
      status: 403,
    });
    expect(await openSocket(ui, { Cookie: cookie })).toEqual({ status: 403 });
  });

  it('refuses a cookie minted for another port', async () => {
    const cookie = await signIn(ui);
    const foreign = cookie.replace(`toolbridge_ui_${ui.port}=`, 'toolbridge_ui_1=');
    expect(await openSocket(ui, { Origin: ui.origin, Cookie: foreign })).toEqual({ status: 401 });
  });

  it('rotation closes every open socket and the old cookie no longer works', async () => {
    const cookie = await signIn(ui);
    const opened = await openSocket(ui, { Origin: ui.origin, Cookie: cookie });
    if (!('ws' in opened)) throw new Error('expected an open socket');
    const closing = closed(opened.ws);
    const nextUrl = ui.webUi.rotate(ui.base);
    // The server closes it with the revocation code; a socket left open would hang here.
    expect((await closing).code).toBe(SESSION_REVOKED_CLOSE_CODE);
    expect(await openSocket(ui, { Origin: ui.origin, Cookie: cookie })).toEqual({ status: 401 });
    const newSecret = new URL(nextUrl).hash.replace('#secret=', '');
    expect(newSecret).not.toBe(ui.secret);
    await expect(signIn(ui, ui.secret)).rejects.toThrow('401');
    await expect(signIn(ui, newSecret)).resolves.toMatch(/^toolbridge_ui_/);
  });

  it('a signed-in socket reaches the API', async () => {
    const ws = await openSignedInSocket(ui);
    const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    ws.send(JSON.stringify({ id: 1, method: 'listServers', params: [] }));
    expect(JSON.parse(await reply)).toEqual({ type: 'reply', id: 1, reply: { ok: true, value: [] } });
    ws.close();
  });
});
