import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import { buildSurface, CONTEXT, mcpEntry, payloadOf } from './bridge-fixtures.js';

const LONG = `Create an issue. ${'Details. '.repeat(80)}`;
const CREATE = mcpEntry('github', 'create_issue', LONG, {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
});
const BARE = mcpEntry('github', 'whoami', 'Who am I.');
const PINNED: CatalogEntry = mcpEntry('files', 'read.file', 'Read a file.');

async function describeNames(names: unknown) {
  const { surface } = buildSurface({ entries: [CREATE, BARE], pinned: [PINNED] });
  const result = await surface.callTool('tool_describe', { names }, CONTEXT);
  return { result, payload: payloadOf(result), surface };
}

describe('tool_describe', () => {
  it('gives the full description and the parameters as declared', async () => {
    const { result, payload } = await describeNames(['mcp__github__create_issue', 'mcp__github__whoami']);
    expect(result.isError).toBeUndefined();
    expect(payload).toEqual({
      tools: {
        mcp__github__create_issue: { description: LONG, parameters: CREATE.inputSchema },
        mcp__github__whoami: { description: 'Who am I.', parameters: {} },
      },
    });
  });

  it('trims, drops blanks and de-duplicates, keeping the first occurrence', async () => {
    const { payload } = await describeNames([
      ' mcp__github__whoami ',
      '',
      'mcp__github__whoami',
      'nope',
      'nope',
    ]);
    expect(Object.keys(payload.tools as object)).toEqual(['mcp__github__whoami']);
    expect(payload.not_found).toEqual(['nope']);
  });

  it('accepts one name as a bare string', async () => {
    expect(Object.keys((await describeNames('mcp__github__whoami')).payload.tools as object)).toEqual([
      'mcp__github__whoami',
    ]);
  });

  it('counts the cap after de-duplication', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `name_${i}`);
    expect((await describeNames([...eleven.slice(0, 10), 'name_0'])).payload).not.toHaveProperty('error');
    const { payload, result } = await describeNames(eleven);
    expect(payload).toEqual({ error: 'too many names: 11 > max 10. Retry with fewer names per call.' });
    expect(result.isError).toBe(true);
  });

  it('refuses a missing or empty list', async () => {
    expect((await describeNames(undefined)).payload).toEqual({
      error: 'names is required and must be an array of tool names.',
    });
    expect((await describeNames([' '])).payload).toEqual({
      error: 'names must contain at least one non-empty tool name.',
    });
  });

  it('puts unknown and connector names in not_found with a refresh hint', async () => {
    const { payload } = await describeNames(['mcp__gone__tool', 'connectors__gmail__SEND_EMAIL']);
    expect(payload).toEqual({
      tools: {},
      not_found: ['mcp__gone__tool', 'connectors__gmail__SEND_EMAIL'],
      hint: 'Names in not_found are not currently available. Re-run tool_search to refresh.',
    });
  });

  it('answers a directly listed tool with an error naming the name to call it by', async () => {
    const { payload, surface } = await describeNames(['mcp__files__read.file', 'tool_call']);
    const alias = surface.listTools()[0]!.name;
    expect(alias).not.toBe('mcp__files__read.file');
    const errors = payload.errors as Record<string, string>;
    expect(errors['mcp__files__read.file']).toBe(
      `'mcp__files__read.file' is a directly-listed tool, not a deferred one. Its schema is already in your tool list. Call it directly as '${alias}'.`,
    );
    expect(errors.tool_call).toContain('directly-listed');
    expect(payload).not.toHaveProperty('not_found');
  });
});
