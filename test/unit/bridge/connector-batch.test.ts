import { describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import type { ToolExecutor } from '../../../src/bridge/types.js';
import { buildSurface, CONTEXT, fakeConnectorBackend, mcpEntry, payloadOf } from './bridge-fixtures.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

describe('tool_call with connector entries', () => {
  it('runs entries one at a time in input order, each through the executor wrapper on its own', async () => {
    const backend = fakeConnectorBackend((name) => ({ response: `did ${name}`, account: 'work' }));
    const seen: string[] = [];
    const { surface } = buildSurface({
      connectors: backend,
      wrap: (inner): ToolExecutor => ({
        async callTool(entry, args, context) {
          seen.push(entry.name);
          return inner.callTool(entry, args, context);
        },
      }),
    });
    const result = await surface.callTool(
      'tool_call',
      { calls: [call('connectors__gmail__SEND_EMAIL', { to: 'a' }), call('connectors__slack__POST')] },
      CONTEXT,
    );
    expect(result.isError).toBeUndefined();
    expect(payloadOf(result)).toEqual({
      results: [
        {
          index: 0,
          name: 'connectors__gmail__SEND_EMAIL',
          response: 'did connectors__gmail__SEND_EMAIL',
          account: 'work',
        },
        {
          index: 1,
          name: 'connectors__slack__POST',
          response: 'did connectors__slack__POST',
          account: 'work',
        },
      ],
      success_count: 2,
      error_count: 0,
      total_count: 2,
    });
    expect(seen).toEqual(['connectors__gmail__SEND_EMAIL', 'connectors__slack__POST']);
    expect(backend.calls.map(({ connector, tool, args }) => ({ connector, tool, args }))).toEqual([
      { connector: 'gmail', tool: 'SEND_EMAIL', args: { to: 'a' } },
      { connector: 'slack', tool: 'POST', args: {} },
    ]);
  });

  it('marks every entry not yet started INTERRUPTED when the user stops, and never sends them', async () => {
    const stop = new AbortController();
    const backend = fakeConnectorBackend(() => {
      stop.abort(); // the user presses Stop while the first entry runs
      return { response: 'first' };
    });
    const { surface } = buildSurface({ connectors: backend });
    const payload = payloadOf(
      await surface.callTool(
        'tool_call',
        { calls: [call('connectors__a__ONE'), call('connectors__b__TWO'), call('connectors__c__THREE')] },
        { ...CONTEXT, stop },
      ),
    );
    expect(backend.calls.map((entry) => entry.name)).toEqual(['connectors__a__ONE']);
    const interrupted = { code: 'INTERRUPTED', message: 'Stopped by the user before this call was made.' };
    expect(payload).toEqual({
      results: [
        { index: 0, name: 'connectors__a__ONE', response: 'first' },
        { index: 1, name: 'connectors__b__TWO', error: interrupted },
        { index: 2, name: 'connectors__c__THREE', error: interrupted },
      ],
      success_count: 1,
      error_count: 2,
      total_count: 3,
    });
  });

  it('fails only the malformed entry with TOOL_NOT_FOUND; its siblings still run', async () => {
    const backend = fakeConnectorBackend();
    const { surface } = buildSurface({ connectors: backend });
    const payload = payloadOf(
      await surface.callTool(
        'tool_call',
        { calls: [call('connectors__broken'), call('connectors__gmail__SEND'), call('connectors____X')] },
        CONTEXT,
      ),
    );
    const results = payload.results as Array<Record<string, { code: string }>>;
    expect(results.map((slot) => slot.error?.code ?? 'ok')).toEqual([
      'TOOL_NOT_FOUND',
      'ok',
      'TOOL_NOT_FOUND',
    ]);
    expect(backend.calls.map((entry) => entry.name)).toEqual(['connectors__gmail__SEND']);
    expect(payload).toMatchObject({ success_count: 1, error_count: 2, total_count: 3 });
  });

  it('keeps the code of a refusal, reports other failures as PROVIDER_ERROR, and a missing result too', async () => {
    const executor: ToolExecutor = {
      async callTool(entry) {
        if (entry.toolName === 'DENIED') throw new ToolbridgeError('DENIED', 'The user denied this call.');
        if (entry.toolName === 'BROKEN') throw new Error('socket hang up');
        if (entry.toolName === 'EMPTY') return undefined as never;
        if (entry.toolName === 'FAILS')
          return { isError: true, content: [{ type: 'text', text: 'quota exceeded' }] };
        return { content: [{ type: 'text', text: '{"rows":3}' }] };
      },
    };
    const { surface } = buildSurface({ connectors: fakeConnectorBackend(), wrap: () => executor });
    const result = await surface.callTool(
      'tool_call',
      {
        calls: ['DENIED', 'BROKEN', 'EMPTY', 'FAILS', 'PLAIN'].map((tool) => call(`connectors__x__${tool}`)),
      },
      CONTEXT,
    );
    expect(payloadOf(result).results).toEqual([
      {
        index: 0,
        name: 'connectors__x__DENIED',
        error: { code: 'DENIED', message: 'The user denied this call.' },
      },
      {
        index: 1,
        name: 'connectors__x__BROKEN',
        error: { code: 'PROVIDER_ERROR', message: 'socket hang up' },
      },
      {
        index: 2,
        name: 'connectors__x__EMPTY',
        error: { code: 'PROVIDER_ERROR', message: 'No result was produced for this call.' },
      },
      { index: 3, name: 'connectors__x__FAILS', error: { code: 'TOOL_ERROR', message: 'quota exceeded' } },
      { index: 4, name: 'connectors__x__PLAIN', response: { rows: 3 } },
    ]);
    expect(result.isError).toBeUndefined();
  });

  it('passes gateway error bodies through whole and marks an all-failed batch isError', async () => {
    const body = {
      code: 'CONNECTION_REQUIRED',
      message: 'Connect gmail first.',
      connect_card_available: true,
    };
    const { surface } = buildSurface({ connectors: fakeConnectorBackend(() => ({ error: body })) });
    const result = await surface.callTool('tool_call', { calls: [call('connectors__gmail__SEND')] }, CONTEXT);
    expect(result.isError).toBe(true);
    expect(payloadOf(result).results).toEqual([{ index: 0, name: 'connectors__gmail__SEND', error: body }]);
  });

  it('refuses more than 10 entries before running any', async () => {
    const backend = fakeConnectorBackend();
    const { surface } = buildSurface({ connectors: backend });
    const calls = Array.from({ length: 11 }, (_, i) => call(`connectors__a__T${i}`));
    const result = await surface.callTool('tool_call', { calls }, CONTEXT);
    expect(payloadOf(result)).toEqual({
      error: 'too many calls: 11 > max 10. Retry with fewer calls per batch.',
    });
    expect(backend.calls).toEqual([]);
  });

  it('refuses connector entries when the session has no manage_connections', async () => {
    const { surface } = buildSurface({ entries: [mcpEntry('a', 'b')] });
    const result = await surface.callTool('tool_call', { calls: [call('connectors__gmail__SEND')] }, CONTEXT);
    expect(result.isError).toBe(true);
    expect(payloadOf(result)).toEqual({ error: 'Connectors are not available in this session.' });
  });
});
