/**
 * A connector gateway on 127.0.0.1 that answers from a function, for scenarios whose gateway
 * answers are given literally (twins in a chosen order, a slug without a schema, a use case
 * echoed wrong). The real `GatewayClient` talks to it over HTTP, so parsing, status mapping and
 * retries are the real ones. `reset` drops the connection: a transport failure.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayClient, type GatewayTimeouts } from '../../../src/connectors/gateway-client.js';

export type CannedAnswer = { status: number; body: unknown } | 'reset';

export interface CannedRequest {
  /** `search`, `schemas`, `execute`, … (the last path segment). */
  endpoint: string;
  body: unknown;
}

export interface CannedGateway {
  url: string;
  readonly requests: CannedRequest[];
  /** Bodies of the requests to one endpoint, in arrival order. */
  bodies(endpoint: string): unknown[];
  /** A real client for this gateway; short timeouts and retry pause by default. */
  client(timeouts?: Partial<GatewayTimeouts>): GatewayClient;
  close(): Promise<void>;
}

const TOKEN = 'canned-token';

export async function startCannedGateway(
  answer: (endpoint: string, body: unknown) => CannedAnswer,
): Promise<CannedGateway> {
  const requests: CannedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const endpoint = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/').pop() ?? '';
      const body: unknown = raw === '' ? undefined : JSON.parse(raw);
      requests.push({ endpoint, body });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'INVALID_TOKEN', message: 'Bad token.' } }));
        return;
      }
      const reply = answer(endpoint, body);
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    bodies: (endpoint) => requests.filter((r) => r.endpoint === endpoint).map((r) => r.body),
    client: (timeouts = {}) =>
      new GatewayClient({
        baseUrl: url,
        token: TOKEN,
        timeouts: { searchMs: 5000, schemasMs: 5000, executeMs: 5000, ...timeouts },
        retryDelayMs: 5,
      }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
