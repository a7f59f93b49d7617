import type { SettingsView } from '../../api/ui-api.js';
import { ToolbridgeError } from '../../base/errors.js';
import { CONNECTOR_GATEWAY_TOKEN_KEY } from '../../base/secret-store.js';
import type { UiApiSlice } from '../host-parts.js';
import { type SettingsViewParts, settingsView } from './settings-slice.js';

/** The connector gateway's sign-in: its token is a secret, not a setting. */
export const connectorsSlice: UiApiSlice<
  keyof SettingsViewParts | 'events',
  'signInConnectorGateway' | 'signOutConnectorGateway'
> = (parts) => {
  /** The token is not a setting, so its change is announced here (the gateway client reads it per request). */
  const connectorsChanged = async (): Promise<SettingsView> => {
    const view = await settingsView(parts);
    parts.events.fire('settingsChanged', view);
    return view;
  };
  return {
    signInConnectorGateway: async (token) => {
      const trimmed = typeof token === 'string' ? token.trim() : '';
      if (trimmed === '') {
        throw new ToolbridgeError('INVALID_ARGUMENT', 'Paste the connector gateway token to sign in.');
      }
      await parts.secrets.set(CONNECTOR_GATEWAY_TOKEN_KEY, trimmed);
      return connectorsChanged();
    },
    signOutConnectorGateway: async () => {
      await parts.secrets.delete(CONNECTOR_GATEWAY_TOKEN_KEY);
      return connectorsChanged();
    },
  };
};
