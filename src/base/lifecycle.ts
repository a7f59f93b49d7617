export interface Disposable {
  dispose(): void;
}

export interface AsyncDisposable {
  close(): Promise<void>;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns disposables and async-closables; closing the store releases them all, newest first. */
export class DisposableStore implements Disposable, AsyncDisposable {
  private readonly items: Array<Disposable | AsyncDisposable> = [];
  private closed = false;

  get isDisposed(): boolean {
    return this.closed;
  }

  add<T extends Disposable | AsyncDisposable>(item: T): T {
    if (this.closed) {
      // Adding after close would leak the item; release it at once instead.
      void releaseOne(item);
      return item;
    }
    this.items.push(item);
    return item;
  }

  dispose(): void {
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const items = this.items.splice(0).reverse();
    for (const item of items) await releaseOne(item);
  }
}

async function releaseOne(item: Disposable | AsyncDisposable): Promise<void> {
  try {
    if ('close' in item) await item.close();
    else item.dispose();
  } catch (error) {
    console.warn('toolbridge: failed to release a resource:', error);
  }
}
