import { type Disposable, toDisposable } from './lifecycle.js';

/** Subscribing returns a Disposable that unsubscribes. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** Keep the Emitter private; expose only `.event`. A throwing listener never stops the others. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.warn('toolbridge: an event listener threw:', error);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
