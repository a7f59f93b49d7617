import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type LoggingLevel,
  LoggingMessageNotificationSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayedNotification, UpstreamFeatures } from '../../../src/agents/upstream.js';
import { RELAY_CAPABILITIES, RELAY_PAGE_SIZE, UpstreamRelay } from '../../../src/agents/upstream-relay.js';
import { Emitter } from '../../../src/base/emitter.js';
import { ToolbridgeError } from '../../../src/base/errors.js';

/** Servers' features as data: what the relay asked for is recorded. */
class FakeUpstream implements UpstreamFeatures {
  readonly notifications = new Emitter<RelayedNotification>();
  readonly onDidNotify = this.notifications.event;
  resources: Resource[] = [];
  readonly subscribed: string[] = [];
  readonly unsubscribed: string[] = [];
  readonly levels: LoggingLevel[] = [];
  listResources = async () => this.resources;
  listResourceTemplates = async () => [];
  listPrompts = async () => [];
  readResource = async (uri: string) => {
    throw new ToolbridgeError('NOT_FOUND', `no ${uri}`);
  };
  getPrompt = async () => ({ messages: [] });
  complete = async () => ({ completion: { values: [] } });
  subscribe = async (uri: string) => void this.subscribed.push(uri);
  unsubscribe = async (uri: string) => void this.unsubscribed.push(uri);
  setLoggingLevel = async (level: LoggingLevel) => void this.levels.push(level);
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function session(relay: UpstreamRelay): Promise<{ client: Client; server: Server }> {
  const server = new Server({ name: 'toolbridge', version: '0' }, { capabilities: RELAY_CAPABILITIES });
  relay.attach(server, 'agent');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agent', version: '0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { client, server };
}

describe('UpstreamRelay', () => {
  it('issue #14: pages a long list with an opaque cursor and refuses a made-up one', async () => {
    const upstream = new FakeUpstream();
    upstream.resources = Array.from({ length: RELAY_PAGE_SIZE * 2 + 5 }, (_, i) => ({
      uri: `x://${i}`,
      name: `r${i}`,
    }));
    const { client } = await session(new UpstreamRelay(upstream));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      seen.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(upstream.resources.map((resource) => resource.uri));
    await expect(client.listResources({ cursor: 'dGI6eA' })).rejects.toThrow(/Invalid cursor/);
  });

  it('issue #14: subscribes upstream once per URI, and lets go when the last session leaves', async () => {
    const upstream = new FakeUpstream();
    const relay = new UpstreamRelay(upstream);
    const first = await session(relay);
    const second = await session(relay);
    await first.client.subscribeResource({ uri: 'toolbridge://a/x' });
    await second.client.subscribeResource({ uri: 'toolbridge://a/x' });
    expect(upstream.subscribed).toEqual(['toolbridge://a/x']);
    await first.client.unsubscribeResource({ uri: 'toolbridge://a/x' });
    expect(upstream.unsubscribed).toEqual([]);
    await second.server.close();
    await expect.poll(() => upstream.unsubscribed).toEqual(['toolbridge://a/x']);
    expect(relay.sessionCount).toBe(1);
  });

  it('issue #14: servers log at the most verbose level asked; each session hears only its own level', async () => {
    const upstream = new FakeUpstream();
    const relay = new UpstreamRelay(upstream);
    const quiet = await session(relay);
    const chatty = await session(relay);
    await quiet.client.setLoggingLevel('error');
    await chatty.client.setLoggingLevel('debug');
    expect(upstream.levels).toEqual(['error', 'debug']);
    const heard = { quiet: [] as string[], chatty: [] as string[] };
    quiet.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      ({ params }) => void heard.quiet.push(params.level),
    );
    chatty.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      ({ params }) => void heard.chatty.push(params.level),
    );
    for (const level of ['debug', 'warning', 'critical'] as const) {
      upstream.notifications.fire({
        method: 'notifications/message',
        params: { level, logger: 's', data: level },
      });
    }
    await expect.poll(() => heard.chatty.length).toBe(3);
    expect(heard.quiet).toEqual(['critical']);
  });

  it('issue #14: an unknown resource is MCP "resource not found" (-32002) with the message', async () => {
    const { client } = await session(new UpstreamRelay(new FakeUpstream()));
    await expect(client.readResource({ uri: 'nope' })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining('no nope'),
    });
  });
});
