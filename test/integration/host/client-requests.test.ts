/**
 * Issue #14, what servers ask their client: elicitation, sampling, roots, progress and
 * cancellation, end to end through a real host. The upstream servers are SDK-built (the fixture
 * server, over stdio and Streamable HTTP); the agent is the SDK's Client over the HTTP endpoint,
 * which answers calls as plain JSON, so every relayed request must travel the standalone stream.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardView } from '../../../src/api/ui-api.js';
import type { Host } from '../../../src/host/host.js';
import { startStreamableHttpFixture } from '../../fixtures/servers/http-fixture.js';
import { fixtureServer, recordEvents, startHost } from '../../helpers/host-kit.js';
import { waitUntil } from '../../helpers/wait.js';
import { scenario } from '../servers/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVERS = ['local', 'remote'] as const;

async function hostWithFeatures(settings: Record<string, unknown> = {}): Promise<Host> {
  const fixture = await startStreamableHttpFixture(scenario('client-features'));
  cleanups.push(() => fixture.close());
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-client-requests-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const host = await startHost(
    dataDir,
    {
      servers: [
        { ...fixtureServer('local', 'client-features'), roots: ['/srv/configured-root'] },
        { id: 'remote', transport: 'http', url: fixture.url, enabled: true },
      ],
      ...settings,
    },
    { policyOverride: 'allow' },
  );
  cleanups.push(() => host.close());
  return host;
}

/** The SDK Client as an agent with these capabilities; `setup` installs its handlers before it connects. */
async function connectAgent(
  host: Host,
  capabilities: NonNullable<ClientOptions['capabilities']>,
  setup: (client: Client) => void = () => undefined,
): Promise<Client> {
  const token = (await host.agents.ensureDefault()).token;
  const agent = new Client({ name: 'client-requests-agent', version: '1.0.0' }, { capabilities });
  setup(agent);
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(host.endpointUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  cleanups.push(() => agent.close());
  return agent;
}

function call(
  agent: Client,
  server: string,
  tool: string,
  args: Record<string, unknown> = {},
  options: { onprogress?: (progress: Progress) => void; signal?: AbortSignal } = {},
): Promise<CallToolResult> {
  return agent.request(
    {
      method: 'tools/call',
      params: {
        name: 'tool_call',
        arguments: { calls: [{ name: `mcp__${server}__${tool}`, arguments: args }] },
      },
    },
    CallToolResultSchema,
    { timeout: 30_000, ...options },
  ) as Promise<CallToolResult>;
}

function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

function answerOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result));
}

/** Keeps one UI attached for the test, as an open page would. */
function attachUi(host: Host): void {
  const handle = host.api.attachUi();
  cleanups.push(() => handle.dispose());
}

async function nextCard<K extends CardView['kind']>(
  opened: CardView[],
  kind: K,
): Promise<Extract<CardView, { kind: K }>> {
  await waitUntil(() => opened.some((card) => card.kind === kind), `a ${kind} card`);
  return opened.find((card) => card.kind === kind) as Extract<CardView, { kind: K }>;
}

