import { useState } from 'react';
import type { ServerView } from '../../src/api/ui-api.js';
import type { Outcome } from '../store/outcome.js';

/** The command line or URL a server runs from, as one line. */
export function describeTransport(server: ServerView): string {
  const config = server.config;
  if (config.transport === 'stdio') return [config.command, ...(config.args ?? [])].join(' ');
  return `${config.transport === 'sse' ? 'SSE' : 'HTTP'} · ${config.url}`;
}

/** Only remote servers sign in; a stdio server that needs auth is fixed in its config. */
export function canSignIn(server: ServerView): boolean {
  return server.status === 'needs-auth' && server.config.transport !== 'stdio';
}

type ActionOutcome = { ok: boolean; error?: { message: string } };

/** One server row's state: expanded, confirming Remove, busy with an action, the sign-in link. */
export function useServerDraft(
  server: ServerView,
  actions: {
    authorizeServer: (id: string) => Promise<Outcome<{ authorizationUrl: string }>>;
    notify: (kind: 'error', message: string) => void;
  },
) {
  const [open, setOpen] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [busy, setBusy] = useState(false);
  const [signInUrl, setSignInUrl] = useState<string>();
  return {
    open,
    toggleOpen: () => setOpen((v) => !v),
    confirmRemove,
    setConfirmRemove,
    busy,
    signInUrl,
    /** Runs one host action with the row's controls disabled; a failure becomes a notice naming the server. */
    async run(label: string, action: () => Promise<ActionOutcome>) {
      setBusy(true);
      const outcome = await action();
      setBusy(false);
      if (!outcome.ok)
        actions.notify('error', `${label} "${server.name}": ${outcome.error?.message ?? 'failed'}`);
    },
    async signIn() {
      setBusy(true);
      const outcome = await actions.authorizeServer(server.id);
      setBusy(false);
      if (!outcome.ok) {
        actions.notify('error', `Could not start signing in to "${server.name}": ${outcome.error.message}`);
        return;
      }
      setSignInUrl(outcome.value.authorizationUrl);
      // A new tab in web mode; the desktop app hands it to the system browser. The link stays as a fallback.
      window.open(outcome.value.authorizationUrl, '_blank', 'noopener,noreferrer');
    },
  };
}

export type ServerDraft = ReturnType<typeof useServerDraft>;
