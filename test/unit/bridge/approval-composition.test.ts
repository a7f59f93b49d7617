/**
 * The bridge in front of the real approval gate, as the host composes them: every connector
 * entry gets its own decision, and a Stop on one card interrupts the entries after it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../../src/approvals/approval-queue.js';
import { ApprovalGate } from '../../../src/approvals/gate.js';
import type { PolicyConfig } from '../../../src/approvals/policy.js';
import type { JsonObject } from '../../../src/base/json.js';
import type { ToolExecutor } from '../../../src/bridge/types.js';
import { buildSurface, CONTEXT, fakeConnectorBackend, payloadOf } from './bridge-fixtures.js';

const call = (name: string) => ({ name, arguments: { note: name } });

describe('connector batches through the approval gate', () => {
  let queue: ApprovalQueue;
  afterEach(async () => queue.close());

  function gated(policy: PolicyConfig): { gate: ApprovalGate; wrap: (inner: ToolExecutor) => ToolExecutor } {
    queue = new ApprovalQueue({ cardTimeoutMs: 5_000 });
    const gate = new ApprovalGate({ policy: () => policy, queue });
    // The host's adapter: one gate decision per real call, then the wrapped executor runs it.
    const wrap = (inner: ToolExecutor): ToolExecutor => ({
      callTool: (entry, args, context) =>
        gate.call(
          {
            agentId: context.agentId,
            name: entry.name,
            serverId: entry.serverId,
            toolName: entry.toolName,
            arguments: args as JsonObject,
            definitionHash: 'test',
            signal: context.signal,
            stop: context.stop,
          },
          (finalArgs) => inner.callTool(entry, finalArgs, context),
        ),
    });
    return { gate, wrap };
  }

  it('decides each entry on its own: a denied entry fails alone, its siblings run', async () => {
    const { wrap } = gated({ defaultPolicy: 'allow', connectors: { slack: { policy: 'deny' } } });
    const backend = fakeConnectorBackend((name) => ({ response: `sent by ${name}` }));
    const { surface } = buildSurface({ connectors: backend, wrap });
    const payload = payloadOf(
      await surface.callTool(
        'tool_call',
        {
          calls: [
            call('connectors__gmail__SEND'),
            call('connectors__slack__POST'),
            call('connectors__gmail__DRAFT'),
          ],
        },
        CONTEXT,
      ),
    );
    const results = payload.results as Array<Record<string, { code?: string }>>;
    expect(results.map((slot) => slot.error?.code ?? 'ok')).toEqual(['ok', 'DENIED', 'ok']);
    expect(backend.calls.map((entry) => entry.name)).toEqual([
      'connectors__gmail__SEND',
      'connectors__gmail__DRAFT',
    ]);
    expect(payload).toMatchObject({ success_count: 2, error_count: 1, total_count: 3 });
  });

  it('stops the batch when the user presses Stop on a card: later entries are never sent', async () => {
    const { wrap } = gated({ defaultPolicy: 'ask' });
    const backend = fakeConnectorBackend();
    const { surface } = buildSurface({ connectors: backend, wrap });
    let cards = 0;
    queue.onDidOpenCard((card) => {
      cards += 1;
      queue.resolve(card.id, cards === 1 ? { action: 'approve' } : { action: 'stop' });
    });
    const stop = new AbortController();
    const payload = payloadOf(
      await surface.callTool(
        'tool_call',
        { calls: [call('connectors__a__ONE'), call('connectors__b__TWO'), call('connectors__c__THREE')] },
        { ...CONTEXT, stop },
      ),
    );
    expect(cards).toBe(2);
    expect(backend.calls.map((entry) => entry.name)).toEqual(['connectors__a__ONE']);
    const results = payload.results as Array<Record<string, { code?: string }>>;
    expect(results.map((slot) => slot.error?.code ?? 'ok')).toEqual(['ok', 'INTERRUPTED', 'INTERRUPTED']);
  });
});
