/**
 * Signing in to remote MCP servers: one McpOAuthClient per HTTP/SSE server (keyed by id, its
 * secrets under that server's scope, so removing the server deletes them), with the server's
 * pre-registered OAuth client when its settings name one. Its guarded fetch is what the server's
 * transport uses; `authorize` starts the browser round trip and hands back the authorization
 * URL, and the server reconnects once the callback has brought the tokens.
 */
import path from 'node:path';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import type { AsyncDisposable } from '../base/lifecycle.js';
import type { SecretStore } from '../base/secret-store.js';
import { checkClientMetadataUrl, McpOAuthClient, type McpOAuthOptions } from '../servers/oauth/mcp-oauth.js';
import { readSecretValue } from '../servers/server-secrets.js';
import type { ServerConfig } from '../servers/types.js';
import { withFileLock } from '../store/file-lock.js';

/** Tuning for tests and embedders; production uses the defaults. */
export type ServerSignInOptions = Pick<
  McpOAuthOptions,
  'clock' | 'refreshSkewMs' | 'signInTimeoutMs' | 'resolveHost' | 'clientName' | 'clientMetadataUrl'
>;

type RemoteServerConfig = Exclude<ServerConfig, { transport: 'stdio' }>;

interface Entry {
  /** The URL and pre-registered client it was made for. */
  key: string;
  client: McpOAuthClient;
  /** Set while a sign-in waits for the browser: its URL, so a second click reuses it. */
  pending?: Promise<URL>;
  /** Where the client's `openUrl` hands the URL of the sign-in being started. */
  onUrl?: (url: URL) => void;
  /** Stops the sign-in waiting for the browser. */
  abort?: AbortController;
}

export class ServerSignIn implements AsyncDisposable {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly parts: {
      secrets: SecretStore;
      /** The data folder: refreshes take a lock file here, shared with other processes on it. */
      dataDir: string;
      /** Reconnects a server after it was signed in. */
      reconnect: (id: string) => Promise<void>;
      log: (line: string) => void;
      /** Toolbridge's own listening ports, never fetched on a server's say-so. */
      ownPorts?: () => readonly number[];
      options?: ServerSignInOptions;
    },
  ) {
    // Refused at start, not at the first sign-in.
    const documentUrl = parts.options?.clientMetadataUrl;
    if (documentUrl !== undefined) checkClientMetadataUrl(documentUrl);
  }

  /**
   * The fetch for this server's transport, or undefined for stdio servers and servers that carry
   * their own Authorization header (the user's credentials win; OAuth would strip them).
   */
  fetchFor(config: ServerConfig): FetchLike | undefined {
    if (config.transport === 'stdio') return undefined;
    const headers = Object.keys(config.headers ?? {}).map((name) => name.toLowerCase());
    if (headers.includes('authorization')) return undefined;
    return this.entryFor(config).client.fetch;
  }

  /** The scopes a step-up sign-in would ask for after the server answered 403 `insufficient_scope`. */
  scopeNeeded(config: ServerConfig): string | undefined {
    if (this.fetchFor(config) === undefined) return undefined;
    return this.entries.get(config.id)?.client.scopeNeeded();
  }

  /**
   * Starts signing in to a server and resolves with the authorization URL for the person to open
   * once it is known (discovery and registration done). The sign-in finishes in the background:
   * when the browser comes back, the tokens are stored and the server reconnects.
   */
  async authorize(config: ServerConfig): Promise<URL> {
    if (config.transport === 'stdio') {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Server "${config.id}" runs on this computer; only remote (HTTP or SSE) servers sign in.`,
      );
    }
    const entry = this.entryFor(config);
    if (entry.pending !== undefined) return entry.pending;
    const abort = new AbortController();
    entry.abort = abort;
    const pending = new Promise<URL>((resolve, reject) => {
      entry.onUrl = resolve;
      entry.client
        // The person pressed Sign in: that asks again even after they declined before.
        .signIn({ signal: abort.signal, force: true })
        .then(
          async () => {
            this.parts.log(`toolbridge: signed in to server "${config.id}"; reconnecting.`);
            await this.parts.reconnect(config.id);
          },
          (error: unknown) => {
            reject(error);
            // Reported here too: the UI call returned long ago when the browser step fails.
            this.parts.log(
              `toolbridge: sign-in to server "${config.id}" did not finish: ${errorMessage(error)}`,
            );
          },
        )
        .finally(() => {
          if (entry.pending === pending) entry.pending = undefined;
          entry.onUrl = undefined;
          entry.abort = undefined;
        });
    });
    // A failure before the URL exists (server down, discovery refused) rejects `pending` and is
    // thrown to the caller; later failures are only logged.
    pending.catch(() => undefined);
    entry.pending = pending;
    return pending;
  }

  /** Forgets a removed server's client (its secrets go with the server's secret scope). */
  forget(id: string): void {
    this.entries.get(id)?.abort?.abort();
    this.entries.delete(id);
  }

  async close(): Promise<void> {
    for (const id of [...this.entries.keys()]) this.forget(id);
  }

  /** The server's client; a new one when its URL or pre-registered client changed. */
  private entryFor(config: RemoteServerConfig): Entry {
    const { id, url, oauth } = config;
    // The secret is read when needed, so only what is not secret tells the clients apart.
    const key = JSON.stringify([
      url,
      oauth?.clientId,
      oauth?.redirectPort,
      oauth?.clientSecret !== undefined,
    ]);
    const existing = this.entries.get(id);
    if (existing !== undefined && existing.key === key) return existing;
    const secrets = this.parts.secrets;
    const secret = oauth?.clientSecret;
    const entry: Entry = {
      key,
      client: new McpOAuthClient({
        ...this.parts.options,
        ...(this.parts.ownPorts === undefined ? {} : { ownPorts: this.parts.ownPorts }),
        serverId: id,
        serverUrl: url,
        store: secrets,
        ...(oauth === undefined
          ? {}
          : {
              client: {
                clientId: oauth.clientId,
                ...(oauth.redirectPort === undefined ? {} : { redirectPort: oauth.redirectPort }),
                ...(secret === undefined ? {} : { clientSecret: () => readSecretValue(secret, secrets) }),
              },
            }),
        refreshLock: (work) => withFileLock(path.join(this.parts.dataDir, `oauth-refresh.${id}.lock`), work),
        openUrl: (authorizationUrl) => {
          entry.onUrl?.(authorizationUrl);
          this.parts.log(`toolbridge: to sign in to server "${id}", open ${authorizationUrl.href}`);
        },
      }),
    };
    this.entries.set(id, entry);
    return entry;
  }
}
