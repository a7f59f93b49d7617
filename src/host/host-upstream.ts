import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  type CompleteRequest,
  CompleteResultSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  type LoggingLevel,
  type Prompt,
  ReadResourceResultSchema,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { RelayedNotification, UpstreamContext, UpstreamFeatures } from '../agents/upstream.js';
import { Emitter, type Event } from '../base/emitter.js';
import { errorMessage, ToolbridgeError } from '../base/errors.js';
import { type Disposable, DisposableStore } from '../base/lifecycle.js';
import { ambiguousServerId } from '../base/server-id.js';
import type { ToolExecutor } from '../bridge/types.js';
import {
  namespaceContentBlock,
  namespacedPromptName,
  namespacedUri,
  parseNamespacedUri,
  parsePromptName,
  RESOURCE_URI_PREFIX,
  type UpstreamName,
} from '../catalog/upstream-names.js';
import type { ServerManager, ServerNotification } from '../servers/server-manager.js';
import type { ServerSnapshot } from '../servers/types.js';

/** A safety net against servers whose cursors never end (as for tools). */
const MAX_PAGES = 100;

type Feature = 'resources' | 'prompts' | 'completions';

export interface HostUpstreamOptions {
  servers: Pick<
    ServerManager,
    | 'snapshot'
    | 'request'
    | 'subscribe'
    | 'unsubscribe'
    | 'setLoggingLevel'
    | 'onDidNotify'
    | 'onDidChangeStatus'
  >;
  /** A server's approval policy is `deny`: none of its resources or prompts reach agents. */
  denied: (serverId: string) => boolean;
  log: (line: string) => void;
}

/**
 * The servers' resources, templates, prompts and completions for agents, under agent-facing names
 * (catalog/upstream-names.ts), from every enabled, connected server whose policy is not `deny`.
 * Reads, prompts and completions are not put to the approval policy: MCP has them select
 * context (application- and user-controlled) with no effects, unlike tool calls.
 */
export class HostUpstream implements UpstreamFeatures, Disposable {
  private readonly store = new DisposableStore();
  private readonly _onDidNotify = new Emitter<RelayedNotification>();
  readonly onDidNotify: Event<RelayedNotification> = this._onDidNotify.event;
  /** Which servers offer resources and prompts now, to announce list changes when one comes or goes. */
  private offering = { resources: '', prompts: '' };

  constructor(private readonly options: HostUpstreamOptions) {
    this.offering = this.offeringNow();
    this.store.add(this._onDidNotify);
    this.store.add(options.servers.onDidNotify((event) => this.relay(event)));
    this.store.add(options.servers.onDidChangeStatus(() => this.recheckOffering()));
  }

  async listResources(): Promise<Resource[]> {
    return this.gather('resources', async (serverId) => {
      const items = await this.allPages(
        serverId,
        'resources/list',
        ListResourcesResultSchema,
        (r) => r.resources,
      );
      return items.map((item) => ({ ...item, uri: namespacedUri(serverId, item.uri) }));
    });
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.gather('resources', async (serverId) => {
      const items = await this.allPages(
        serverId,
        'resources/templates/list',
        ListResourceTemplatesResultSchema,
        (r) => r.resourceTemplates,
      );
      return items.map((item) => ({ ...item, uriTemplate: namespacedUri(serverId, item.uriTemplate) }));
    });
  }

  async readResource(uri: string, context: UpstreamContext) {
    const target = this.resolve(parseNamespacedUri(uri), 'resources', () => unknownResource(uri));
    const result = await this.options.servers.request(
      target.serverId,
      'resources/read',
      { uri: target.name },
      ReadResourceResultSchema,
      withSignal(context),
    );
    return {
      ...result,
      contents: result.contents.map((item) => ({ ...item, uri: namespacedUri(target.serverId, item.uri) })),
    };
  }

