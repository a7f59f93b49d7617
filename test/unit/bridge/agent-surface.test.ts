import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import type { ToolExecutor } from '../../../src/bridge/types.js';
import {
  buildSurface,
  CONTEXT,
  fakeConnectorBackend,
  mcpEntry,
  payloadOf,
  recordingExecutor,
} from './bridge-fixtures.js';

const SEARCH = mcpEntry('github', 'search_code', 'Search code in repositories.', {
  type: 'object',
  properties: { q: { type: 'string' }, per_page: { type: 'integer' } },
  required: ['q'],
});
const PINNED_OK = mcpEntry('notes', 'add', 'Add a note.', {
  type: 'object',
  properties: { text: { type: 'string' }, priority: { type: 'integer' } },
  required: ['text'],
});
const PINNED_ALIASED = mcpEntry('files', 'read.file', 'Read a file.');

describe('createAgentSurface: listTools', () => {
  it('lists pinned tools (by direct name or alias), then manage_connections, then the bridge', () => {
    const { surface } = buildSurface({
      entries: [SEARCH],
      pinned: [PINNED_OK, PINNED_ALIASED],
      connectors: fakeConnectorBackend(),
    });
    const names = surface.listTools().map((tool) => tool.name);
    expect(names).toHaveLength(6);
    expect(names.slice(0, 2)).toContain('mcp__notes__add');
    expect(names.slice(0, 2).some((name) => name.startsWith('mcp__files__read_file_'))).toBe(true);
    expect(names.slice(2)).toEqual(['manage_connections', 'tool_search', 'tool_describe', 'tool_call']);
    for (const tool of surface.listTools()) expect(tool.inputSchema.type).toBe('object');
  });

  it('lists no bridge when nothing defers and manage_connections is absent', () => {
    const { surface } = buildSurface({ pinned: [PINNED_OK] });
    expect(surface.listTools().map((tool) => tool.name)).toEqual(['mcp__notes__add']);
  });

  it('lists the bridge with nothing deferred when manage_connections is present', () => {
    const { surface } = buildSurface({ connectors: fakeConnectorBackend() });
    expect(surface.listTools().map((tool) => tool.name)).toEqual([
      'manage_connections',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
  });
});

describe('createAgentSurface: callTool', () => {
  it('runs a deferred tool through tool_call with coerced arguments and returns the result untouched', async () => {
    const answer = { content: [{ type: 'text' as const, text: 'found 3' }], structuredContent: { hits: 3 } };
    const executor = recordingExecutor(() => answer);
    const { surface } = buildSurface({ entries: [SEARCH], executor });
    const result = await surface.callTool(
      'tool_call',
      { calls: [{ name: 'mcp__github__search_code', arguments: { q: 'x', per_page: '10' } }] },
      CONTEXT,
    );
    expect(result).toBe(answer);
    expect(executor.calls).toEqual([
      {
        name: 'mcp__github__search_code',
        args: { q: 'x', per_page: 10 },
        context: { ...CONTEXT, stop: expect.any(AbortController) },
      },
    ]);
  });

  it('blocks invalid arguments before the server sees them', async () => {
    const executor = recordingExecutor();
    const { surface } = buildSurface({ entries: [SEARCH], executor });
    const result = await surface.callTool(
      'tool_call',
      { calls: [{ name: 'mcp__github__search_code', arguments: { q: 'x', per_page: 'many' } }] },
      CONTEXT,
    );
    expect(result.isError).toBe(true);
    expect(payloadOf(result)).toMatchObject({ path: 'arguments.per_page', constraint: 'type' });
    expect(executor.calls).toEqual([]);
  });

  it('gives a pinned tool the same checks as tool_call: validation, coercion, then the executor', async () => {
    const executor = recordingExecutor();
    const { surface } = buildSurface({ entries: [SEARCH], pinned: [PINNED_OK], executor });
    const missing = await surface.callTool('mcp__notes__add', { priority: 1 }, CONTEXT);
    expect(missing.isError).toBe(true);
    expect(payloadOf(missing)).toMatchObject({
      error: "The call to 'mcp__notes__add' is missing required argument(s): text. The tool was NOT invoked.",
      constraint: 'required',
    });
    expect(executor.calls).toEqual([]);
    await surface.callTool('mcp__notes__add', { text: 'hi', priority: '2' }, CONTEXT);
    expect(executor.calls.map((call) => [call.name, call.args])).toEqual([
      ['mcp__notes__add', { text: 'hi', priority: 2 }],
    ]);
  });

  it('calls an aliased pinned tool by its alias, and the real tool runs', async () => {
    const executor = recordingExecutor();
    const { surface } = buildSurface({ pinned: [PINNED_ALIASED], executor });
    const alias = surface.listTools()[0]!.name;
    await surface.callTool(alias, {}, CONTEXT);
    expect(executor.calls.map((call) => call.name)).toEqual(['mcp__files__read.file']);
  });

  it('tells tool_call to call a pinned tool directly, under its alias', async () => {
    const { surface } = buildSurface({ entries: [SEARCH], pinned: [PINNED_ALIASED] });
    const alias = surface.listTools()[0]!.name;
    const result = await surface.callTool(
      'tool_call',
      { name: 'mcp__files__read.file', arguments: {} },
      CONTEXT,
    );
    expect(payloadOf(result).error).toBe(
      `'mcp__files__read.file' is a directly-listed tool, not a deferred one. Call it directly as '${alias}' instead of via tool_call.`,
    );
  });

  it('suggests full names for a bare tool name, and says when a known tool is not available', async () => {
    const { surface } = buildSurface({ entries: [SEARCH], unavailableNames: ['mcp__github__delete_repo'] });
    const bare = payloadOf(await surface.callTool('tool_call', { name: 'search_code' }, CONTEXT));
    expect(bare.error).toContain("Did you mean 'mcp__github__search_code'?");
    const disabled = payloadOf(
      await surface.callTool('tool_call', { name: 'mcp__github__delete_repo' }, CONTEXT),
    );
    expect(disabled.error).toBe(
      "'mcp__github__delete_repo' is not available in this session. Use tool_search to find tools you can call.",
    );
  });

  it('turns a refusal from the executor into an error result with its code', async () => {
    const executor: ToolExecutor = {
      async callTool() {
        throw new ToolbridgeError(
          'SERVER_UNAVAILABLE',
          'Server "github" is not connected. Start it in Servers.',
        );
      },
    };
    const { surface } = buildSurface({ entries: [SEARCH], executor });
    const result = await surface.callTool(
      'tool_call',
      { name: 'mcp__github__search_code', arguments: { q: 'x' } },
      CONTEXT,
    );
    expect(result.isError).toBe(true);
    expect(payloadOf(result)).toEqual({
      error: 'Server "github" is not connected. Start it in Servers.',
      code: 'SERVER_UNAVAILABLE',
    });
  });

  it('routes manage_connections to its handler', async () => {
    const { surface, manage } = buildSurface({ connectors: fakeConnectorBackend() });
    await surface.callTool('manage_connections', { action: 'status' }, CONTEXT);
    expect(manage?.calls).toEqual([{ action: 'status' }]);
  });

  it('rejects an unlisted name with InvalidParams, pointing a deferred tool at tool_call', async () => {
    const { surface } = buildSurface({ entries: [SEARCH] });
    const deferred = surface.callTool('mcp__github__search_code', {}, CONTEXT);
    await expect(deferred).rejects.toBeInstanceOf(McpError);
    await expect(deferred).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(deferred).rejects.toThrow(/through tool_call/);
    await expect(surface.callTool('nope', {}, CONTEXT)).rejects.toThrow(/Use tool_search/);
  });

  it('does not answer bridge names when the bridge is not listed', async () => {
    const { surface } = buildSurface({ pinned: [PINNED_OK] });
    await expect(surface.callTool('tool_search', { queries: ['x'] }, CONTEXT)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });
});
