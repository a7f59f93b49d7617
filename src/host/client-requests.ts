import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestCardContent, RequestCards } from '../approvals/request-cards.js';
import type { JsonObject, JsonValue } from '../base/json.js';
import { createArgumentValidator } from '../bridge/argument-validator.js';
import type { ClientRequestHandler, ServerRequestOrigin } from '../servers/client-requests.js';

/** The JSON-RPC error code the spec gives a sampling request the user rejected. */
const USER_REJECTED = -1;
/** `_meta` key of a declined elicitation's reason, for the server's author. */
const DECLINE_REASON_KEY = 'io.toolbridge/reason';

export interface ClientRequestOptions {
  /** Undefined where no UI can ever show a card (`toolbridge mcp`). */
  cards: RequestCards | undefined;
  /** A Toolbridge window or page is open now. */
  uiPresent(): boolean;
  /** The person prefers cards for elicitation even when the agent could answer. */
  preferCards(): boolean;
  cardTimeoutMs(): number;
  /** The agent-facing name of a server's tool (`mcp__<server>__<tool>`). */
  toolName(serverId: string, toolName: string): string;
}

/**
 * Answers what servers ask their client. Elicitation goes to the agent when it declared that
 * mode, unless a window is open and the person prefers cards; otherwise a card, while a window
 * is open; otherwise it is declined with the reason. Sampling is relayed to an agent that
 * declared it, only after the person approved the prompt on a card; otherwise refused.
 */
export class ClientRequests implements ClientRequestHandler {
  private readonly validator = createArgumentValidator({ maxCachedSchemas: 50 });

  constructor(private readonly options: ClientRequestOptions) {}

  async elicit(params: ElicitRequestParams, origin: ServerRequestOrigin): Promise<ElicitResult> {
    const mode = params.mode ?? 'form';
    const peer = origin.call?.peer;
    const support = peer?.supports();
    const agentCan = mode === 'url' ? support?.elicitUrl === true : support?.elicitForm === true;
    const cardsOpen = this.cardsOpen();
    if (peer !== undefined && agentCan && !(cardsOpen && this.options.preferCards())) {
      return peer.elicit(params, origin.signal);
    }
    if (!cardsOpen) {
      const reason = `Toolbridge declined this ${mode === 'url' ? 'URL' : 'form'} elicitation: ${
        peer === undefined
          ? 'no agent call was in flight'
          : `the agent "${peer.agentId}" did not declare ${mode} elicitation`
      } and no Toolbridge window is open to show it on a card. Open the Toolbridge UI, or use an agent that supports elicitation.`;
      origin.note(reason);
      return { action: 'decline', _meta: { [DECLINE_REASON_KEY]: reason } };
    }
    const outcome = await this.options.cards!.open(this.elicitationCard(params, origin), {
      timeoutMs: this.options.cardTimeoutMs(),
      signal: origin.signal,
      ...(params.mode === 'url' ? {} : { checkContent: (content) => this.checkForm(params, content) }),
    });
    if (outcome.kind === 'accept')
      return outcome.content === undefined
        ? { action: 'accept' }
        : { action: 'accept', content: outcome.content as ElicitResult['content'] };
    if (outcome.kind === 'decline') return { action: 'decline' };
    return { action: 'cancel' };
  }

  async createMessage(
    params: CreateMessageRequestParams,
    origin: ServerRequestOrigin,
  ): Promise<CreateMessageResult> {
    const peer = origin.call?.peer;
    if (peer === undefined || !peer.supports().sampling) {
      throw new McpError(
        USER_REJECTED,
        peer === undefined
          ? 'Sampling is not available: no agent call is in flight on this server, so there is no model to ask.'
          : `Sampling is not available: the agent "${peer.agentId}" did not declare sampling.`,
      );
    }
    if (!this.cardsOpen()) {
      throw new McpError(
        USER_REJECTED,
        'Sampling needs the person to approve the prompt on a card, and no Toolbridge window is open.',
      );
    }
    const outcome = await this.options.cards!.open(
      {
        kind: 'sampling',
        serverId: origin.serverId,
        ...this.callOf(origin),
        agentId: peer.agentId,
        messages: params.messages.map((message) => ({
          role: message.role,
          content: message.content as JsonValue,
        })),
        ...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }),
        maxTokens: params.maxTokens,
        ...(params.includeContext === undefined ? {} : { includeContext: params.includeContext }),
        ...(params.modelPreferences === undefined
          ? {}
          : { modelPreferences: params.modelPreferences as JsonObject }),
      },
      { timeoutMs: this.options.cardTimeoutMs(), signal: origin.signal },
    );
    if (outcome.kind === 'approve') return peer.createMessage(params, origin.signal);
    const why =
      outcome.kind === 'deny'
        ? 'The person declined this sampling request.'
        : outcome.kind === 'timeout'
          ? 'No one answered the sampling card in time.'
          : 'The sampling request was cancelled before the person answered.';
    throw new McpError(USER_REJECTED, why);
  }

  private cardsOpen(): boolean {
    return this.options.cards !== undefined && this.options.uiPresent();
  }

  private elicitationCard(params: ElicitRequestParams, origin: ServerRequestOrigin): RequestCardContent {
    const base = {
      kind: 'elicitation' as const,
      serverId: origin.serverId,
      ...this.callOf(origin),
      message: params.message,
    };
    if (params.mode === 'url') {
      return { ...base, mode: 'url', url: params.url, urlHost: hostOf(params.url) };
    }
    return { ...base, mode: 'form', requestedSchema: params.requestedSchema as JsonObject };
  }

  private callOf(origin: ServerRequestOrigin): { origin?: { agentId: string; toolName: string } } {
    const call = origin.call;
    if (call?.peer === undefined) return {};
    return {
      origin: { agentId: call.peer.agentId, toolName: this.options.toolName(origin.serverId, call.toolName) },
    };
  }

  /** The form's values against the requested schema, coerced as a tool's arguments are ("5" → 5). */
  private checkForm(
    params: ElicitRequestParams,
    content: JsonObject,
  ): { ok: true; content: JsonObject } | { ok: false; message: string } {
    if (params.mode === 'url') return { ok: true, content };
    const check = this.validator.check('elicitation', params.requestedSchema, content, 'direct');
    if (check.ok) return { ok: true, content: check.args as JsonObject };
    return { ok: false, message: `${check.error.error} (${check.error.path.replace(/^arguments/, 'form')})` };
  }
}

/** The host name as the URL parser reads it (what the browser would open), or the text itself when it is no URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
