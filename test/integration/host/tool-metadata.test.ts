/**
 * Issue #14, tool metadata: a pinned tool keeps every field its server lists (title,
 * outputSchema, icons, _meta, annotations); tool_describe shows title, annotations and
 * outputSchema; structuredContent is checked against the outputSchema (a mismatch is an error
 * that says where); a tool that runs only as an MCP task is left out with a note, not listed to
 * fail. Real host, the composable fixture server over stdio, the SDK client as the agent.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/host/host.js';
import { connectDefaultAgent, fixtureServer, startHost } from '../../helpers/host-kit.js';

const WEATHER = 'mcp__metadata__weather';
const TASK_ONLY = 'mcp__metadata__render_report';
let dataDir: string;
let host: Host;
let agent: Client;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-metadata-'));
  host = await startHost(
    dataDir,
    {
      servers: [fixtureServer('metadata', 'metadata'), fixtureServer('plain', 'basic')],
      tools: { [WEATHER]: { pinned: true } },
    },
    { policyOverride: 'allow' },
  );
  agent = await connectDefaultAgent(host, 'metadata-agent');
});

afterAll(async () => {
  await agent?.close();
  await host?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function text(result: CallToolResult, index = 0): string {
  return (result.content[index] as { text: string }).text;
}

async function callWeather(value: unknown): Promise<CallToolResult> {
  return (await agent.callTool({ name: WEATHER, arguments: { value } })) as CallToolResult;
}

describe('issue #14: tool metadata passes through', () => {
  it('issue #14: a pinned tool keeps title, outputSchema, icons, _meta and annotations', async () => {
    const { tools } = await agent.listTools();
    const weather = tools.find((tool) => tool.name === WEATHER);
    expect(weather).toMatchObject({
      title: 'Weather report',
      annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
      icons: [{ src: 'https://example.com/sun.png', mimeType: 'image/png', sizes: ['48x48'] }],
      _meta: { 'example.com/owner': 'weather-team' },
      outputSchema: { type: 'object', required: ['city', 'celsius'] },
    });
  });

  it('issue #14: tool_describe shows title, annotations and outputSchema', async () => {
    await host.api.setToolPinned(WEATHER, false);
    const result = (await agent.callTool({
      name: 'tool_describe',
      arguments: { names: [WEATHER, 'mcp__plain__echo'] },
    })) as CallToolResult;
    const described = JSON.parse(text(result)).tools;
    expect(described[WEATHER]).toMatchObject({
      title: 'Weather report',
      description: 'Current weather for a city as structured data',
      annotations: { readOnlyHint: true, openWorldHint: true },
      outputSchema: { required: ['city', 'celsius'] },
    });
    // A tool without them gets no empty fields.
    expect(Object.keys(described['mcp__plain__echo'])).toEqual(['description', 'parameters']);
    await host.api.setToolPinned(WEATHER, true);
  });

  it('issue #14: structuredContent that matches the outputSchema comes back as sent', async () => {
    const result = await callWeather({ city: 'Oslo', celsius: -3 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: -3 });
  });

  it('issue #14: structuredContent that does not match is an error naming where, through tool_call too', async () => {
    const direct = await callWeather({ city: 'Oslo', celsius: 'cold' });
    expect(direct.isError).toBe(true);
    expect(direct.structuredContent).toBeUndefined();
    expect(text(direct)).toContain(
      `Tool '${WEATHER}' returned structuredContent that does not match its outputSchema at structuredContent.celsius (type)`,
    );
    // The server's own content stays for the model to read.
    expect(text(direct, 1)).toBe('{"city":"Oslo","celsius":"cold"}');

    await host.api.setToolPinned(WEATHER, false);
    const bridged = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: WEATHER, arguments: { value: { city: 'Oslo' } } }] },
    })) as CallToolResult;
    expect(bridged.isError).toBe(true);
    expect(text(bridged)).toContain("missing required property 'celsius'");
    await host.api.setToolPinned(WEATHER, true);
  });

  it('issue #14: a result with no structuredContent at all is an error when an outputSchema is declared', async () => {
    const result = await callWeather(undefined);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('declares an outputSchema but its result has no structuredContent');
  });

  it('issue #14: a tool that requires tasks is left out of search and listing, and says why when named', async () => {
    const { tools } = await agent.listTools();
    const listing = JSON.stringify(tools);
    expect(listing).not.toContain('render_report');
    const search = (await agent.callTool({
      name: 'tool_search',
      arguments: { queries: ['render long report'] },
    })) as CallToolResult;
    expect(text(search)).not.toContain(TASK_ONLY);

    const describe = (await agent.callTool({
      name: 'tool_describe',
      arguments: { names: [TASK_ONLY] },
    })) as CallToolResult;
    expect(JSON.parse(text(describe)).errors[TASK_ONLY]).toContain('runs only as an MCP task');
    const call = (await agent.callTool({
      name: 'tool_call',
      arguments: { calls: [{ name: TASK_ONLY, arguments: {} }] },
    })) as CallToolResult;
    expect(call.isError).toBe(true);
    expect(text(call)).toContain('which Toolbridge does not support yet');

    // The person sees it on the server too.
    const servers = await host.api.listServers();
    expect(servers.find((server) => server.id === 'metadata')?.nameProblem).toContain(
      'Agents do not see "render_report"',
    );
  });
});
