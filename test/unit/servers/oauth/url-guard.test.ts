import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../../src/base/errors.js';
import type { PinnedFetch } from '../../../../src/servers/oauth/pinned-fetch.js';
import {
  checkFetchUrl,
  guardedFetch,
  isLoopbackUrl,
  isNonPublicAddress,
  type ResolveHost,
  type UrlGuardOptions,
} from '../../../../src/servers/oauth/url-guard.js';

/** Stands in for DNS: nothing here may reach the network. */
const dns: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'rebind.example': ['93.184.216.34', '10.1.2.3'],
  'metadata.example': ['169.254.169.254'],
  'six.example': ['2606:4700::1111'],
  'mapped.example': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'lan.localhost': ['10.0.0.7'],
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

describe('issue #14: an authorization server on another loopback port', () => {
  const typed = 'http://127.0.0.1:8123';
  async function refusedFor(url: string, options: UrlGuardOptions): Promise<boolean> {
    return checkFetchUrl(url, { resolveHost, trustedOrigins: [typed], ...options }).then(
      () => false,
      (error: unknown) => {
        expect(ToolbridgeError.is(error, 'DENIED')).toBe(true);
        return true;
      },
    );
  }

  it('issue #14: is allowed for a loopback server, over http or https, by address or as localhost', async () => {
    for (const url of [
      'http://127.0.0.1:9000/.well-known/oauth-authorization-server',
      'https://127.0.0.1:9000/token',
      'http://127.5.6.7:9000/token',
      'http://localhost:9000/authorize',
      'http://[::1]:9000/register',
      // The IPv4-mapped form reaches 127.0.0.1 as well.
      'http://[::ffff:127.0.0.1]:9000/register',
    ]) {
      expect(await refusedFor(url, { loopbackResource: true }), url).toBe(false);
    }
  });

  it('issue #14: a non-loopback server still cannot point at loopback', async () => {
    for (const url of [
      'http://127.0.0.1:9000/token',
      'https://127.0.0.1:9000/token',
      'https://localhost:9000/token',
      'https://[::1]:9000/token',
      'https://mapped.example/token',
    ]) {
      expect(await refusedFor(url, {}), url).toBe(true);
      expect(await refusedFor(url, { loopbackResource: false }), url).toBe(true);
    }
  });

  it('issue #14: a loopback server still cannot point at private, link-local or mapped addresses', async () => {
    for (const url of [
      'http://10.0.0.1/token',
      'https://169.254.169.254/latest/meta-data/',
      'http://lan.localhost:9000/token',
      'http://public.example/token',
    ]) {
      expect(await refusedFor(url, { loopbackResource: true }), url).toBe(true);
    }
  });

  it('issue #14: nor at one of Toolbridge’s own ports', async () => {
    const ownPorts = () => [9000];
    expect(await refusedFor('http://127.0.0.1:9000/token', { loopbackResource: true, ownPorts })).toBe(true);
    expect(await refusedFor('http://localhost:9000/token', { loopbackResource: true, ownPorts })).toBe(true);
    expect(await refusedFor('http://127.0.0.1:9001/token', { loopbackResource: true, ownPorts })).toBe(false);
  });

  it('issue #14: isLoopbackUrl tells a loopback server from any other', () => {
    for (const url of [
      'http://127.0.0.1:1/mcp',
      'http://localhost/mcp',
      'http://[::1]:2/mcp',
      'http://[::ffff:127.0.0.1]/mcp',
      'http://a.localhost/',
    ]) {
      expect(isLoopbackUrl(new URL(url)), url).toBe(true);
    }
    for (const url of [
      'https://mcp.example.com/mcp',
      'http://10.0.0.1/mcp',
      'http://[::ffff:a00:1]/mcp',
      'http://localhost.example.com/mcp',
    ]) {
      expect(isLoopbackUrl(new URL(url)), url).toBe(false);
    }
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

/** Stands in for the network: records where each request would connect, answers from `routes`. */
function recorder(routes: Record<string, () => Response> = {}) {
  const sent: Array<{ url: string; addresses: readonly string[] | undefined }> = [];
  const inner: PinnedFetch = async (url, _init, addresses) => {
    sent.push({ url: url.href, addresses });
    return routes[url.href]?.() ?? new Response('ok');
  };
  return { sent, inner };
}

/** A DNS server that answers a public address first and loopback from then on (DNS rebinding). */
function rebinding(): { resolveHost: ResolveHost; lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    resolveHost: async (host) => {
      lookups.push(host);
      return lookups.filter((name) => name === host).length === 1 ? ['93.184.216.34'] : ['127.0.0.1'];
    },
  };
}

describe('guardedFetch pins every hop to the addresses it checked', () => {
  it('a rebinding resolver cannot make it connect to loopback: it resolves once and connects there', async () => {
    const dns = rebinding();
    const { sent, inner } = recorder();
    const guarded = guardedFetch({ resolveHost: dns.resolveHost }, inner);
    await guarded('https://rebind.example/.well-known/oauth-authorization-server');
    expect(dns.lookups).toEqual(['rebind.example']);
    expect(sent).toEqual([
      {
        url: 'https://rebind.example/.well-known/oauth-authorization-server',
        addresses: ['93.184.216.34'],
      },
    ]);
    // A second fetch resolves again, gets loopback this time, and is refused before connecting.
    await expect(guarded('https://rebind.example/token')).rejects.toMatchObject({ code: 'DENIED' });
    expect(sent).toHaveLength(1);
  });

  it('re-checks and pins each redirect hop on its own', async () => {
    const dns = rebinding();
    const { sent, inner } = recorder({
      'https://rebind.example/start': () =>
        new Response(null, { status: 302, headers: { location: 'https://hop.example/next' } }),
      'https://hop.example/next': () =>
        new Response(null, { status: 302, headers: { location: 'https://rebind.example/again' } }),
    });
    const guarded = guardedFetch({ resolveHost: dns.resolveHost }, inner);
    // The third hop returns to the first name, which now answers loopback: refused, never sent.
    await expect(guarded('https://rebind.example/start')).rejects.toMatchObject({ code: 'DENIED' });
    expect(sent).toEqual([
      { url: 'https://rebind.example/start', addresses: ['93.184.216.34'] },
      { url: 'https://hop.example/next', addresses: ['93.184.216.34'] },
    ]);
    expect(dns.lookups).toEqual(['rebind.example', 'hop.example', 'rebind.example']);
  });

  describe("the checklist's hostile targets are never fetched", () => {
    let ui: Server | undefined;
    let uiHits = 0;
    let uiPort = 0;
    afterEach(async () => {
      await new Promise<void>((done) => (ui ? ui.close(() => done()) : done()));
      ui = undefined;
    });

    async function startUi(): Promise<void> {
      uiHits = 0;
      ui = createServer((_req, res) => {
        uiHits += 1;
        res.end('the UI');
      });
      await new Promise<void>((done) => ui!.listen(0, '127.0.0.1', done));
      uiPort = (ui.address() as AddressInfo).port;
    }

    const hostile = () => [
      'https://169.254.169.254/latest/meta-data/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[::ffff:127.0.0.1]/',
      `http://127.0.0.1:${uiPort}/api/approve`,
      `https://127.0.0.1:${uiPort}/api/approve`,
      `https://localhost:${uiPort}/`,
      'https://10.0.0.1/internal',
    ];
    const hostileDns: ResolveHost = async (host) =>
      host === 'localhost' ? ['127.0.0.1'] : ['93.184.216.34'];

    it('asked for directly', async () => {
      await startUi();
      const { sent, inner } = recorder();
      const guarded = guardedFetch({ resolveHost: hostileDns }, inner);
      for (const url of hostile()) {
        await expect(guarded(url), url).rejects.toMatchObject({ code: 'DENIED' });
      }
      expect(sent).toEqual([]);
    });

    it('reached through a redirect, from a public server or from the origin the user typed', async () => {
      await startUi();
      for (const target of hostile()) {
        const { sent, inner } = recorder({
          'https://public.example/start': () =>
            new Response(null, { status: 302, headers: { location: target } }),
        });
        const guarded = guardedFetch({ resolveHost: hostileDns }, inner);
        await expect(guarded('https://public.example/start'), target).rejects.toMatchObject({
          code: 'DENIED',
        });
        expect(sent.map((entry) => entry.url)).toEqual(['https://public.example/start']);
      }
      // A real server on the typed origin redirects to our own UI port: the real fetch refuses.
      const typed = await serveRedirects((req) => (req === '/a' ? '/b' : `http://127.0.0.1:${uiPort}/`));
      try {
        const guarded = guardedFetch({ resolveHost: hostileDns, trustedOrigins: [typed.origin] });
        await expect(guarded(`${typed.origin}/a`)).rejects.toMatchObject({ code: 'DENIED' });
        expect(typed.hits).toEqual(['/a', '/b']);
      } finally {
        await typed.close();
      }
      expect(uiHits).toBe(0);
    });
  });
});

/** A loopback server that redirects each path to `next(path)`. */
async function serveRedirects(next: (path: string) => string) {
  const hits: string[] = [];
  const redirects = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(302, { location: next(req.url ?? '') }).end();
  });
  await new Promise<void>((done) => redirects.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(redirects.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((done) => redirects.close(() => done())),
  };
}