  async listPrompts(): Promise<Prompt[]> {
    return this.gather('prompts', async (serverId) => {
      const items = await this.allPages(serverId, 'prompts/list', ListPromptsResultSchema, (r) => r.prompts);
      return items.map((item) => ({ ...item, name: namespacedPromptName(serverId, item.name) }));
    });
  }

  async getPrompt(name: string, args: Record<string, string>, context: UpstreamContext) {
    const target = this.resolve(parsePromptName(name), 'prompts', () => unknownPrompt(name));
    const result = await this.options.servers.request(
      target.serverId,
      'prompts/get',
      { name: target.name, arguments: args },
      GetPromptResultSchema,
      withSignal(context),
    );
    return {
      ...result,
      messages: result.messages.map((message) => ({
        ...message,
        content: namespaceContentBlock(target.serverId, message.content),
      })),
    };
  }

  async complete(params: CompleteRequest['params'], context: UpstreamContext) {
    const { ref } = params;
    const target =
      ref.type === 'ref/prompt'
        ? this.resolve(parsePromptName(ref.name), 'completions', () => unknownPrompt(ref.name))
        : this.resolve(parseNamespacedUri(ref.uri), 'completions', () => unknownResource(ref.uri));
    const ownRef = ref.type === 'ref/prompt' ? { ...ref, name: target.name } : { ...ref, uri: target.name };
    return this.options.servers.request(
      target.serverId,
      'completion/complete',
      { ...params, ref: ownRef },
      CompleteResultSchema,
      withSignal(context),
    );
  }

