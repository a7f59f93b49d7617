import { type Disposable, toDisposable } from '../base/lifecycle.js';

/**
 * Whether a person can see the UI right now: each open UI (a web page's socket, the desktop
 * window) attaches while it is open. Connection cards only open while one is attached;
 * otherwise a connector answers with its sign-in link at once.
 */
export class UiPresence {
  private count = 0;

  get present(): boolean {
    return this.count > 0;
  }

  /** Counts one UI until the returned handle is disposed (twice is harmless). */
  attach(): Disposable {
    this.count += 1;
    let attached = true;
    return toDisposable(() => {
      if (!attached) return;
      attached = false;
      this.count -= 1;
    });
  }
}
