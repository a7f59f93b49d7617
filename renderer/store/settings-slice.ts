import type { SettingsPatch, SettingsView, ToolbridgeApi } from '../../src/api/ui-api.js';
import { attempt, type Outcome } from './outcome.js';
import type { Slice } from './slice.js';

export interface SettingsSlice {
  settings: SettingsView | undefined;
  loadSettings(): Promise<Outcome<SettingsView>>;
  updateSettings(patch: SettingsPatch): Promise<Outcome<SettingsView>>;
  /** Stores the connector gateway token; the UI never reads it back. */
  signInConnectorGateway(token: string): Promise<Outcome<SettingsView>>;
  signOutConnectorGateway(): Promise<Outcome<SettingsView>>;
  /** From `settingsChanged`. */
  settingsChanged(settings: SettingsView): void;
}

export const createSettingsSlice =
  (api: ToolbridgeApi): Slice<SettingsSlice> =>
  (set, get) => ({
    settings: undefined,
    async loadSettings() {
      const outcome = await attempt(() => api.getSettings());
      if (outcome.ok) get().settingsChanged(outcome.value);
      return outcome;
    },
    async updateSettings(patch) {
      const outcome = await attempt(() => api.updateSettings(patch));
      if (outcome.ok) get().settingsChanged(outcome.value);
      return outcome;
    },
    async signInConnectorGateway(token) {
      const outcome = await attempt(() => api.signInConnectorGateway(token));
      if (outcome.ok) get().settingsChanged(outcome.value);
      return outcome;
    },
    async signOutConnectorGateway() {
      const outcome = await attempt(() => api.signOutConnectorGateway());
      if (outcome.ok) get().settingsChanged(outcome.value);
      return outcome;
    },
    settingsChanged(settings) {
      set({ settings });
    },
  });
