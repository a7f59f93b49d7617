/**
 * Issue #14, a transparent gateway: resources, templates, prompts, completions, subscriptions,
 * logging and instructions of every enabled server pass through Toolbridge, namespaced so that
 * servers with the very same URIs and prompt names never collide. Real host; the SDK-built
 * feature server twice over stdio and once over Streamable HTTP; the SDK client as the agent
 * over HTTP and over stdio (the `toolbridge mcp` endpoint in-process).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  type CallToolResult,
  isInitializeRequest,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioEndpoint } from '../../../src/agents/stdio-endpoint.js';
import { createHost, type Host, STDIO_AGENT_ID } from '../../../src/host/host.js';
import { createFeatureServer } from '../../fixtures/servers/feature-server.mjs';
import { writeSettings } from '../../helpers/host-kit.js';
import { StreamClientTransport } from '../../unit/agents/fake-surface.js';

const FEATURE_SERVER = fileURLToPath(new URL('../../fixtures/servers/feature-server.mjs', import.meta.url));
const stdioServer = (id: string) => ({
  id,
  transport: 'stdio' as const,
  command: process.execPath,
  args: [FEATURE_SERVER, id],
  enabled: true,
});

let dataDir: string;
let host: Host;
let remote: http.Server;
type AgentKind = 'http' | 'sse' | 'stdio';
const agents = {} as Record<AgentKind, Client>;
const closers: Array<() => Promise<unknown>> = [];

/** The feature server over Streamable HTTP (a session per client), as a remote server would be. */
async function startRemote(name: string): Promise<string> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  remote = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport === undefined && isInitializeRequest(body)) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => `s${transports.size + 1}`,
        onsessioninitialized: (sessionId): void => {
          transports.set(sessionId, created);
        },
      });
      await createFeatureServer(name).connect(created);
      transport = created;
    }
    if (transport === undefined) res.writeHead(404).end();
    else await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    remote.closeAllConnections();
    await new Promise((resolve) => remote.close(resolve));
  });
  return `http://127.0.0.1:${(remote.address() as AddressInfo).port}/mcp`;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-passthrough-'));
  const url = await startRemote('gamma');
  await writeSettings(dataDir, {
    servers: [
      stdioServer('alpha'),
      stdioServer('beta'),
      { id: 'gamma', transport: 'http', url, enabled: true },
      stdioServer('shut'),
    ],
    policies: { default: 'allow', servers: { shut: 'deny' }, tools: {}, rules: [] },
  });
  host = await createHost({ dataDir, port: 0, log: () => undefined });
  await host.ready;
  const token = (await host.agents.ensureDefault()).token;

  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  agents.http = new Client({ name: 'http-agent', version: '1.0.0' });
  await agents.http.connect(
    new StreamableHTTPClientTransport(new URL(host.endpointUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );

  agents.sse = new Client({ name: 'sse-agent', version: '1.0.0' });
  await agents.sse.connect(
    new SSEClientTransport(new URL(host.endpointUrl!.replace(/\/mcp$/, '/sse')), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );

  const toServer = new PassThrough();
  const toClient = new PassThrough();
  host.watchAgent(STDIO_AGENT_ID, 200_000);
  const endpoint = new StdioEndpoint(
    STDIO_AGENT_ID,
    (id) => host.surfaceFor(id),
    { stdin: toServer, stdout: toClient },
    host.relay,
  );
  await endpoint.start();
  agents.stdio = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await agents.stdio.connect(new StreamClientTransport(toClient, toServer));
  closers.push(
    () => agents.http.close(),
    () => agents.sse.close(),
    () => agents.stdio.close(),
    () => endpoint.close(),
  );
});

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** The next notification of one kind an agent hears, or a failure after `ms`. */
function next<T>(
  client: Client,
  schema: Parameters<Client['setNotificationHandler']>[0],
  ms = 10_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no such notification within ${ms} ms`)), ms);
    client.setNotificationHandler(schema, (notification) => {
      clearTimeout(timer);
      resolve(notification as T);
    });
  });
}

const toolCall = (client: Client, name: string) =>
  client.callTool({
    name: 'tool_call',
    arguments: { calls: [{ name, arguments: {} }] },
  }) as Promise<CallToolResult>;

describe.each(['http', 'sse', 'stdio'] as const)(
  'issue #14: the gateway passes everything through (%s agent)',
  (kind) => {
    const agent = () => agents[kind];

    it('issue #14: declares resources (subscribe, listChanged), prompts, completions and logging', () => {
      expect(agent().getServerCapabilities()).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
    });

    it('issue #14: lists every server’s resources under its own namespace, the same URIs never colliding', async () => {
      const { resources } = await agent().listResources();
      const uris = resources.map((resource) => resource.uri).sort();
      expect(uris).toEqual([
        'toolbridge://alpha/notes://counter',
        'toolbridge://alpha/notes://readme',
        'toolbridge://beta/notes://counter',
        'toolbridge://beta/notes://readme',
        'toolbridge://gamma/notes://counter',
        'toolbridge://gamma/notes://readme',
      ]);
      expect(resources.find((resource) => resource.uri === 'toolbridge://beta/notes://readme')).toMatchObject(
        {
          name: 'readme',
          title: 'Readme',
          mimeType: 'text/plain',
        },
      );
      for (const server of ['alpha', 'beta', 'gamma']) {
        const read = await agent().readResource({ uri: `toolbridge://${server}/notes://readme` });
        expect(read.contents).toEqual([
          {
            uri: `toolbridge://${server}/notes://readme`,
            mimeType: 'text/plain',
            text: `Readme of ${server}`,
          },
        ]);
      }
    });

    it('issue #14: a server the policy denies offers nothing', async () => {
      expect(JSON.stringify(await agent().listResources())).not.toContain('toolbridge://shut/');
      expect(JSON.stringify(await agent().listPrompts())).not.toContain('shut__');
      await expect(agent().readResource({ uri: 'toolbridge://shut/notes://readme' })).rejects.toThrow(
        /denied by the user's policy/,
      );
    });

    it('issue #14: templates are namespaced, readable once filled in, and complete their variables', async () => {
      const { resourceTemplates } = await agent().listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
        'toolbridge://alpha/notes://note/{id}',
        'toolbridge://beta/notes://note/{id}',
        'toolbridge://gamma/notes://note/{id}',
      ]);
      const read = await agent().readResource({ uri: 'toolbridge://gamma/notes://note/beta' });
      expect(read.contents[0]).toMatchObject({
        uri: 'toolbridge://gamma/notes://note/beta',
        text: 'Note beta of gamma',
      });
      const completed = await agent().complete({
        ref: { type: 'ref/resource', uri: 'toolbridge://alpha/notes://note/{id}' },
        argument: { name: 'id', value: 'g' },
      });
      expect(completed.completion.values).toEqual(['gamma']);
    });

    it('issue #14: prompts are namespaced, gettable, and complete their arguments', async () => {
      const { prompts } = await agent().listPrompts();
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
        'alpha__summarize',
        'beta__summarize',
        'gamma__summarize',
      ]);
      expect(prompts[0]).toMatchObject({ title: 'Summarize notes', arguments: [{ name: 'topic' }] });
      const got = await agent().getPrompt({ name: 'beta__summarize', arguments: { topic: 'bugs' } });
      expect(got.messages[0]?.content).toEqual({ type: 'text', text: "Summarize beta's notes on bugs." });
      // An embedded resource names its server too.
      expect(got.messages[1]?.content).toMatchObject({
        type: 'resource',
        resource: { uri: 'toolbridge://beta/notes://readme' },
      });
      const completed = await agent().complete({
        ref: { type: 'ref/prompt', name: 'alpha__summarize' },
        argument: { name: 'topic', value: 'b' },
      });
      expect(completed.completion.values).toEqual(['billing', 'bugs', 'backlog']);
    });

    it('issue #14: a resource_link a tool returns can be read through Toolbridge', async () => {
      const result = await toolCall(agent(), 'mcp__gamma__link');
      const link = result.content[0] as { type: string; uri: string };
      expect(link).toMatchObject({ type: 'resource_link', uri: 'toolbridge://gamma/notes://readme' });
      const read = await agent().readResource({ uri: link.uri });
      expect((read.contents[0] as { text: string }).text).toBe('Readme of gamma');
    });

    it('issue #14: unknown names and URIs get a clear error saying what to send', async () => {
      await expect(agent().readResource({ uri: 'notes://readme' })).rejects.toThrow(
        /toolbridge:\/\/<server>\/<the server's own URI>/,
      );
      await expect(agent().getPrompt({ name: 'summarize' })).rejects.toThrow(/<server>__<prompt>/);
      await expect(agent().listResources({ cursor: 'garbage' })).rejects.toThrow(/Invalid cursor/);
    });

    it('issue #14: a subscription hears resources/updated for that resource only, on the standalone stream', async () => {
      // Each agent bumps its own server's counter, so each sees 1.
      const server = ({ http: 'alpha', sse: 'gamma', stdio: 'beta' } as const)[kind];
      const uri = `toolbridge://${server}/notes://counter`;
      await agent().subscribeResource({ uri });
      const updated = next<{ params: { uri: string } }>(agent(), ResourceUpdatedNotificationSchema);
      expect(text(await toolCall(agent(), `mcp__${server}__bump`))).toBe('1');
      expect((await updated).params.uri).toBe(uri);
      expect((await agent().readResource({ uri })).contents[0]).toMatchObject({ text: '1' });
      expect(text(await toolCall(agent(), `mcp__${server}__subscribers`))).toBe('1');
      await agent().unsubscribeResource({ uri });
      expect(text(await toolCall(agent(), `mcp__${server}__subscribers`))).toBe('0');
    });

    it('issue #14: logging/setLevel fans out, and log messages arrive tagged with their server', async () => {
      await agent().setLoggingLevel('info');
      const heard: Array<{ level: string; logger?: string; data: unknown }> = [];
      const both = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`heard only ${JSON.stringify(heard)}`)), 10_000);
        agent().setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
          if (params.logger === 'gamma/notes') heard.push(params);
          if (heard.length === 2) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(text(await toolCall(agent(), 'mcp__gamma__log'))).toBe('logged');
      await both;
      expect(heard).toEqual([
        { level: 'info', logger: 'gamma/notes', data: 'info from gamma' },
        { level: 'error', logger: 'gamma/notes', data: 'error from gamma' },
      ]);
    });

    it('issue #14: servers’ instructions reach the model: a digest at initialize, in full in tool_describe', async () => {
      const instructions = agent().getInstructions() ?? '';
      expect(instructions).toContain(
        '- alpha: Notes server alpha: read notes://readme first, then use the note template.',
      );
      expect(instructions).toContain('- gamma: Notes server gamma');
      expect(instructions).not.toContain('second paragraph');
      expect(instructions).not.toContain('shut');
      const described = (await agent().callTool({
        name: 'tool_describe',
        arguments: { names: ['mcp__beta__bump'] },
      })) as CallToolResult;
      expect(JSON.parse(text(described)).server_instructions).toEqual({
        beta: 'Notes server beta: read notes://readme first, then use the note template.\n\nThis second paragraph is detail the digest leaves out.',
      });
    });
  },
);

