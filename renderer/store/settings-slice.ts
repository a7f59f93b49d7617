import type { SettingsView, ToolbridgeApi } from '../../src/host/api.js';
import type { AppSlice } from './index.js';
import { attempt, type Outcome } from './outcome.js';

export type SettingsPatch = Partial<Omit<SettingsView, 'dataDir' | 'secretStoreKind'>>;

export interface SettingsSlice {
  settings: SettingsView | undefined;
  loadSettings(): Promise<Outcome<SettingsView>>;
  updateSettings(patch: SettingsPatch): Promise<Outcome<SettingsView>>;
  /** From `settingsChanged`. */
  settingsChanged(settings: SettingsView): void;
}

export const createSettingsSlice =
  (api: ToolbridgeApi): AppSlice<SettingsSlice> =>
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
    settingsChanged(settings) {
      set({ settings });
    },
  });
