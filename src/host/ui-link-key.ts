import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AsyncDisposable } from '../base/lifecycle.js';
import { writeFileAtomic } from '../store/atomic-file.js';

/**
 * The key `toolbridge ui-link` shows a running `serve` to get a fresh ui: link without a restart.
 * It lives in the data folder, readable only by the user (0600), as the settings and secrets
 * already are: whoever can read it could read those too. A new one each run; removed on close.
 */
export const UI_LINK_KEY_FILE = 'ui-link.key';

export class UiLinkKey implements AsyncDisposable {
  private closed = false;

  private constructor(
    private readonly filePath: string,
    readonly key: string,
  ) {}

  static async create(dataDir: string): Promise<UiLinkKey> {
    const key = randomBytes(32).toString('base64url');
    const filePath = path.join(dataDir, UI_LINK_KEY_FILE);
    await writeFileAtomic(filePath, `${key}\n`);
    return new UiLinkKey(filePath, key);
  }

  /** The running serve's key, or undefined when none is there (no serve, or the desktop app). */
  static async read(dataDir: string): Promise<string | undefined> {
    const text = await fs.readFile(path.join(dataDir, UI_LINK_KEY_FILE), 'utf8').catch(() => undefined);
    const key = text?.trim();
    return key === undefined || key === '' ? undefined : key;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Only ours: a later serve on the same folder has written its own.
    const current = await UiLinkKey.read(path.dirname(this.filePath));
    if (current === this.key) await fs.rm(this.filePath, { force: true });
  }
}
