/**
 * End to end in one process: the SDK's real Client talks to a real MCP Server that serves our
 * AgentSurface; the surface's executor calls a second real MCP server (the "notes" tool server)
 * through another real Client. Both links are InMemoryTransport pairs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/base/json.js';
import { createAgentSurface } from '../../../src/bridge/agent-surface.js';
import type { AgentSurface, ToolExecutor } from '../../../src/bridge/types.js';
import { classifyEntries, entriesFromServers } from '../../../src/catalog/catalog.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';

const NOTES_TOOLS: Tool[] = [
  {
    name: 'add_note',
    description: 'Add a note with a title and a body to the notebook.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, body: { type: 'string' }, pinned: { type: 'boolean' } },
      required: ['title', 'body'],
    },
  },
  {
    name: 'search_notes',
    description: 'Search notes in the notebook by keyword.',
    inputSchema: { type: 'object', properties: { keyword: { type: 'string' } }, required: ['keyword'] },
  },
  {
    name: 'ping',
    description: 'Check that the notebook answers.',
    inputSchema: { type: 'object', properties: {} },
  },
];

/** The tool server: records every call it receives. */
function notesServer(received: Array<{ name: string; arguments: unknown }>): Server {
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: NOTES_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    received.push({ name: request.params.name, arguments: request.params.arguments });
    if (request.params.name === 'ping') return { content: [{ type: 'text', text: 'pong' }] };
    const args = request.params.arguments ?? {};
    return {
      content: [{ type: 'text', text: `saved "${String(args.title)}"` }],
      structuredContent: { id: 7, pinned: args.pinned ?? false },
    };
  });
  return server;
}

/** The agent endpoint: an MCP server whose tools are whatever the surface says. */
function agentServer(surface: AgentSurface): Server {
  const server = new Server({ name: 'toolbridge', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: surface.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    surface.callTool(request.params.name, request.params.arguments ?? {}, {
      agentId: 'e2e',
      signal: extra.signal,
    }),
  );
  return server;
}

async function connect(server: Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

function json(result: unknown): Record<string, unknown> {
  const [first] = (result as CallToolResult).content;
  if (first?.type !== 'text') throw new Error('expected text content');
  return JSON.parse(first.text) as Record<string, unknown>;
}

describe('agent surface over MCP (in-process)', () => {
  let received: Array<{ name: string; arguments: unknown }>;
  let notesClient: Client;
  let agent: Client;

  beforeEach(async () => {
    received = [];
    notesClient = await connect(notesServer(received));
    const { tools } = await notesClient.listTools();
    const entries = entriesFromServers([
      {
        serverId: 'notes',
        tools: tools.map((tool) => ({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as JsonObject,
        })),
      },
    ]);
    const executor: ToolExecutor = {
      callTool: (entry, args) =>
        notesClient.callTool({ name: entry.toolName, arguments: args }) as Promise<CallToolResult>,
    };
    const settings = DEFAULT_TOOL_SEARCH_SETTINGS;
    const plan = planToolSurface(classifyEntries(entries, { pinned: ['mcp__notes__ping'] }), { settings });
    agent = await connect(agentServer(createAgentSurface({ plan, settings, executor })));
  });

  afterEach(async () => {
    await agent.close();
    await notesClient.close();
  });

  it('lists, searches, describes and calls a deferred tool', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'mcp__notes__ping',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(tools[1]!.description).toContain('mcp__notes__add_note');

    const search = json(await agent.callTool({ name: 'tool_search', arguments: { queries: ['add note'] } }));
    expect((search.results as Array<{ matches: string[] }>)[0]!.matches[0]).toBe('mcp__notes__add_note');
    expect((search.tools as Record<string, { required: string[] }>).mcp__notes__add_note!.required).toEqual([
      'title',
      'body',
    ]);

    const described = json(
      await agent.callTool({ name: 'tool_describe', arguments: { names: ['mcp__notes__add_note'] } }),
    );
    expect(
      (described.tools as Record<string, { parameters: unknown }>).mcp__notes__add_note!.parameters,
    ).toEqual(NOTES_TOOLS[0]!.inputSchema);

    const called = await agent.callTool({
      name: 'tool_call',
      arguments: {
        calls: [
          { name: 'mcp__notes__add_note', arguments: { title: 'Plan', body: 'Ship it', pinned: 'true' } },
        ],
      },
    });
    expect(called).toEqual({
      content: [{ type: 'text', text: 'saved "Plan"' }],
      structuredContent: { id: 7, pinned: true },
    });
    expect(received).toEqual([
      { name: 'add_note', arguments: { title: 'Plan', body: 'Ship it', pinned: true } },
    ]);
  });

  it('never reaches the server with arguments that fail validation', async () => {
    const result = await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: 'mcp__notes__add_note', arguments: { title: 'Plan' } }] },
    });
    expect(result.isError).toBe(true);
    expect(json(result)).toMatchObject({ path: 'arguments', constraint: 'required' });
    expect(received).toEqual([]);
  });

  it('calls a pinned tool directly', async () => {
    const result = await agent.callTool({ name: 'mcp__notes__ping', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(received.map((call) => call.name)).toEqual(['ping']);
  });

  it('answers an unknown tool with an InvalidParams error', async () => {
    const call = agent.callTool({ name: 'mcp__notes__add_note', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(received).toEqual([]);
  });
});
