import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PINNED_FETCH_MAX_BODY_BYTES,
  pinnedFetch,
  pinnedFetchWithin,
} from '../../../../src/servers/oauth/pinned-fetch.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server | TlsServer | undefined;

afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A loopback HTTP server that records each request and answers with `answer`. */
async function serve(
  answer: (seen: Seen, res: import('node:http').ServerResponse) => void,
): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    seen.push(entry);
    answer(entry, res);
  });
  server = http;
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  return { port: (http.address() as AddressInfo).port, seen };
}

/** Waits until `res` can take more, or the client has gone. */
function drainedOrClosed(res: import('node:http').ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

describe('pinnedFetch', () => {
  it('connects to the address it is given, never resolving the name, and keeps the name in Host', async () => {
    const { port, seen } = await serve((_seen, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
      res.end('{"ok":true}');
    });
    // `.invalid` never resolves (RFC 6761): only the pinned address can have been used.
    const response = await pinnedFetch(
      new URL(`http://metadata.invalid:${port}/token?x=1`),
      {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r' }),
      },
      ['127.0.0.1'],
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/token?x=1',
      body: 'grant_type=refresh_token&refresh_token=r',
    });
    expect(seen[0]?.headers.host).toBe(`metadata.invalid:${port}`);
    expect(seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(seen[0]?.headers.accept).toBe('application/json');
  });

  it('returns a redirect as it is, without following it', async () => {
    const { port, seen } = await serve((_seen, res) => {
      res.writeHead(302, { location: 'http://10.0.0.1/internal' }).end();
    });
    const response = await pinnedFetch(new URL(`http://127.0.0.1:${port}/start`), {}, undefined);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://10.0.0.1/internal');
    expect(seen.map((entry) => entry.url)).toEqual(['/start']);
  });

  it('answers a 204 with no body', async () => {
    const { port } = await serve((_seen, res) => res.writeHead(204).end());
    const response = await pinnedFetch(new URL(`http://127.0.0.1:${port}/`), {}, ['127.0.0.1']);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('sends TLS SNI for the original name while connecting to the pinned address', async () => {
    const names: string[] = [];
    const tls = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('this test only reads the name'), undefined);
      },
    });
    tls.on('tlsClientError', () => undefined);
    server = tls;
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    const { port } = tls.address() as AddressInfo;
    const error = await pinnedFetch(new URL(`https://auth.invalid:${port}/`), {}, ['127.0.0.1']).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(names).toEqual(['auth.invalid']);
  });

  it('fails like fetch (TypeError) when nothing listens, and with the reason when aborted', async () => {
    const { port } = await serve(() => undefined);
    await new Promise<void>((done) => server!.close(() => done()));
    server = undefined;
    await expect(pinnedFetch(new URL(`http://127.0.0.1:${port}/`), {}, ['127.0.0.1'])).rejects.toBeInstanceOf(
      TypeError,
    );
    const abort = new AbortController();
    abort.abort(new Error('gave up'));
    await expect(
      pinnedFetch(new URL('http://127.0.0.1:9/'), { signal: abort.signal }, ['127.0.0.1']),
    ).rejects.toThrow('gave up');
  });

  it('reads a body of exactly the limit whole', async () => {
    const { port } = await serve((_seen, res) => res.end(Buffer.alloc(PINNED_FETCH_MAX_BODY_BYTES, 'a')));
    const response = await pinnedFetch(new URL(`http://127.0.0.1:${port}/`), {}, ['127.0.0.1']);
    expect((await response.arrayBuffer()).byteLength).toBe(PINNED_FETCH_MAX_BODY_BYTES);
  });

  it('refuses a body streamed past 1 MiB with an error naming the limit, and closes the connection', async () => {
    const chunk = Buffer.alloc(64 * 1024, '{');
    const endless = 64 * PINNED_FETCH_MAX_BODY_BYTES;
    let sent = 0;
    let onClose: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (onClose = resolve));
    const { port } = await serve(async (_seen, res) => {
      res.on('close', onClose);
      // No Content-Length: chunked, as a server streaming without end sends it.
      res.writeHead(200, { 'content-type': 'application/json' });
      while (sent < endless && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) await drainedOrClosed(res);
      }
      res.end();
    });
    const path = '/.well-known/oauth-authorization-server';
    const error = await pinnedFetch(new URL(`http://127.0.0.1:${port}${path}?x=1`), {}, ['127.0.0.1']).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'ToolbridgeError',
      code: 'SERVER_UNAVAILABLE',
      message: `The answer from http://127.0.0.1:${port}${path} is larger than 1 MiB, the most Toolbridge reads from an OAuth server; it was not read.`,
    });
    await closed;
    // The connection went away long before the server was done.
    expect(sent).toBeLessThan(endless / 4);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const { port } = await serve((_seen, res) => {
      res.writeHead(200, { 'content-length': String(PINNED_FETCH_MAX_BODY_BYTES + 1) });
      // Only a little of it comes; the refusal must not wait for the rest.
      res.write('{');
    });
    await expect(pinnedFetch(new URL(`http://127.0.0.1:${port}/token`), {}, ['127.0.0.1'])).rejects.toThrow(
      'is larger than 1 MiB',
    );
  });

  it('fails a server that trickles its answer past the overall deadline, and closes the connection', async () => {
    let closed = false;
    const { port } = await serve((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // A byte well inside the idle timeout each time, for ever.
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => {
        clearInterval(drip);
        closed = true;
      });
    });
    const error = await pinnedFetchWithin(300)(new URL(`http://127.0.0.1:${port}/token`), {}, [
      '127.0.0.1',
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as Error).message).toBe('no complete answer within 0.3 s');
    await expect.poll(() => closed).toBe(true);
  });
});
