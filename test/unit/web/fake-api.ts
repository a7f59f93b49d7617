import { type ToolbridgeApi, UI_METHODS, type UiEventMap, type UiMethod } from '../../../src/api/ui-api.js';
import { ToolbridgeError } from '../../../src/base/errors.js';

type Impl = { [M in UiMethod]?: ToolbridgeApi[M] };

export interface FakeApi {
  api: ToolbridgeApi;
  /** Every call in order, with its parameters as received. */
  calls: Array<{ method: UiMethod; params: unknown[] }>;
  emit<E extends keyof UiEventMap>(event: E, payload: UiEventMap[E]): void;
  listenerCount(): number;
}

/**
 * A ToolbridgeApi for transport and store tests: records calls, answers with `impl`, and throws
 * NOT_FOUND for anything not given, so a test never passes on a silent default.
 */
export function createFakeApi(impl: Impl = {}): FakeApi {
  const calls: FakeApi['calls'] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const methods = Object.fromEntries(
    UI_METHODS.map((method) => [
      method,
      async (...params: unknown[]) => {
        calls.push({ method, params });
        const fn = impl[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
        if (fn === undefined) throw new ToolbridgeError('NOT_FOUND', `fake: ${method} has no answer`);
        return fn(...params);
      },
    ]),
  );
  const api = {
    ...methods,
    on(event: string, listener: (payload: unknown) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  } as unknown as ToolbridgeApi;
  return {
    api,
    calls,
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    listenerCount() {
      return [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
    },
  };
}
