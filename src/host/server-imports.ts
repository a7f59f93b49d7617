/**
 * Pasted and imported configs get the same review as the command form, before anything runs
 * (issue #12): `review` parses and answers what it would add, per server, and keeps that exact
 * set under a random id; `confirm` adds and starts exactly that set, once, within the review's
 * lifetime. The text is never parsed again, so what starts is what the person read.
 */
import { randomBytes } from 'node:crypto';
import type { ImportedServerReview, ImportReview } from '../api/ui-api.js';
import { commandCallouts } from '../base/command-review.js';
import { ToolbridgeError } from '../base/errors.js';
import {
  addImportedServers,
  type ImportFormat,
  parseServerImport,
  type ServerListStore,
} from '../servers/config-import.js';
import { isSecretName } from '../servers/server-secrets.js';
import type { ServerConfig } from '../servers/types.js';

/** How long a review can be confirmed. @defaultValue 10 minutes */
export const IMPORT_REVIEW_MS = 10 * 60_000;
const MAX_OPEN_REVIEWS = 20;

interface HeldReview {
  servers: ServerConfig[];
  expiresAt: number;
}

export class ServerImports {
  private readonly held = new Map<string, HeldReview>();

  constructor(
    private readonly settings: ServerListStore,
    /** Starts one server the settings now hold. */
    private readonly start: (id: string) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Parses and answers the review; changes nothing. Throws INVALID_ARGUMENT when nothing could be imported. */
  review(configText: string): ImportReview {
    const existingIds = this.settings.current.servers.map((server) => server.id);
    const result = parseServerImport(configText, { existingIds });
    if (result.servers.length === 0) {
      throw new ToolbridgeError('INVALID_ARGUMENT', `Nothing to import. ${result.notes.join(' ')}`.trim());
    }
    this.prune();
    const id = randomBytes(16).toString('base64url');
    const expiresAt = this.now() + IMPORT_REVIEW_MS;
    this.held.set(id, { servers: structuredClone(result.servers), expiresAt });
    return {
      id,
      format: result.format satisfies ImportFormat,
      servers: result.servers.map(reviewOf),
      notes: result.notes,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** Adds and starts exactly the reviewed servers; the review is spent whatever happens. */
  async confirm(reviewId: string): Promise<string[]> {
    const held = this.held.get(reviewId);
    this.held.delete(reviewId);
    if (held === undefined || held.expiresAt < this.now()) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        'This import review is no longer open (already confirmed, expired or unknown). Paste the config again and review it.',
      );
    }
    const added = await addImportedServers(this.settings, held.servers);
    for (const server of added) await this.start(server.id);
    return added.map((server) => server.id);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, review] of this.held) if (review.expiresAt < now) this.held.delete(id);
    // A page that reviews in a loop cannot grow this without bound; the oldest goes first.
    while (this.held.size >= MAX_OPEN_REVIEWS) this.held.delete(this.held.keys().next().value!);
  }
}

/** What the person reads for one server: everything that decides what runs, and no secret value. */
function reviewOf(config: ServerConfig): ImportedServerReview {
  const base = {
    id: config.id,
    ...(config.name === undefined ? {} : { name: config.name }),
    transport: config.transport,
    enabled: config.enabled,
  };
  if (config.transport !== 'stdio') {
    return { ...base, url: config.url, headerNames: Object.keys(config.headers ?? {}), callouts: [] };
  }
  const envNames = Object.keys(config.env ?? {});
  return {
    ...base,
    command: config.command,
    args: [...(config.args ?? [])],
    envNames,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    callouts: commandCallouts({
      command: config.command,
      args: config.args ?? [],
      envNames,
      env: nonSecretEnv(config.env ?? {}),
    }),
  };
}

/** Values a review may show: a variable named like a secret keeps its value to itself. */
function nonSecretEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name)));
}
