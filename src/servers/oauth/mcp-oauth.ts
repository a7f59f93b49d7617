/**
 * Signs Toolbridge in to one remote MCP server with OAuth 2.1 (MCP authorization spec), built
 * on the SDK's client auth functions: RFC 9728 discovery (with the 2025-03-26 fallbacks: metadata
 * at the server's origin, then the default /authorize, /token and /register), RFC 8414 metadata,
 * a pre-registered client, a Client ID Metadata Document or dynamic client registration, PKCE
 * S256, the RFC 8707 `resource` on authorize, token and refresh requests, and the RFC 9207 `iss`
 * check. Scopes come from the server's challenge, else its protected resource metadata; a 403
 * `insufficient_scope` asks for a step-up (the union of old and new scopes) at the next sign-in.
 * The browser comes back to a loopback listener. Tokens live only in the secret store, are
 * refreshed shortly before they expire (one refresh at a time, shared by every caller and,
 * through `refreshLock`, by every process on the data folder), and are sent only to the server's
 * own origin. Nothing here logs.
 */
import {
  discoverOAuthServerInfo,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  isHttpsUrl,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import {
  InvalidClientError,
  InvalidGrantError,
  OAuthError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import { errorMessage, ToolbridgeError } from '../../base/errors.js';
import { isPlainObject } from '../../base/json.js';
import { RedirectListener } from './redirect-listener.js';
import {
  checkFetchUrl,
  type FetchLike,
  guardedFetch,
  isLoopbackUrl,
  type ResolveHost,
  type UrlGuardOptions,
} from './url-guard.js';

/** The part of the secret store this module needs (the host's `SecretStore` fits). */
export interface OAuthSecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A client registered beforehand, used instead of dynamic registration. */
export interface PreRegisteredClient {
  clientId: string;
  /** Reads its secret when a request needs it (from the secret store); absent for a public client. */
  clientSecret?: () => Promise<string | undefined>;
  /** The loopback port registered in the client's redirect URI. @defaultValue any free port */
  redirectPort?: number;
}

export interface McpOAuthOptions {
  /** The server's id; secret keys are `<serverId>:oauth.*`. */
  serverId: string;
  /** The MCP endpoint the user typed; its origin alone may be http or loopback. */
  serverUrl: string;
  store: OAuthSecretStore;
  /** Opens the authorization URL in the user's browser (the host's one URL opener). */
  openUrl: (url: URL) => void | Promise<void>;
  /** Use this client instead of registering one dynamically. */
  client?: PreRegisteredClient;
  /** Shown to the user on the consent page of servers that register clients. @defaultValue 'Toolbridge' */
  clientName?: string;
  /**
   * An https URL of a Client ID Metadata Document describing Toolbridge: used as the client ID
   * with authorization servers that advertise `client_id_metadata_document_supported`, instead of
   * registering. @defaultValue none: dynamic registration
   */
  clientMetadataUrl?: string;
  /** Toolbridge's own listening ports: never fetched, even for a server on loopback. */
  ownPorts?: () => readonly number[];
  /** Refresh this long before the access token expires. @defaultValue 60_000 */
  refreshSkewMs?: number;
  /** How long the user has to finish signing in. @defaultValue 600_000 */
  signInTimeoutMs?: number;
  /** @defaultValue Date.now */
  clock?: () => number;
  /** DNS for the SSRF guard (tests pass a table). */
  resolveHost?: ResolveHost;
  /**
   * Runs a refresh holding a lock shared with every other process that keeps this server's tokens
   * (`toolbridge serve` and `toolbridge mcp` on one data folder), so a rotating refresh token is
   * spent once. @defaultValue none: refreshes are shared within this client only
   */
  refreshLock?: <T>(work: () => Promise<T>) => Promise<T>;
}

export type OAuthStatus = 'signed_out' | 'signed_in' | 'expired';

export interface SignInOptions {
  /**
   * Scopes to ask for; by default a pending step-up's, else the server's challenge, else the
   * protected resource's `scopes_supported`, else none (the parameter is left out).
   */
  scope?: string;
  /** Ask again even though the user declined these scopes before. */
  force?: boolean;
  signal?: AbortSignal;
}

/** What discovery found; kept so a refresh after a restart needs no new discovery. */
interface ServerInfo {
  authorizationServerUrl: string;
  metadata: AuthorizationServerMetadata;
  /** The RFC 8707 resource indicator, sent verbatim. */
  resource: string;
  /** The protected resource metadata's `scopes_supported`, space-separated. */
  scopesSupported?: string;
}

interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** Epoch ms; absent when the server gave no lifetime. */
  expires_at?: number;
  /** The authorization server that issued them. */
  issuer: string;
}

type StoredClient = OAuthClientInformationMixed & { issuer: string };

export class McpOAuthClient {
  private readonly serverUrl: URL;
  private readonly clock: () => number;
  private readonly refreshSkewMs: number;
  private readonly fetchGuarded: FetchLike;
  private refreshing: Promise<StoredTokens | undefined> | undefined;
  /** Scope sets the user declined in this process: never asked again without `force` (no consent loops). */
  private readonly declined = new Set<string>();
  /** The scopes a 403 `insufficient_scope` asked for, with those already granted: the next sign-in's. */
  private stepUp: string | undefined;

  constructor(private readonly options: McpOAuthOptions) {
    this.serverUrl = new URL(options.serverUrl);
    this.clock = options.clock ?? Date.now;
    this.refreshSkewMs = options.refreshSkewMs ?? 60_000;
    if (options.clientMetadataUrl !== undefined) checkClientMetadataUrl(options.clientMetadataUrl);
    this.fetchGuarded = guardedFetch(this.guardOptions());
  }

  /**
   * The scopes a step-up sign-in would ask for, after the server refused the token with 403
   * `insufficient_scope` for scopes not yet granted; undefined when no step-up can help.
   */
  scopeNeeded(): string | undefined {
    return this.stepUp;
  }

  /**
   * Runs the whole sign-in: discovery, registration, the browser round trip and the code
   * exchange. Call it only after the user asked to sign in (a card); the state is made here.
   */
  async signIn(options: SignInOptions = {}): Promise<void> {
    const challenge = await this.probe();
    const info = await this.discover(challenge.resourceMetadataUrl);
    const previous = await this.readTokens();
    // The scope selection of the MCP spec: the challenge, else the protected resource's scopes.
    const scope = unionScopes(
      previous?.issuer === info.authorizationServerUrl ? previous.scope : undefined,
      options.scope ?? this.stepUp ?? challenge.scope ?? info.scopesSupported,
    );
    const scopeKey = scope ?? '';
    if (this.declined.has(scopeKey) && options.force !== true) {
      throw new ToolbridgeError(
        'DENIED',
        `Sign-in to server "${this.options.serverId}" was declined for these scopes; start it again from the server's card to retry.`,
      );
    }
    const listener = await RedirectListener.start({
      port: this.options.client?.redirectPort ?? 0,
      stateTtlMs: this.options.signInTimeoutMs ?? 600_000,
      clock: this.clock,
    });
    try {
      const clientInformation = await this.clientFor(info, listener.redirectUrl, scope);
      const { state, response } = listener.expect(options.signal);
      const { authorizationUrl, codeVerifier } = await startAuthorization(info.authorizationServerUrl, {
        metadata: info.metadata,
        clientInformation,
        redirectUrl: listener.redirectUrl,
        state,
        resource: info.resource,
        ...(scope === undefined ? {} : { scope }),
      });
      await checkFetchUrl(authorizationUrl, this.guardOptions());
      await this.options.openUrl(authorizationUrl);
      let answer: Awaited<typeof response>;
      try {
        answer = await response;
      } catch (error) {
        if (ToolbridgeError.is(error, 'DENIED')) this.declined.add(scopeKey);
        throw error;
      }
      this.checkIssuer(info, answer.iss);
      const tokens = await this.oauthCall('sign-in', () =>
        exchangeAuthorization(info.authorizationServerUrl, {
          metadata: info.metadata,
          clientInformation,
          authorizationCode: answer.code,
          codeVerifier,
          redirectUri: listener.redirectUrl,
          resource: info.resource,
          fetchFn: this.fetchGuarded,
        }),
      );
      await this.saveTokens(tokens, info, scope);
      this.stepUp = undefined;
    } finally {
      await listener.close();
    }
  }

  /** A valid access token, refreshed first when it is about to expire; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    const tokens = await this.readTokens();
    if (tokens === undefined || !(await this.tokensFitServer())) return undefined;
    if (!this.expiresSoon(tokens)) return tokens.access_token;
    if (tokens.refresh_token === undefined) return undefined;
    return (await this.refresh(tokens.access_token))?.access_token;
  }

  async status(): Promise<OAuthStatus> {
    const tokens = await this.readTokens();
    if (tokens === undefined) return 'signed_out';
    if (
      tokens.expires_at !== undefined &&
      tokens.expires_at <= this.clock() &&
      tokens.refresh_token === undefined
    ) {
      return 'expired';
    }
    return 'signed_in';
  }

  /** Forgets the tokens (the registration stays, so the next sign-in is quicker). */
  async signOut(): Promise<void> {
    await this.options.store.delete(this.key('tokens'));
  }

  /**
   * A fetch for the SDK's HTTP transports: adds the bearer token on requests to this server's
   * origin only, and after a 401 refreshes once and retries.
   */
  readonly fetch: FetchLike = async (input, init) => {
    const target = new URL(String(input));
    if (target.origin !== this.serverUrl.origin) return fetch(input, init);
    const token = await this.accessToken();
    const response = await fetch(input, withBearer(init, token));
    if (response.status === 403 && token !== undefined) await this.noteStepUp(response);
    if (response.status !== 401 || token === undefined) return response;
    const tokens = await this.readTokens();
    if (tokens?.refresh_token === undefined) return response;
    const fresh = await this.refresh(token);
    if (fresh === undefined || fresh.access_token === token) return response;
    await response.body?.cancel();
    return fetch(input, withBearer(init, fresh.access_token));
  };

  /**
   * A 403 whose challenge says `insufficient_scope`: remembers the union of the granted and the
   * challenged scopes for the next sign-in, unless every challenged scope was granted already
   * (signing in again would change nothing, so no loop).
   */
  private async noteStepUp(response: Response): Promise<void> {
    const { error, scope } = extractWWWAuthenticateParams(response);
    if (error !== 'insufficient_scope' || scope === undefined) return;
    const granted = (await this.readTokens())?.scope;
    const wanted = unionScopes(granted, scope);
    const grantedSet = new Set(granted?.split(' '));
    const missing = wanted?.split(' ').some((item) => !grantedSet.has(item)) === true;
    if (missing) this.stepUp = unionScopes(this.stepUp, wanted);
  }

  /**
   * One refresh at a time: callers that arrive while one runs share it, and other processes wait
   * on the refresh lock. `seen` is the access token the caller found expiring or rejected; when
   * the stored one differs once the lock is held, another refresh already replaced it and its
   * result is used as is, with no request to the token endpoint.
   */
  private refresh(seen: string): Promise<StoredTokens | undefined> {
    const run = () => this.runRefresh(seen);
    this.refreshing ??= (this.options.refreshLock?.(run) ?? run()).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async runRefresh(seen: string): Promise<StoredTokens | undefined> {
    // Read again under the lock: the store reflects any refresh another process finished.
    const tokens = await this.readTokens();
    if (tokens === undefined) return undefined;
    if (tokens.access_token !== seen) return tokens;
    if (tokens.refresh_token === undefined) return undefined;
    const info = await this.readServerInfo();
    const preset = this.options.client;
    // The client the tokens were issued to: the user's own, else the stored one (registered, or
    // the metadata document's URL, so a process started without that URL still refreshes).
    const client =
      info !== undefined && preset !== undefined
        ? await this.presetClient(preset, info.authorizationServerUrl)
        : await this.readClient();
    if (info === undefined || client === undefined || info.authorizationServerUrl !== tokens.issuer) {
      await this.signOut();
      return undefined;
    }
    try {
      const fresh = await refreshAuthorization(info.authorizationServerUrl, {
        metadata: info.metadata,
        clientInformation: client,
        refreshToken: tokens.refresh_token,
        resource: info.resource,
        fetchFn: this.fetchGuarded,
      });
      return await this.saveTokens(fresh, info, tokens.scope);
    } catch (error) {
      if (error instanceof InvalidGrantError || error instanceof InvalidClientError) {
        // The server no longer accepts this sign-in: the user must sign in again.
        await this.signOut();
        return undefined;
      }
      throw new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Could not refresh the sign-in to server "${this.options.serverId}": ${describe(error)}`,
      );
    }
  }

  /** Tokens got for another URL under this id (the server's URL was changed) are never sent here. */
  private async tokensFitServer(): Promise<boolean> {
    const info = await this.readServerInfo();
    return (
      info !== undefined &&
      checkResourceAllowed({ requestedResource: this.serverUrl, configuredResource: info.resource })
    );
  }

  private expiresSoon(tokens: StoredTokens): boolean {
    return tokens.expires_at !== undefined && tokens.expires_at - this.refreshSkewMs <= this.clock();
  }

  /** Asks the server without a token, to read its challenge (resource metadata URL and scope). */
  private async probe(): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
    let response: Response;
    try {
      response = await fetch(this.serverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
        redirect: 'manual',
      });
    } catch (error) {
      throw new ToolbridgeError(
        'SERVER_UNAVAILABLE',
        `Server "${this.options.serverId}" could not be reached to start sign-in: ${describe(error)}`,
      );
    }
    await response.body?.cancel();
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return {
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      ...(scope === undefined ? {} : { scope }),
    };
  }

  private async discover(resourceMetadataUrl: URL | undefined): Promise<ServerInfo> {
    const found = await this.oauthCall('discovery', () =>
      discoverOAuthServerInfo(this.serverUrl, {
        fetchFn: this.fetchGuarded,
        ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      }),
    );
    const name = `Server "${this.options.serverId}"`;
    const metadata = found.authorizationServerMetadata ?? this.defaultEndpoints(found);
    if (metadata === undefined) {
      throw new ToolbridgeError(
        'DENIED',
        `${name} asks for sign-in but publishes no authorization server metadata.`,
      );
    }
    // PKCE is not optional: a server that does not say it supports S256 is refused outright.
    if (!metadata.code_challenge_methods_supported?.includes('S256')) {
      throw new ToolbridgeError(
        'DENIED',
        `${name}'s authorization server does not declare PKCE (S256) support; Toolbridge will not sign in to it.`,
      );
    }
    if (
      trimSlash(metadata.issuer) !== trimSlash(found.authorizationServerUrl) &&
      !this.ownLegacyIssuer(found, metadata.issuer)
    ) {
      throw new ToolbridgeError(
        'DENIED',
        `${name}'s authorization server metadata names issuer ${metadata.issuer}, not ${found.authorizationServerUrl}.`,
      );
    }
    for (const endpoint of [
      metadata.authorization_endpoint,
      metadata.token_endpoint,
      metadata.registration_endpoint,
    ]) {
      if (endpoint !== undefined) await checkFetchUrl(endpoint, this.guardOptions());
    }
    const advertised = found.resourceMetadata?.resource;
    if (
      advertised !== undefined &&
      !checkResourceAllowed({ requestedResource: this.serverUrl, configuredResource: advertised })
    ) {
      throw new ToolbridgeError('DENIED', `${name} names a resource (${advertised}) that is not itself.`);
    }
    const scopesSupported = found.resourceMetadata?.scopes_supported?.join(' ');
    const info: ServerInfo = {
      authorizationServerUrl: found.authorizationServerUrl,
      metadata,
      resource: advertised ?? resourceUrlFromServerUrl(this.serverUrl).href,
      ...(scopesSupported ? { scopesSupported } : {}),
    };
    await this.options.store.set(this.key('server'), JSON.stringify(info));
    return info;
  }

  /**
   * A 2025-03-26 server (no protected resource metadata) is its own authorization server: its
   * metadata, read at its origin, may name an issuer elsewhere on that origin (`/oauth`), as that
   * spec did not require the RFC 8414 match. Any other origin is still refused, and the redirect's
   * `iss` must still equal this issuer exactly.
   */
  private ownLegacyIssuer(found: { resourceMetadata?: unknown }, issuer: string): boolean {
    if (found.resourceMetadata !== undefined) return false;
    try {
      return new URL(issuer).origin === this.serverUrl.origin;
    } catch {
      return false;
    }
  }

  /**
   * The 2025-03-26 fallback for a server that publishes no metadata at all (no protected resource
   * metadata, none at its origin): the default endpoints /authorize, /token and /register at its
   * origin. PKCE S256 is still sent; with no metadata there is no declaration to check, so this
   * applies only when neither document exists (a document that omits S256 is still refused).
   */
  private defaultEndpoints(found: {
    authorizationServerUrl: string;
    resourceMetadata?: unknown;
  }): AuthorizationServerMetadata | undefined {
    if (found.resourceMetadata !== undefined) return undefined;
    const origin = this.serverUrl.origin;
    if (trimSlash(found.authorizationServerUrl) !== origin) return undefined;
    return {
      issuer: found.authorizationServerUrl,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
  }

  /** The registered client for this authorization server and redirect URI, registering one if needed. */
  private async clientFor(
    info: ServerInfo,
    redirectUrl: string,
    scope: string | undefined,
  ): Promise<StoredClient> {
    const issuer = info.authorizationServerUrl;
    // The user's own client wins; it lives in settings and the secret store, so it is not copied.
    if (this.options.client !== undefined) return this.presetClient(this.options.client, issuer);
    // A Client ID Metadata Document, where the authorization server accepts one: nothing to register.
    const documentUrl = this.options.clientMetadataUrl;
    if (documentUrl !== undefined && info.metadata.client_id_metadata_document_supported === true) {
      return this.saveClient({ client_id: documentUrl, issuer });
    }
    const stored = await this.readClient();
    const uris = stored !== undefined && 'redirect_uris' in stored ? stored.redirect_uris : [];
    // The loopback port changes per sign-in, and servers match redirect URIs exactly.
    if (stored !== undefined && stored.issuer === issuer && uris.includes(redirectUrl)) return stored;
    if (info.metadata.registration_endpoint === undefined) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Server "${this.options.serverId}" cannot sign in yet: its authorization server (${issuer}) does not let apps register themselves, and no OAuth client is set for this server. ` +
          'Register a client for Toolbridge with that authorization server, with the redirect URI http://127.0.0.1:<port>/oauth/callback for a free port of your choice. ' +
          "Then, in Servers, open this server's OAuth client and set the client ID, the client secret if one was issued, and that port as the redirect port " +
          `(in settings.json: servers[…].oauth.clientId, .clientSecret, .redirectPort).`,
      );
    }
    const registered = await this.oauthCall('client registration', () =>
      registerClient(issuer, {
        metadata: info.metadata,
        clientMetadata: {
          client_name: this.options.clientName ?? 'Toolbridge',
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        ...(scope === undefined ? {} : { scope }),
        fetchFn: this.fetchGuarded,
      }),
    );
    return this.saveClient({ ...registered, issuer });
  }

  private async saveClient(client: StoredClient): Promise<StoredClient> {
    await this.options.store.set(this.key('client'), JSON.stringify(client));
    return client;
  }

  /** The pre-registered client, its secret read now (so a changed secret applies at once). */
  private async presetClient(preset: PreRegisteredClient, issuer: string): Promise<StoredClient> {
    const secret = await preset.clientSecret?.();
    return {
      client_id: preset.clientId,
      ...(secret === undefined ? {} : { client_secret: secret }),
      issuer,
    };
  }

  /** RFC 9207: the `iss` the redirect carries must be exactly the issuer recorded before redirecting. */
  private checkIssuer(info: ServerInfo, iss: string | undefined): void {
    const expected = info.metadata.issuer;
    const required =
      'authorization_response_iss_parameter_supported' in info.metadata &&
      info.metadata.authorization_response_iss_parameter_supported === true;
    if (iss === undefined ? required : iss !== expected) {
      throw new ToolbridgeError(
        'DENIED',
        `The sign-in response for server "${this.options.serverId}" came from a different issuer than the one asked; it was discarded.`,
      );
    }
  }

  private async saveTokens(
    tokens: OAuthTokens,
    info: ServerInfo,
    requestedScope: string | undefined,
  ): Promise<StoredTokens> {
    const stored: StoredTokens = {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      issuer: info.authorizationServerUrl,
    };
    if (tokens.refresh_token !== undefined) stored.refresh_token = tokens.refresh_token;
    const scope = tokens.scope ?? requestedScope;
    if (scope !== undefined) stored.scope = scope;
    if (tokens.expires_in !== undefined) stored.expires_at = this.clock() + tokens.expires_in * 1000;
    await this.options.store.set(this.key('tokens'), JSON.stringify(stored));
    return stored;
  }

  private async readTokens(): Promise<StoredTokens | undefined> {
    const value = await this.readJson('tokens');
    return isPlainObject(value) && typeof value.access_token === 'string' && typeof value.issuer === 'string'
      ? (value as unknown as StoredTokens)
      : undefined;
  }

  private async readClient(): Promise<StoredClient | undefined> {
    const value = await this.readJson('client');
    return isPlainObject(value) && typeof value.client_id === 'string' && typeof value.issuer === 'string'
      ? (value as unknown as StoredClient)
      : undefined;
  }

  private async readServerInfo(): Promise<ServerInfo | undefined> {
    const value = await this.readJson('server');
    return isPlainObject(value) &&
      typeof value.authorizationServerUrl === 'string' &&
      isPlainObject(value.metadata)
      ? (value as unknown as ServerInfo)
      : undefined;
  }

  private async readJson(field: string): Promise<unknown> {
    const text = await this.options.store.get(this.key(field));
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  private key(field: string): string {
    return `${this.options.serverId}:oauth.${field}`;
  }

  private guardOptions(): UrlGuardOptions {
    const { resolveHost, ownPorts } = this.options;
    return {
      trustedOrigins: [this.serverUrl.origin],
      // A server the user runs on this computer may use an authorization server on another local port.
      loopbackResource: isLoopbackUrl(this.serverUrl),
      ...(resolveHost === undefined ? {} : { resolveHost }),
      ...(ownPorts === undefined ? {} : { ownPorts }),
    };
  }

  /** Runs one OAuth step, turning the SDK's errors into a coded, human message. */
  private async oauthCall<T>(step: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (ToolbridgeError.is(error)) throw error;
      throw new ToolbridgeError(
        'UNAUTHORIZED',
        `Sign-in to server "${this.options.serverId}" failed during ${step}: ${describe(error)}`,
        { cause: error },
      );
    }
  }
}

/** A Client ID Metadata Document's URL must be https with a path (it is the client ID). */
export function checkClientMetadataUrl(url: string): void {
  if (!isHttpsUrl(url)) {
    throw new ToolbridgeError(
      'INVALID_ARGUMENT',
      `The client metadata document URL "${url}" is not an https URL with a path; give the https address where Toolbridge's client metadata document is published, or none to register dynamically.`,
    );
  }
}

function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  if (token === undefined) headers.delete('authorization');
  else headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
}

function unionScopes(previous: string | undefined, wanted: string | undefined): string | undefined {
  const all = [
    ...new Set([...(previous?.split(' ') ?? []), ...(wanted?.split(' ') ?? [])].filter((s) => s !== '')),
  ];
  return all.length === 0 ? undefined : all.join(' ');
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

function describe(error: unknown): string {
  if (error instanceof OAuthError)
    return error.errorCode === error.message ? error.errorCode : `${error.errorCode}: ${error.message}`;
  return errorMessage(error);
}
