/**
 * The connectors' part of settings.json: `connectors` (the gateway URL and the switch), with its
 * default and validation. Pure; host/settings-document.ts composes it with the other sections.
 */
import { isPlainObject } from '../base/json.js';
import { describeValue, type SettingsChecker, type SettingsSection } from '../base/settings-check.js';

/** The connector gateway. Its token is a secret (CONNECTOR_GATEWAY_TOKEN_KEY), never here. */
export interface ConnectorSettings {
  /** The gateway's base URL (http or https); absent means connectors are off and silent. */
  gatewayUrl?: string;
  /** False turns connectors off while keeping the URL. */
  enabled: boolean;
}

export interface ConnectorsSection {
  connectors: ConnectorSettings;
}

export const CONNECTORS_SECTION: SettingsSection<ConnectorsSection> = {
  defaults: () => ({ connectors: { enabled: true } }),
  check: (c, raw) => ({
    connectors: c.field(raw, 'connectors', CONNECTORS_SECTION.defaults().connectors, (value) =>
      checkConnectors(c, value),
    ),
  }),
};

/** The gateway URL to use, or undefined when connectors are off (no URL, or switched off). */
export function connectorGatewayUrl(connectors: ConnectorSettings): string | undefined {
  return connectors.enabled ? connectors.gatewayUrl : undefined;
}

function checkConnectors(c: SettingsChecker, raw: unknown): ConnectorSettings {
  const connectors: ConnectorSettings = { enabled: true };
  if (!isPlainObject(raw)) {
    c.issue(
      'connectors',
      // A bare string here is likely the URL itself, maybe with a password in it: never quote it.
      `must be an object like {"gatewayUrl": "https://gateway.example.com/", "enabled": true}; got ${typeof raw === 'string' ? 'a string' : describeValue(raw)}.`,
    );
    return connectors;
  }
  if ('token' in raw) {
    c.issue(
      'connectors.token',
      'must not be here: the gateway token is a secret and lives in the secret store, never in settings.json. Remove the field and sign in to the gateway in Settings → Connectors.',
    );
  }
  c.knownKeys(raw, 'connectors', ['gatewayUrl', 'enabled', 'token']);
  if (raw.enabled !== undefined) connectors.enabled = c.boolean(raw.enabled, 'connectors.enabled');
  if (raw.gatewayUrl !== undefined) {
    const url = checkGatewayUrl(c, raw.gatewayUrl);
    if (url !== undefined) connectors.gatewayUrl = url;
  }
  return connectors;
}

/**
 * The URL, trimmed; undefined when blank (no gateway) or wrong. Messages never quote the URL: a
 * pasted address may carry a password or a token.
 */
function checkGatewayUrl(c: SettingsChecker, raw: unknown): string | undefined {
  const path = 'connectors.gatewayUrl';
  const example = 'like "https://gateway.example.com/"';
  if (typeof raw !== 'string') {
    c.issue(path, `must be a string ${example}; got ${describeValue(raw)}.`);
    return undefined;
  }
  const text = raw.trim();
  if (text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    c.issue(path, `is not a valid URL; enter the gateway's address ${example}.`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    c.issue(path, `must be an http:// or https:// address ${example}; got a "${url.protocol}" address.`);
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    c.issue(
      path,
      `must not hold a user name or password; remove them and sign in to the gateway in Settings → Connectors, which keeps the token in the secret store.`,
    );
    return undefined;
  }
  if (url.search !== '' || url.hash !== '') {
    c.issue(
      path,
      `must not hold a query ("?…") or fragment ("#…"): they are not sent to the gateway, and a token belongs in the secret store. Send just the address ${example}.`,
    );
    return undefined;
  }
  return text;
}