  async subscribe(uri: string): Promise<void> {
    const target = this.resolve(parseNamespacedUri(uri), 'resources', () => unknownResource(uri));
    const capabilities = this.snapshotOf(target.serverId)?.features?.capabilities.resources;
    if ((capabilities as { subscribe?: unknown } | undefined)?.subscribe !== true) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Server "${target.serverId}" does not offer resource subscriptions; read ${uri} again when you need it.`,
      );
    }
    await this.options.servers.subscribe(target.serverId, target.name);
  }

  async unsubscribe(uri: string): Promise<void> {
    const target = parseNamespacedUri(uri);
    if (target !== undefined && this.snapshotOf(target.serverId) !== undefined) {
      await this.options.servers.unsubscribe(target.serverId, target.name);
    }
  }

  setLoggingLevel(level: LoggingLevel): Promise<void> {
    return this.options.servers.setLoggingLevel(level);
  }

  dispose(): void {
    void this.store.close();
  }

  /** One list from every server that offers `feature`; a server that fails is left out and logged. */
  private async gather<T>(feature: Feature, list: (serverId: string) => Promise<T[]>): Promise<T[]> {
    const lists = await Promise.all(
      this.offeringServers(feature).map((server) =>
        list(server.id).catch((error: unknown) => {
          this.options.log(
            `toolbridge: listing ${feature} of server "${server.id}" failed: ${errorMessage(error)}`,
          );
          return [];
        }),
      ),
    );
    return lists.flat();
  }

  private async allPages<S extends AnySchema, T>(
    serverId: string,
    method: string,
    schema: S,
    items: (page: SchemaOutput<S>) => T[],
  ): Promise<T[]> {
    const all: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.options.servers.request(
        serverId,
        method,
        cursor === undefined ? {} : { cursor },
        schema,
      );
      all.push(...items(result));
      cursor = (result as { nextCursor?: string }).nextCursor;
      if (cursor === undefined || seen.has(cursor)) break;
      seen.add(cursor);
    }
    return all;
  }

  private offeringServers(feature: Feature): ServerSnapshot[] {
    return this.options.servers
      .snapshot()
      .filter(
        (server) =>
          server.status === 'connected' &&
          server.features?.capabilities[feature] !== undefined &&
          ambiguousServerId(server.id) === undefined &&
          !this.options.denied(server.id),
      );
  }

  private snapshotOf(serverId: string): ServerSnapshot | undefined {
    return this.options.servers.snapshot().find((server) => server.id === serverId);
  }

  /** The server behind an agent-facing name, when that server offers `feature` to agents now. */
  private resolve(
    name: UpstreamName | undefined,
    feature: Feature,
    unknown: () => ToolbridgeError,
  ): UpstreamName {
    if (name === undefined) throw unknown();
    const server = this.snapshotOf(name.serverId);
    if (server === undefined || ambiguousServerId(server.id) !== undefined) throw unknown();
    if (this.options.denied(server.id)) {
      throw new ToolbridgeError(
        'NOT_FOUND',
        `Server "${server.id}" is denied by the user's policy, so Toolbridge does not offer its ${feature}.`,
      );
    }
    if (server.status !== 'connected') {
      throw new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Server "${server.id}" is not connected (${server.status}); try again once it is, or ask the user to check it in Toolbridge under Servers.`,
      );
    }
    if (server.features?.capabilities[feature] === undefined) {
      throw new ToolbridgeError('NOT_FOUND', `Server "${server.id}" offers no ${feature}.`);
    }
    return name;
  }

  private relay({ id, notification }: ServerNotification): void {
    if (ambiguousServerId(id) !== undefined || this.options.denied(id)) return;
    switch (notification.method) {
      case 'notifications/resources/updated':
        this._onDidNotify.fire({
          method: notification.method,
          params: { uri: namespacedUri(id, notification.params.uri) },
        });
        return;
      case 'notifications/message': {
        const { level, logger, data } = notification.params;
        this._onDidNotify.fire({
          method: notification.method,
          params: {
            level: level as LoggingLevel,
            logger: logger === undefined ? id : `${id}/${logger}`,
            data: data ?? null,
          },
        });
        return;
      }
      default:
        this._onDidNotify.fire({ method: notification.method });
    }
  }

  private offeringNow(): { resources: string; prompts: string } {
    const ids = (feature: Feature) =>
      this.offeringServers(feature)
        .map((server) => server.id)
        .join(',');
    return { resources: ids('resources'), prompts: ids('prompts') };
  }

  /**
   * Tells agents to re-list resources or prompts when the servers offering them changed (one came
   * or went, or its policy became or stopped being `deny`). Server changes are watched; the host
   * calls this after a settings change.
   */
  recheckOffering(): void {
    const now = this.offeringNow();
    if (now.resources !== this.offering.resources) {
      this._onDidNotify.fire({ method: 'notifications/resources/list_changed' });
    }
    if (now.prompts !== this.offering.prompts)
      this._onDidNotify.fire({ method: 'notifications/prompts/list_changed' });
    this.offering = now;
  }
}

/**
 * The local tool executor with every resource URI in a result put under its server, so a
 * `resource_link` (or embedded resource) a tool returns can be read through Toolbridge.
 */
export function withNamespacedResources(executor: ToolExecutor): ToolExecutor {
  return {
    ...executor,
    callTool: async (entry, args, context) => {
      const result = await executor.callTool(entry, args, context);
      if (!Array.isArray(result.content)) return result;
      return {
        ...result,
        content: result.content.map((block) => namespaceContentBlock(entry.serverId, block)),
      };
    },
  };
}

function withSignal(context: UpstreamContext): { signal?: AbortSignal } {
  return context.signal === undefined ? {} : { signal: context.signal };
}

function unknownResource(uri: string): ToolbridgeError {
  return new ToolbridgeError(
    'NOT_FOUND',
    `Resource "${uri}" is not one Toolbridge offers. Its resource URIs look like ${RESOURCE_URI_PREFIX}<server>/<the server's own URI>: take them from resources/list or resources/templates/list.`,
  );
}

function unknownPrompt(name: string): ToolbridgeError {
  return new ToolbridgeError(
    'NOT_FOUND',
    `Prompt "${name}" is not one Toolbridge offers. Its prompt names look like <server>__<prompt>: take them from prompts/list.`,
  );
}
