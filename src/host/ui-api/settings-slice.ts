import type { SettingsPatch, SettingsView } from '../../api/ui-api.js';
import { ToolbridgeError } from '../../base/errors.js';
import { isPlainObject } from '../../base/json.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY } from '../../base/secret-store.js';
import type { ConnectorSettings } from '../../connectors/settings.js';
import type { HostParts, UiApiSlice } from '../host-parts.js';

/** What the settings view is built from. */
export type SettingsViewParts = Pick<HostParts, 'settings' | 'policyOverride' | 'dataDir' | 'secrets'>;

const PATCHABLE = [
  'toolSearch',
  'defaultPolicy',
  'cardTimeoutMs',
  'callTimeoutMs',
  'maxCallTimeoutMs',
  'preferElicitationCards',
  'maxResultBytes',
  'redactionPatterns',
  'connectors',
];

/** Settings: what the UI shows and edits; the settings check validates each write. */
export const settingsSlice: UiApiSlice<keyof SettingsViewParts, 'getSettings' | 'updateSettings'> = (
  parts,
) => ({
  getSettings: async () => settingsView(parts),

  updateSettings: async (patch) => {
    const unknown = Object.keys(patch).filter((key) => !PATCHABLE.includes(key));
    if (unknown.length > 0) {
      throw new ToolbridgeError(
        'INVALID_ARGUMENT',
        `Unknown setting(s): ${unknown.join(', ')}. Settings you can change: ${PATCHABLE.join(', ')}.`,
      );
    }
    await parts.settings.update((draft) => {
      if (patch.toolSearch !== undefined) draft.toolSearch = { ...draft.toolSearch, ...patch.toolSearch };
      if (patch.defaultPolicy !== undefined) draft.policies.default = patch.defaultPolicy;
      if (patch.cardTimeoutMs !== undefined) draft.cardTimeoutMs = patch.cardTimeoutMs;
      if (patch.callTimeoutMs !== undefined) draft.callTimeoutMs = patch.callTimeoutMs;
      if (patch.maxCallTimeoutMs !== undefined) draft.maxCallTimeoutMs = patch.maxCallTimeoutMs;
      if (patch.preferElicitationCards !== undefined)
        draft.preferElicitationCards = patch.preferElicitationCards;
      if (patch.maxResultBytes !== undefined) draft.maxResultBytes = patch.maxResultBytes;
      if (patch.redactionPatterns !== undefined) draft.redactionPatterns = patch.redactionPatterns;
      if (patch.connectors !== undefined)
        draft.connectors = patchConnectors(draft.connectors, patch.connectors);
      return draft;
    });
    // The user's own choice replaces the run-only `--policy`.
    if (patch.defaultPolicy !== undefined) parts.policyOverride.value = undefined;
    return settingsView(parts);
  },
});

/** The settings the UI edits, with the effective default policy (a `--policy` run override wins). */
export async function settingsView(parts: SettingsViewParts): Promise<SettingsView> {
  const current = parts.settings.current;
  const signedIn = (await parts.secrets.get(CONNECTOR_GATEWAY_TOKEN_KEY)) !== undefined;
  return {
    toolSearch: current.toolSearch,
    defaultPolicy: parts.policyOverride.value ?? current.policies.default,
    cardTimeoutMs: current.cardTimeoutMs,
    callTimeoutMs: current.callTimeoutMs,
    maxCallTimeoutMs: current.maxCallTimeoutMs,
    preferElicitationCards: current.preferElicitationCards,
    maxResultBytes: current.maxResultBytes,
    redactionPatterns: current.redactionPatterns,
    dataDir: parts.dataDir,
    secretStoreKind: parts.secrets.kind,
    connectors: {
      ...(current.connectors.gatewayUrl === undefined ? {} : { gatewayUrl: current.connectors.gatewayUrl }),
      enabled: current.connectors.enabled,
      signedIn,
    },
  };
}

/** Applies the UI's connector patch; the settings check validates the URL on write. */
function patchConnectors(
  current: ConnectorSettings,
  patch: NonNullable<SettingsPatch['connectors']>,
): ConnectorSettings {
  if (!isPlainObject(patch)) {
    throw new ToolbridgeError('INVALID_ARGUMENT', 'connectors must be an object: { gatewayUrl, enabled }.');
  }
  const next: ConnectorSettings = { ...current };
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.gatewayUrl === null || patch.gatewayUrl?.trim() === '') delete next.gatewayUrl;
  else if (patch.gatewayUrl !== undefined) next.gatewayUrl = patch.gatewayUrl.trim();
  return next;
}
