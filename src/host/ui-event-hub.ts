import { UI_EVENTS, type UiEventMap } from '../api/ui-api.js';
import { ToolbridgeError } from '../base/errors.js';

type Listener = (payload: never) => void;

/** UI events by name; a throwing listener is logged and never stops the others. */
export class UiEventHub {
  private readonly listeners = new Map<keyof UiEventMap, Set<Listener>>();

  on<E extends keyof UiEventMap>(event: E, listener: (payload: UiEventMap[E]) => void): () => void {
    if (!(UI_EVENTS as readonly string[]).includes(event)) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `Unknown UI event "${String(event)}".`);
    }
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  fire<E extends keyof UiEventMap>(event: E, payload: UiEventMap[E]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (value: UiEventMap[E]) => void)(payload);
      } catch (error) {
        console.warn(`toolbridge: a "${event}" listener threw:`, error);
      }
    }
  }
}
