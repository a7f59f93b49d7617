import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../../src/base/errors.js';
import {
  checkFetchUrl,
  guardedFetch,
  isNonPublicAddress,
  type ResolveHost,
} from '../../../../src/connectors/oauth/url-guard.js';

/** Stands in for DNS: nothing here may reach the network. */
const dns: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'rebind.example': ['93.184.216.34', '10.1.2.3'],
  'metadata.example': ['169.254.169.254'],
  'six.example': ['2606:4700::1111'],
  'mapped.example': ['::ffff:127.0.0.1'],
};
const resolveHost: ResolveHost = async (host) => {
  const found = dns[host];
  if (found === undefined) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

async function refused(url: string, trustedOrigins: string[] = []): Promise<boolean> {
  try {
    await checkFetchUrl(url, { resolveHost, trustedOrigins });
    return false;
  } catch (error) {
    expect(ToolbridgeError.is(error, 'DENIED')).toBe(true);
    return true;
  }
}

describe('isNonPublicAddress', () => {
  it('blocks loopback, private, link-local, ULA, CGNAT, multicast and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
      'not-an-ip',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});

describe('checkFetchUrl', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::1]:8443/',
    'https://127.0.0.1:7777/ui',
    'https://10.0.0.1/',
    'https://metadata.example/',
    'https://rebind.example/',
    'https://mapped.example/',
    'https://unknown.example/',
    'http://public.example/',
    'ftp://public.example/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'https://user:pass@public.example/',
    'not a url',
  ])('refuses %s', async (url) => {
    expect(await refused(url)).toBe(true);
  });

  it('allows https to public hosts, by name or address', async () => {
    expect(await refused('https://public.example/.well-known/oauth-authorization-server')).toBe(false);
    expect(await refused('https://six.example/')).toBe(false);
    expect(await refused('https://93.184.216.34/')).toBe(false);
  });

  it('allows only the exact origin the user typed to be loopback over http', async () => {
    const typed = ['http://127.0.0.1:8123'];
    expect(await refused('http://127.0.0.1:8123/.well-known/oauth-protected-resource', typed)).toBe(false);
    expect(await refused('http://127.0.0.1:8124/token', typed)).toBe(true);
    expect(await refused('http://localhost:8123/token', typed)).toBe(true);
    expect(await refused('https://127.0.0.1:8123/token', typed)).toBe(true);
  });
});

describe('guardedFetch', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('checks every redirect hop and refuses a 302 chain into a private network', async () => {
    const hits: string[] = [];
    const origin = await serve((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/start') res.writeHead(302, { location: '/hop' }).end();
      else res.writeHead(302, { location: 'http://10.0.0.1/internal' }).end();
    });
    const guarded = guardedFetch({ trustedOrigins: [origin], resolveHost });
    const error = await guarded(`${origin}/start`).catch((e: unknown) => e);
    expect(ToolbridgeError.is(error, 'DENIED')).toBe(true);
    expect(String((error as Error).message)).toContain('10.0.0.1');
    expect(hits).toEqual(['/start', '/hop']);
  });

  it('refuses before sending anything when the first URL is not allowed', async () => {
    let calls = 0;
    const guarded = guardedFetch({ resolveHost }, async () => {
      calls += 1;
      return new Response('');
    });
    await expect(guarded('https://169.254.169.254/')).rejects.toMatchObject({ code: 'DENIED' });
    expect(calls).toBe(0);
  });

  it('follows allowed redirects and stops after too many', async () => {
    const origin = await serve((req, res) => {
      const n = Number(req.url?.slice(1) ?? 0);
      if (n >= 3 && n < 100) res.writeHead(200, { 'content-type': 'text/plain' }).end(`done at ${n}`);
      else res.writeHead(302, { location: `/${(n + 1) % 100}` }).end();
    });
    const guarded = guardedFetch({ trustedOrigins: [origin], resolveHost });
    expect(await (await guarded(`${origin}/0`)).text()).toBe('done at 3');
    const loop = guardedFetch({ trustedOrigins: [origin], resolveHost, maxRedirects: 2 });
    await expect(loop(`${origin}/0`)).rejects.toThrow(/more than 2 redirects/);
  });
});
