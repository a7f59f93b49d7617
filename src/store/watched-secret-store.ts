import { Emitter, type Event } from '../base/emitter.js';
import { type SecretStore, secretScope } from '../base/secret-store.js';

/** A held secret for redaction: the value, and its key as the label (never the value). */
export interface HeldSecret {
  value: string;
  label: string;
}

/**
 * A secret store that also knows every value it holds, so one redactor can mask them all by value
 * wherever text is stored or shown (audit, activity, exports, events, stderr tails, errors, logs).
 * Every write goes through here, so the list is current the moment a secret changes.
 */
export class WatchedSecretStore implements SecretStore {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange: Event<void> = this._onDidChange.event;

  private constructor(
    private readonly inner: SecretStore,
    private readonly values: Map<string, string>,
  ) {}

  private readonly retired: HeldSecret[] = [];

  static async open(inner: SecretStore): Promise<WatchedSecretStore> {
    const values = new Map<string, string>();
    for (const key of await inner.keys()) {
      const value = await inner.get(key);
      if (value !== undefined) values.set(key, value);
    }
    return new WatchedSecretStore(inner, values);
  }

  get kind(): SecretStore['kind'] {
    return this.inner.kind;
  }

  /**
   * Every secret held now, labelled by its key, plus those replaced or deleted since start: a
   * rotated token may still work somewhere and still be echoed by a server, so it stays masked.
   */
  held(): HeldSecret[] {
    return [...[...this.values].map(([label, value]) => ({ label, value })), ...this.retired];
  }

  private retire(key: string): void {
    const value = this.values.get(key);
    if (value === undefined) return;
    this.values.delete(key);
    this.retired.push({ label: `${key} (replaced)`, value });
  }

  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    // Known before it is stored: nothing can echo it unmasked in between.
    this.retire(key);
    this.values.set(key, value);
    this._onDidChange.fire();
    await this.inner.set(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
    this.retire(key);
    this._onDidChange.fire();
  }

  async deleteAllForServer(scope: string): Promise<void> {
    await this.inner.deleteAllForServer(scope);
    for (const key of [...this.values.keys()]) if (secretScope(key) === scope) this.retire(key);
    this._onDidChange.fire();
  }

  keys(scope?: string): Promise<string[]> {
    return this.inner.keys(scope);
  }
}