describe('issue #14: list changes reach every agent', () => {
  it('issue #14: a server that stops takes its resources and prompts along, and agents are told', async () => {
    const resources = Promise.all([
      next(agents.http, ResourceListChangedNotificationSchema),
      next(agents.stdio, ResourceListChangedNotificationSchema),
    ]);
    const prompts = next(agents.http, PromptListChangedNotificationSchema);
    await host.servers.stop('beta');
    await resources;
    await prompts;
    expect(JSON.stringify(await agents.http.listResources())).not.toContain('toolbridge://beta/');
    expect((await agents.stdio.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain(
      'beta__summarize',
    );
    await host.servers.start('beta');
  });

  it('issue #14: a server whose policy becomes deny is withdrawn at once, and agents are told', async () => {
    const withdrawn = next(agents.sse, ResourceListChangedNotificationSchema);
    await host.api.setServerPolicy('gamma', 'deny');
    await withdrawn;
    expect(JSON.stringify(await agents.sse.listResources())).not.toContain('toolbridge://gamma/');
    const back = next(agents.sse, PromptListChangedNotificationSchema);
    await host.api.setServerPolicy('gamma', null);
    await back;
    expect((await agents.sse.listPrompts()).prompts.map((prompt) => prompt.name)).toContain(
      'gamma__summarize',
    );
  });
});