describe('elicitation', () => {
  it.each(SERVERS)(
    'issue #14: a form elicitation of the %s server reaches an agent that declared it, and the call completes',
    async (server) => {
      const host = await hostWithFeatures();
      const asked: string[] = [];
      const agent = await connectAgent(host, { elicitation: { form: {} } }, (client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params.message);
          return { action: 'accept', content: { name: 'Ada' } };
        }),
      );
      const answer = answerOf(await call(agent, server, 'elicit'));
      expect(answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
      expect(asked).toEqual(['Who is asking?']);
    },
  );

  it('issue #14: headless, an agent without elicitation has the request declined with the reason', async () => {
    const host = await hostWithFeatures();
    const agent = await connectAgent(host, {});
    const answer = answerOf(await call(agent, 'local', 'elicit'));
    expect(answer.action).toBe('decline');
    expect(JSON.stringify(answer._meta)).toMatch(
      /did not declare form elicitation.*no Toolbridge window is open/,
    );
    expect((await host.api.listServers()).find((s) => s.id === 'local')?.stderrTail.join('\n')).toContain(
      'declined this form elicitation',
    );
  });

  it('issue #14: an agent that declared only form mode gets no URL request; headless it is declined', async () => {
    const host = await hostWithFeatures();
    let asked = 0;
    const agent = await connectAgent(host, { elicitation: { form: {} } }, (client) =>
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked++;
        return { action: 'accept' };
      }),
    );
    expect(answerOf(await call(agent, 'remote', 'elicit_url')).action).toBe('decline');
    expect(asked).toBe(0);
  });

  it.each(SERVERS)(
    'issue #14: with a UI open, an agent without elicitation gets a form card for the %s server; the answer is checked against the schema and completes the call',
    async (server) => {
      const host = await hostWithFeatures();
      attachUi(host);
      const opened = recordEvents(host, 'cardOpened');
      const resolved = recordEvents(host, 'cardResolved');
      const agent = await connectAgent(host, {});
      const pending = call(agent, server, 'elicit');
      const card = await nextCard(opened, 'elicitation');
      expect(card).toMatchObject({
        mode: 'form',
        serverId: server,
        message: 'Who is asking?',
        origin: { agentId: 'default', toolName: `mcp__${server}__elicit` },
        requestedSchema: { required: ['name'] },
      });
      expect((await host.api.listCards()).map((open) => open.id)).toContain(card.id);
      await expect(host.api.resolveCard(card.id, { action: 'accept', content: {} })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('name'),
      });
      await host.api.resolveCard(card.id, { action: 'accept', content: { name: 'Grace' } });
      expect(answerOf(await pending)).toEqual({ action: 'accept', content: { name: 'Grace' } });
      expect(resolved).toContainEqual({ id: card.id, outcome: 'accept' });
      await expect(host.api.resolveCard(card.id, { action: 'decline' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    },
  );

  it('issue #14: preferElicitationCards opens a card while a UI is open even for an agent that could answer', async () => {
    const host = await hostWithFeatures({ preferElicitationCards: true });
    attachUi(host);
    const opened = recordEvents(host, 'cardOpened');
    let asked = 0;
    const agent = await connectAgent(host, { elicitation: {} }, (client) =>
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked++;
        return { action: 'decline' };
      }),
    );
    const pending = call(agent, 'local', 'elicit');
    const card = await nextCard(opened, 'elicitation');
    await host.api.resolveCard(card.id, { action: 'decline' });
    expect(answerOf(await pending)).toEqual({ action: 'decline' });
    expect(asked).toBe(0);
  });

  it('issue #14: a URL elicitation card names the host before anything opens; accepting completes the call', async () => {
    const host = await hostWithFeatures();
    attachUi(host);
    const opened = recordEvents(host, 'cardOpened');
    const agent = await connectAgent(host, {});
    const pending = call(agent, 'remote', 'elicit_url', { url: 'https://login.example.org/consent?x=1' });
    const card = await nextCard(opened, 'elicitation');
    expect(card).toMatchObject({
      mode: 'url',
      url: 'https://login.example.org/consent?x=1',
      urlHost: 'login.example.org',
    });
    await host.api.resolveCard(card.id, { action: 'accept' });
    expect(answerOf(await pending)).toEqual({ action: 'accept' });
  });

  it('issue #14: an agent that cancels its call closes the elicitation card', async () => {
    const host = await hostWithFeatures();
    attachUi(host);
    const opened = recordEvents(host, 'cardOpened');
    const resolved = recordEvents(host, 'cardResolved');
    const agent = await connectAgent(host, {});
    const abort = new AbortController();
    const pending = call(agent, 'local', 'elicit', {}, { signal: abort.signal });
    const card = await nextCard(opened, 'elicitation');
    abort.abort();
    await expect(pending).rejects.toThrow();
    await waitUntil(() => resolved.some((event) => event.id === card.id), 'the card to close');
    expect(resolved.find((event) => event.id === card.id)?.outcome).toBe('cancelled');
  });
});

