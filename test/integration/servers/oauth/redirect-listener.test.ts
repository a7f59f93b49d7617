import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../../src/base/errors.js';
import { RedirectListener } from '../../../../src/servers/oauth/redirect-listener.js';

let listener: RedirectListener | undefined;
let now = 1_000_000;

afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start(): Promise<RedirectListener> {
  listener = await RedirectListener.start({ stateTtlMs: 600_000, clock: () => now });
  return listener;
}

async function visit(
  url: string,
  host?: string,
): Promise<{ status: number; body: string; headers: Headers }> {
  if (host === undefined) {
    const response = await fetch(url);
    return { status: response.status, body: await response.text(), headers: response.headers };
  }
  // fetch will not let us forge Host; a raw request can.
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: new Headers() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('RedirectListener', () => {
  it('binds 127.0.0.1 and hands over the code and issuer for the state it issued, once', async () => {
    const l = await start();
    expect(l.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    const { state, response } = l.expect();
    expect(state.length).toBeGreaterThanOrEqual(40);
    const page = await visit(
      `${l.redirectUrl}?code=abc&state=${state}&iss=${encodeURIComponent('https://as.example/')}`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response).toEqual({ code: 'abc', iss: 'https://as.example/' });
    const replay = await visit(`${l.redirectUrl}?code=abc&state=${state}`);
    expect(replay.status).toBe(400);
  });

  it('makes a fresh random state every time', async () => {
    const l = await start();
    const states = new Set(Array.from({ length: 20 }, () => l.expect().state));
    expect(states.size).toBe(20);
  });

  it('rejects a missing, unknown or one-character-different state and keeps waiting for the real one', async () => {
    const l = await start();
    const { state, response } = l.expect();
    let settled = false;
    void response.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    const altered = `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`;
    for (const query of [
      '?code=x',
      `?code=x&state=${altered}`,
      '?code=x&state=',
      `?code=x&state=${state}x`,
    ]) {
      expect((await visit(`${l.redirectUrl}${query}`)).status, query).toBe(400);
    }
    expect(settled).toBe(false);
    await visit(`${l.redirectUrl}?code=real&state=${state}`);
    expect(await response).toEqual({ code: 'real', iss: undefined });
  });

  it('rejects an expired state', async () => {
    const l = await start();
    const { state, response } = l.expect();
    const outcome = response.catch((e: unknown) => e);
    now += 600_001;
    expect((await visit(`${l.redirectUrl}?code=x&state=${state}`)).status).toBe(400);
    expect(ToolbridgeError.is(await outcome, 'TIMEOUT')).toBe(true);
    now -= 600_001;
  });

  it('answers only the exact callback path and loopback Host names', async () => {
    const l = await start();
    const { state, response } = l.expect();
    const base = new URL(l.redirectUrl);
    expect((await visit(`${base.origin}/oauth/callbackx?code=x&state=${state}`)).status).toBe(404);
    expect((await visit(`${base.origin}/oauth/Callback?code=x&state=${state}`)).status).toBe(404);
    expect((await visit(`${l.redirectUrl}?code=x&state=${state}`, 'attacker.example')).status).toBe(403);
    await visit(`${l.redirectUrl}?code=ok&state=${state}`);
    expect((await response).code).toBe('ok');
  });

  it('turns access_denied into DENIED and a cancel into CANCELLED', async () => {
    const l = await start();
    const denied = l.expect();
    const deniedOutcome = denied.response.catch((e: unknown) => e);
    await visit(`${l.redirectUrl}?error=access_denied&state=${denied.state}`);
    expect(ToolbridgeError.is(await deniedOutcome, 'DENIED')).toBe(true);

    const controller = new AbortController();
    const cancelled = l.expect(controller.signal).response.catch((e: unknown) => e);
    controller.abort();
    expect(ToolbridgeError.is(await cancelled, 'CANCELLED')).toBe(true);
  });

  it('rejects whatever is still waiting when closed', async () => {
    const l = await start();
    const waiting = l.expect().response.catch((e: unknown) => e);
    await l.close();
    expect(ToolbridgeError.is(await waiting, 'CANCELLED')).toBe(true);
  });
});
