import { useEffect, useState } from 'react';
import type { Policy, SettingsPatch, SettingsView, ToolSearchSettings } from '../../src/api/ui-api.js';
import type { Outcome } from '../store/outcome.js';
import { type DraftCheck, useFormStatus } from './form-status.js';

/** The settings form as typed: numbers stay strings until Save, so a half-typed value is not lost. */
export interface SettingsDraft {
  toolSearch: ToolSearchSettings;
  defaultPolicy: Policy;
  cardTimeoutSeconds: string;
  callTimeoutSeconds: string;
  maxResultKib: string;
  redactionPatterns: string;
}

export function toSettingsDraft(settings: SettingsView): SettingsDraft {
  return {
    toolSearch: settings.toolSearch,
    defaultPolicy: settings.defaultPolicy,
    cardTimeoutSeconds: String(settings.cardTimeoutMs / 1000),
    callTimeoutSeconds: String(settings.callTimeoutMs / 1000),
    maxResultKib: String(settings.maxResultBytes / 1024),
    redactionPatterns: settings.redactionPatterns.join('\n'),
  };
}

/** The patch Save sends, or what to fix first (the host checks the ranges again). */
export function settingsPatchFromDraft(draft: SettingsDraft): DraftCheck<SettingsPatch> {
  const cardTimeout = Number(draft.cardTimeoutSeconds);
  const callTimeout = Number(draft.callTimeoutSeconds);
  if (!(cardTimeout > 0) || !(callTimeout > 0)) {
    return { ok: false, message: 'Timeouts must be positive numbers of seconds.' };
  }
  const maxResultKib = Number(draft.maxResultKib);
  if (!(maxResultKib > 0)) {
    return { ok: false, message: 'The result size limit must be a positive number of KiB.' };
  }
  return {
    ok: true,
    value: {
      toolSearch: draft.toolSearch,
      defaultPolicy: draft.defaultPolicy,
      cardTimeoutMs: Math.round(cardTimeout * 1000),
      callTimeoutMs: Math.round(callTimeout * 1000),
      maxResultBytes: Math.round(maxResultKib * 1024),
      redactionPatterns: draft.redactionPatterns
        .split('\n')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    },
  };
}

/** The settings form's editing state; it restarts from the host's settings whenever they change. */
export function useSettingsDraft(
  settings: SettingsView,
  save: (patch: SettingsPatch) => Promise<Outcome<unknown>>,
) {
  const [draft, setDraft] = useState(() => toSettingsDraft(settings));
  const status = useFormStatus();
  useEffect(() => setDraft(toSettingsDraft(settings)), [settings]);
  return {
    draft,
    status,
    edit: (patch: Partial<SettingsDraft>) => setDraft((d) => ({ ...d, ...patch })),
    editSearch: (patch: Partial<ToolSearchSettings>) =>
      setDraft((d) => ({ ...d, toolSearch: { ...d.toolSearch, ...patch } })),
    reset: () => setDraft(toSettingsDraft(settings)),
    async submit() {
      const patch = settingsPatchFromDraft(draft);
      status.report(patch.ok ? await save(patch.value) : patch);
    },
  };
}

export type SettingsDraftState = ReturnType<typeof useSettingsDraft>;
