import { useEffect, useState } from 'react';
import type { SettingsPatch, SettingsView } from '../../src/api/ui-api.js';
import type { Outcome } from '../store/outcome.js';
import { useFormStatus } from './form-status.js';

export interface GatewayDraft {
  url: string;
  enabled: boolean;
  /** Typed here and sent once on Sign in; never read back from the host. */
  token: string;
}

export function toGatewayDraft(connectors: SettingsView['connectors']): GatewayDraft {
  return { url: connectors.gatewayUrl ?? '', enabled: connectors.enabled, token: '' };
}

/** An empty URL removes the gateway (`null`), which turns connectors off. */
export function gatewayPatch(draft: GatewayDraft): SettingsPatch {
  const url = draft.url.trim();
  return { connectors: { gatewayUrl: url === '' ? null : url, enabled: draft.enabled } };
}

export function canSignIn(draft: GatewayDraft): boolean {
  return draft.token.trim() !== '';
}

/** The gateway form: saved, signed in and signed out apart from the other settings. */
export function useGatewayDraft(
  connectors: SettingsView['connectors'],
  actions: {
    save: (patch: SettingsPatch) => Promise<Outcome<unknown>>;
    signIn: (token: string) => Promise<Outcome<unknown>>;
    signOut: () => Promise<Outcome<unknown>>;
  },
) {
  const [draft, setDraft] = useState(() => toGatewayDraft(connectors));
  const status = useFormStatus();
  useEffect(
    () => setDraft((d) => ({ ...d, url: connectors.gatewayUrl ?? '', enabled: connectors.enabled })),
    [connectors.gatewayUrl, connectors.enabled],
  );
  return {
    draft,
    status,
    edit: (patch: Partial<GatewayDraft>) => setDraft((d) => ({ ...d, ...patch })),
    save: async () => status.report(await actions.save(gatewayPatch(draft))),
    async signIn() {
      const outcome = await actions.signIn(draft.token);
      if (outcome.ok) setDraft((d) => ({ ...d, token: '' }));
      status.report(outcome);
    },
    signOut: async () => status.report(await actions.signOut()),
  };
}