describe('sampling', () => {
  it.each(SERVERS)(
    'issue #14: sampling of the %s server goes to the agent only after the person approved the prompt on a card',
    async (server) => {
      const host = await hostWithFeatures();
      attachUi(host);
      const opened = recordEvents(host, 'cardOpened');
      const prompts: unknown[] = [];
      const agent = await connectAgent(host, { sampling: {} }, (client) =>
        client.setRequestHandler(CreateMessageRequestSchema, (request) => {
          prompts.push(request.params.messages);
          return { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'agent-model' };
        }),
      );
      const pending = call(agent, server, 'sample', { message: 'Summarize the weather' });
      const card = await nextCard(opened, 'sampling');
      expect(card).toMatchObject({
        serverId: server,
        agentId: 'default',
        systemPrompt: 'You are terse.',
        maxTokens: 50,
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the weather' } }],
        origin: { toolName: `mcp__${server}__sample` },
      });
      expect(prompts).toEqual([]);
      await host.api.resolveCard(card.id, { action: 'approve' });
      expect(answerOf(await pending)).toMatchObject({ model: 'agent-model', content: { text: 'hi there' } });
      expect(prompts).toHaveLength(1);
    },
  );

  it('issue #14: a denied sampling card refuses the request and the model is never asked', async () => {
    const host = await hostWithFeatures();
    attachUi(host);
    const opened = recordEvents(host, 'cardOpened');
    let asked = 0;
    const agent = await connectAgent(host, { sampling: {} }, (client) =>
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        asked++;
        return { role: 'assistant', content: { type: 'text', text: 'no' }, model: 'm' };
      }),
    );
    const pending = call(agent, 'local', 'sample');
    const card = await nextCard(opened, 'sampling');
    await expect(host.api.resolveCard(card.id, { action: 'accept' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await host.api.resolveCard(card.id, { action: 'deny' });
    expect(textOf(await pending)).toContain('The person declined this sampling request.');
    expect(asked).toBe(0);
  });

  it('issue #14: sampling is refused clearly for an agent without it, and headless', async () => {
    const host = await hostWithFeatures();
    const plain = await connectAgent(host, {});
    expect(textOf(await call(plain, 'local', 'sample'))).toContain('did not declare sampling');
    const sampler = await connectAgent(host, { sampling: {} }, (client) =>
      client.setRequestHandler(CreateMessageRequestSchema, () => ({
        role: 'assistant',
        content: { type: 'text', text: 'x' },
        model: 'm',
      })),
    );
    expect(textOf(await call(sampler, 'remote', 'sample'))).toContain('no Toolbridge window is open');
  });
});

describe('roots', () => {
  it.each(SERVERS)('issue #14: the %s server sees the roots of the agent calling it', async (server) => {
    const host = await hostWithFeatures();
    const agent = await connectAgent(host, { roots: { listChanged: true } }, (client) =>
      client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: [{ uri: 'file:///home/agent/project', name: 'project' }],
      })),
    );
    expect(answerOf(await call(agent, server, 'roots'))).toEqual({
      roots: [{ uri: 'file:///home/agent/project', name: 'project' }],
    });
  });

  it("issue #14: without the agent's roots a server sees the roots configured for it (none: an empty list)", async () => {
    const host = await hostWithFeatures();
    const agent = await connectAgent(host, {});
    expect(answerOf(await call(agent, 'local', 'roots'))).toEqual({
      roots: [{ uri: pathToFileURL('/srv/configured-root').href, name: 'configured-root' }],
    });
    expect(answerOf(await call(agent, 'remote', 'roots'))).toEqual({ roots: [] });
  });

  it("issue #14: the agent's roots/list_changed reaches the servers, and a changed roots setting too", async () => {
    const host = await hostWithFeatures();
    const agent = await connectAgent(host, { roots: { listChanged: true } }, (client) =>
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] })),
    );
    const rootsChanges = async () => textOf(await call(agent, 'local', 'roots_changes'));
    expect(await rootsChanges()).toBe('0');
    await agent.sendRootsListChanged();
    await waitUntil(
      async () => (await rootsChanges()) === '1',
      "the server to hear the agent's roots change",
    );
    const config = (await host.api.listServers()).find((s) => s.id === 'local')!.config;
    await host.api.updateServer('local', { ...config, roots: ['/srv/other'] });
    await waitUntil(
      async () => (await rootsChanges()) === '2',
      'the server to hear the changed roots setting',
    );
  });
});

describe('progress and cancellation', () => {
  it.each(SERVERS)(
    "issue #14: the %s server's progress reaches the agent under its own token",
    async (server) => {
      const host = await hostWithFeatures();
      const agent = await connectAgent(host, {});
      const seen: Progress[] = [];
      await call(agent, server, 'roots_changes');
      const result = await call(agent, server, 'progress', { steps: 3 }, { onprogress: (p) => seen.push(p) });
      expect(textOf(result)).toBe('done 3');
      await waitUntil(() => seen.length === 3, 'three progress notifications');
      expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3'],
      ]);
    },
  );

  it.each(SERVERS)(
    'issue #14: an agent that cancels its call cancels the request on the %s server',
    async (server) => {
      const host = await hostWithFeatures();
      const agent = await connectAgent(host, {});
      const abort = new AbortController();
      const pending = call(agent, server, 'hang', {}, { signal: abort.signal });
      // Cancel only once the server holds the request: cancelling earlier never reaches it.
      await expect.poll(async () => textOf(await call(agent, server, 'hanging'))).toBe('1');
      abort.abort();
      await expect(pending).rejects.toThrow();
      await expect.poll(async () => textOf(await call(agent, server, 'cancellations'))).toBe('1');
    },
  );
});
