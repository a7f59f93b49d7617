import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { UI_EVENTS, UI_METHODS } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { UiPresence } from '../../../src/host/ui-presence.js';
import { createFakeApi } from './fake-api.js';
import { SAMPLE_PARAMS } from './sample-params.js';
import {
  closed,
  frames,
  openSignedInSocket,
  openSocket,
  signIn,
  startUi,
  type UiUnderTest,
} from './web-test-kit.js';

let ui: UiUnderTest | undefined;
afterEach(async () => {
  await ui?.close();
  ui = undefined;
});

function echoAll() {
  const impl = Object.fromEntries(UI_METHODS.map((method) => [method, async () => ({ method })]));
  return createFakeApi(impl);
}

describe('UiSocketServer', () => {
  it('counts each open page as a UI while its socket is open (attachUi)', async () => {
    const fake = echoAll();
    const presence = new UiPresence();
    let released = 0;
    Object.assign(fake.api, {
      attachUi: () => {
        const attached = presence.attach();
        return {
          dispose: () => {
            attached.dispose();
            released += 1;
          },
        };
      },
    });
    ui = await startUi(fake);
    expect(presence.present).toBe(false);
    const cookie = await signIn(ui);
    const open = async () => {
      const result = await openSocket(ui!, { Origin: ui!.origin, Cookie: cookie });
      if (!('ws' in result)) throw new Error(`socket refused: ${result.status}`);
      return result.ws;
    };
    const first = await open();
    const second = await open();
    await expect.poll(() => presence.present).toBe(true);
    first.close();
    await closed(first);
    // Once the server has released the first socket, the second still holds the UI present.
    await expect.poll(() => released).toBe(1);
    expect(presence.present).toBe(true);
    second.close();
    await closed(second);
    await expect.poll(() => presence.present).toBe(false);
  });

  it('forwards every UI method with its parameters and replies by id', async () => {
    ui = await startUi(echoAll());
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    UI_METHODS.forEach((method, id) => {
      ws.send(JSON.stringify({ id, method, params: SAMPLE_PARAMS[method] }));
    });
    for (const [id, method] of UI_METHODS.entries()) {
      expect(await inbox.reply(id)).toEqual({ type: 'reply', id, reply: { ok: true, value: { method } } });
    }
    expect(ui.fake.calls.map((call) => [call.method, call.params])).toEqual(
      expect.arrayContaining(UI_METHODS.map((method) => [method, SAMPLE_PARAMS[method]])),
    );
    expect(ui.fake.calls).toHaveLength(UI_METHODS.length);
    ws.close();
  });

  it('returns a ToolbridgeError as code, message and data, and hides unexpected errors', async () => {
    ui = await startUi(
      createFakeApi({
        removeServer: async () => {
          throw new ToolbridgeError('NOT_FOUND', 'Server "x" does not exist.', { data: { id: 'x' } });
        },
        listServers: async () => {
          throw new Error('database path /secret/place exploded');
        },
      }),
      { log: () => {} },
    );
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    ws.send(JSON.stringify({ id: 1, method: 'removeServer', params: ['x'] }));
    ws.send(JSON.stringify({ id: 2, method: 'listServers', params: [] }));
    expect(await inbox.reply(1)).toEqual({
      type: 'reply',
      id: 1,
      reply: {
        ok: false,
        error: { code: 'NOT_FOUND', message: 'Server "x" does not exist.', data: { id: 'x' } },
      },
    });
    const internal = await inbox.reply(2);
    expect(internal).toMatchObject({ reply: { ok: false, error: { code: 'INTERNAL' } } });
    expect(JSON.stringify(internal)).not.toContain('/secret/place');
    ws.close();
  });

  it.each([
    ['not JSON', '{oops', null, 'not valid JSON'],
    ['an unknown method', JSON.stringify({ id: 3, method: 'eval', params: [] }), 3, 'not a UI request'],
    ['the "on" method', JSON.stringify({ id: 4, method: 'on', params: ['x'] }), 4, 'not a UI request'],
    [
      'extra fields',
      JSON.stringify({ id: 5, method: 'listServers', params: [], x: 1 }),
      5,
      'not a UI request',
    ],
    [
      'a negative id',
      JSON.stringify({ id: -1, method: 'listServers', params: [] }),
      null,
      'not a UI request',
    ],
    [
      'wrong parameter types',
      JSON.stringify({ id: 6, method: 'setServerEnabled', params: ['a', 'yes'] }),
      6,
      'Bad parameters',
    ],
    [
      'too many parameters',
      JSON.stringify({ id: 7, method: 'listServers', params: [1] }),
      7,
      'Bad parameters',
    ],
    [
      'a bad decision',
      JSON.stringify({ id: 8, method: 'resolveCard', params: ['c', { action: 'yolo' }] }),
      8,
      'Bad parameters',
    ],
  ])(
    'answers %s with a structured INVALID_ARGUMENT error and calls nothing',
    async (_label, frame, id, text) => {
      ui = await startUi(echoAll());
      const ws = await openSignedInSocket(ui);
      const inbox = frames(ws);
      ws.send(frame);
      const reply = await inbox.next((m) => m.type === 'reply');
      expect(reply).toMatchObject({
        type: 'reply',
        id,
        reply: { ok: false, error: { code: 'INVALID_ARGUMENT' } },
      });
      expect(JSON.stringify(reply)).toContain(text);
      expect(ui.fake.calls).toHaveLength(0);
      ws.close();
    },
  );

  it.each([
    [
      'setToolPolicy',
      ['mcp__files__read', 'never'],
      'Bad parameters for setToolPolicy: /1 must be equal to one of the allowed values: "allow", "ask", "deny", null.',
    ],
    [
      'setServerPolicy',
      ['files'],
      'Bad parameters for setServerPolicy: (root) must NOT have fewer than 2 items.',
    ],
    [
      'removePolicyRule',
      [''],
      'Bad parameters for removePolicyRule: /0 must NOT have fewer than 1 characters.',
    ],
    ['listPolicyRules', ['x'], 'Bad parameters for listPolicyRules: (root) must NOT have more than 0 items.'],
  ])('checks the policy methods’ parameters: %s %j', async (method, params, message) => {
    ui = await startUi(echoAll());
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    ws.send(JSON.stringify({ id: 1, method, params }));
    expect(await inbox.reply(1)).toEqual({
      type: 'reply',
      id: 1,
      reply: { ok: false, error: { code: 'INVALID_ARGUMENT', message } },
    });
    expect(ui.fake.calls).toHaveLength(0);
    ws.close();
  });

  it('refuses binary frames', async () => {
    ui = await startUi(echoAll());
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    ws.send(Buffer.from(JSON.stringify({ id: 1, method: 'listServers', params: [] })), { binary: true });
    expect(await inbox.next((m) => m.type === 'reply')).toMatchObject({ reply: { ok: false } });
    ws.close();
  });

  it('pushes every UI event to the socket and unsubscribes when it closes', async () => {
    ui = await startUi(echoAll());
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    expect(ui.fake.listenerCount()).toBe(UI_EVENTS.length);
    ui.fake.emit('cardResolved', { id: 'card-1', outcome: 'approved' });
    expect(await inbox.next((m) => m.type === 'event')).toEqual({
      type: 'event',
      event: 'cardResolved',
      payload: { id: 'card-1', outcome: 'approved' },
    });
    const done = closed(ws);
    ws.close();
    await done;
    await expect.poll(() => ui?.fake.listenerCount()).toBe(0);
  });

  it('closes a socket that sends a 1 MiB frame with 1009, and stays up for others', async () => {
    ui = await startUi(echoAll());
    const cookie = await signIn(ui);
    const [big, other] = await Promise.all(
      [0, 1].map(() => openSocket(ui!, { Origin: ui!.origin, Cookie: cookie })),
    );
    if (big === undefined || other === undefined || !('ws' in big) || !('ws' in other))
      throw new Error('not open');
    const done = closed(big.ws);
    big.ws.send('x'.repeat(1024 * 1024));
    expect((await done).code).toBe(1009);
    const inbox = frames(other.ws);
    other.ws.send(JSON.stringify({ id: 9, method: 'listServers', params: [] }));
    expect(await inbox.reply(9)).toMatchObject({ reply: { ok: true } });
    other.ws.close();
  });

  it('closes a socket that floods past the rate limit with 1008', async () => {
    ui = await startUi(echoAll(), { rateLimit: { perSecond: 1, burst: 5 }, now: () => 0 });
    const ws = await openSignedInSocket(ui);
    const done = closed(ws);
    for (let id = 0; id < 6; id++) ws.send(JSON.stringify({ id, method: 'listServers', params: [] }));
    expect((await done).code).toBe(1008);
    expect(ui.fake.calls).toHaveLength(5);
  });

  it('drops a socket that stops answering pings', async () => {
    ui = await startUi(echoAll(), { pingIntervalMs: 20 });
    const ws = await openSignedInSocket(ui, { autoPong: false });
    const done = closed(ws);
    expect((await done).code).toBe(1006);
  });

  it('survives 10k fuzzed frames, answering each one once', async () => {
    ui = await startUi(echoAll(), { rateLimit: { perSecond: 1e9, burst: 1e9 } });
    const ws = await openSignedInSocket(ui);
    const inbox = frames(ws);
    const frame = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      fc
        .record({
          id: fc.oneof(fc.nat(), fc.integer(), fc.string()),
          method: fc.oneof(fc.constantFrom(...UI_METHODS), fc.string()),
          params: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), fc.jsonValue()),
        })
        .map((value) => JSON.stringify(value)),
    );
    const samples = fc.sample(frame, { numRuns: 10_000, seed: 42 });
    for (const sample of samples) ws.send(sample);
    await expect.poll(() => inbox.received.length, { timeout: 20_000 }).toBe(samples.length);
    for (const message of inbox.received) expect(message.type).toBe('reply');
    ws.send(JSON.stringify({ id: 1, method: 'listAgents', params: [] }));
    await expect.poll(() => inbox.received.length).toBe(samples.length + 1);
    ws.close();
  });
});
