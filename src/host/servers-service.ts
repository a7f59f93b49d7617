import type { ImportReview, ServerView } from '../api/ui-api.js';
import { ToolbridgeError } from '../base/errors.js';
import { ambiguousServerId } from '../base/server-id.js';
import type { ServerManager } from '../servers/server-manager.js';
import { maskServerConfig } from '../servers/server-secrets.js';
import { validateServerConfig } from '../servers/settings.js';
import type { ServerConfig } from '../servers/types.js';
import { SettingsStore } from '../store/settings-file.js';
import type { HostCatalog } from './host-catalog.js';
import type { HostSettings } from './host-settings.js';
import { ServerImports } from './server-imports.js';
import type { ServerSignIn } from './server-sign-in.js';

export interface ServersServiceParts {
  servers: ServerManager;
  catalog: HostCatalog;
  settings: HostSettings;
  signIn: ServerSignIn;
}

/**
 * The one servers service: the UI API's server methods and the agent's `manage_connections`
 * (install, enable, sign in) both call it, so a server is added, enabled or signed in one way,
 * written to the settings first and then connected.
 */
export class ServersService {
  #serverImports: ServerImports | undefined;

  constructor(private readonly host: ServersServiceParts) {}

  async listServers(): Promise<ServerView[]> {
    return this.host.servers.ids().map((id) => serverView(this.host, id));
  }

  async addServer(config: ServerConfig): Promise<ServerView> {
    const valid = validateServerConfig(config);
    refuseAmbiguousId(valid.id);
    if (this.host.servers.has(valid.id)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `A server with id "${valid.id}" already exists; choose another id.`,
      );
    }
    const next = await this.host.settings.update((draft) => {
      draft.servers.push(valid);
      return draft;
    });
    await this.host.servers.add(storedServer(next.servers, valid.id));
    return serverView(this.host, valid.id);
  }

  async updateServer(id: string, config: ServerConfig): Promise<ServerView> {
    this.requireServer(id);
    const valid = validateServerConfig(config);
    // A server kept from older settings under such an id may be edited, and renamed away from it.
    if (valid.id !== id) refuseAmbiguousId(valid.id);
    if (valid.id !== id && this.host.servers.has(valid.id)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `A server with id "${valid.id}" already exists; choose another id.`,
      );
    }
    const next = await this.host.settings.update((draft) => {
      draft.servers = draft.servers.map((server) => (server.id === id ? valid : server));
      return draft;
    });
    await this.host.servers.update(id, storedServer(next.servers, valid.id));
    return serverView(this.host, valid.id);
  }

  async removeServer(id: string): Promise<void> {
    this.requireServer(id);
    await this.host.settings.update((draft) => {
      draft.servers = draft.servers.filter((server) => server.id !== id);
      return draft;
    });
    await this.host.servers.remove(id);
  }

  async setServerEnabled(id: string, enabled: boolean): Promise<ServerView> {
    this.requireServer(id);
    const next = await this.host.settings.update((draft) => {
      draft.servers = draft.servers.map((server) => (server.id === id ? { ...server, enabled } : server));
      return draft;
    });
    await this.host.servers.update(id, storedServer(next.servers, id));
    return serverView(this.host, id);
  }

  async restartServer(id: string): Promise<ServerView> {
    this.requireServer(id);
    await this.host.servers.restart(id);
    return serverView(this.host, id);
  }

  async authorizeServer(id: string): Promise<{ authorizationUrl: string }> {
    this.requireServer(id);
    const url = await this.host.signIn.authorize(this.host.servers.snapshotOf(id).config);
    return { authorizationUrl: url.href };
  }

  async reviewImport(configText: string): Promise<ImportReview> {
    return this.#imports().review(configText);
  }

  async confirmImport(reviewId: string): Promise<ServerView[]> {
    const ids = await this.#imports().confirm(reviewId);
    return ids.map((id) => serverView(this.host, id));
  }

  /** Imports need the writable settings; made once, on first use. */
  #imports(): ServerImports {
    const { settings, servers } = this.host;
    if (!(settings instanceof SettingsStore)) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        'Settings are read-only in this process; import in the app.',
      );
    }
    this.#serverImports ??= new ServerImports(settings, async (id) => {
      await servers.add(storedServer(settings.current.servers, id));
    });
    return this.#serverImports;
  }

  /** Throws NOT_FOUND, naming the servers there are, for an id no server has. */
  requireServer(id: string): void {
    if (!this.host.servers.has(id)) {
      const known = this.host.servers.ids();
      throw new ToolbridgeError(
        'NOT_FOUND',
        `No server "${id}".${known.length > 0 ? ` Known servers: ${known.join(', ')}.` : ''}`,
      );
    }
  }
}

/** A server as the UI shows it: secrets masked, bounded stderr tail, its own policy. */
export function serverView(
  host: Pick<ServersServiceParts, 'servers' | 'settings' | 'catalog'>,
  id: string,
): ServerView {
  const snapshot = host.servers.snapshotOf(id);
  const policy = host.settings.current.policies.servers[id];
  const view: ServerView = {
    id,
    name: snapshot.config.name ?? id,
    status: snapshot.status,
    enabled: snapshot.config.enabled,
    trusted: snapshot.config.trusted === true,
    config: maskServerConfig(snapshot.config),
    toolCount: snapshot.toolCount,
    stderrTail: snapshot.stderrTail,
  };
  if (snapshot.lastError !== undefined) view.lastError = snapshot.lastError;
  if (snapshot.reconnects !== undefined) view.reconnects = { ...snapshot.reconnects };
  if (policy !== undefined) view.policy = policy;
  const nameProblem = host.catalog.nameProblem(id);
  if (nameProblem !== undefined) view.nameProblem = nameProblem;
  return view;
}

function refuseAmbiguousId(id: string): void {
  const problem = ambiguousServerId(id);
  if (problem !== undefined) throw new ToolbridgeError('INVALID_ARGUMENT', problem);
}

/** The config as settings stored it: secret values replaced by references. */
function storedServer(servers: readonly ServerConfig[], id: string): ServerConfig {
  const found = servers.find((server) => server.id === id);
  if (found === undefined) throw new Error(`server "${id}" missing from settings right after writing it`);
  return found;
}
