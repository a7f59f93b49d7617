import { useState } from 'react';
import type { AccountStatus, ConnectorAppView, ConnectorToolView } from '../../src/api/ui-api.js';
import { ACCOUNT_ALIAS, ACCOUNT_ALIAS_RULE } from '../../src/base/account-alias.js';
import type { Outcome } from '../store/outcome.js';
import type { DraftCheck } from './form-status.js';

/**
 * Checks an alias typed for one of an app's accounts (a rename, or a new account to connect):
 * the gateway's rule, and not another account's alias. `current` is the alias being renamed.
 */
export function checkAlias(value: string, aliases: readonly string[], current?: string): DraftCheck<string> {
  const alias = value.trim();
  if (alias === '') return { ok: false, message: `Type an alias: ${ACCOUNT_ALIAS_RULE}.` };
  if (!ACCOUNT_ALIAS.test(alias))
    return { ok: false, message: `"${alias}" is not valid: ${ACCOUNT_ALIAS_RULE}.` };
  if (alias !== current && aliases.includes(alias))
    return { ok: false, message: `This app already has an account "${alias}"; pick another alias.` };
  return { ok: true, value: alias };
}

/** An account's link in plain words (never the gateway's "initiated"). */
export function accountStateLabel(account: Pick<AccountStatus, 'connected' | 'connectionStatus'>): string {
  if (account.connected) return 'connected';
  switch (account.connectionStatus) {
    case 'initiated':
      return 'waiting for you to allow access';
    case 'skipped':
      return 'skipped on a card';
    case 'expired':
      return 'link expired';
    case 'failed':
      return 'could not connect';
    default:
      return 'not connected';
  }
}

/** The app's state: its default account's, or "not connected" while it has none. */
export function appStateLabel(app: ConnectorAppView): string {
  const first = app.accounts.find((account) => account.default) ?? app.accounts[0];
  return first === undefined ? 'not connected' : accountStateLabel(first);
}

/** The tools whose name or description hold every word of the filter (any case). */
export function filterConnectorTools(
  tools: readonly ConnectorToolView[],
  query: string,
): ConnectorToolView[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  return tools.filter((tool) => {
    const text = `${tool.name}\n${tool.description}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/**
 * Inline alias editing (rename, or a new account): the text while editing, the check's or the
 * host's refusal, and busy while the host answers. Closes itself after a successful save.
 */
export function useAliasDraft(
  aliases: readonly string[],
  submit: (alias: string) => Promise<Outcome<unknown>>,
  current?: string,
) {
  const [value, setValue] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return {
    editing: value !== undefined,
    value: value ?? '',
    error,
    busy,
    start: () => {
      setValue(current ?? '');
      setError(undefined);
    },
    edit: (next: string) => {
      setValue(next);
      setError(undefined);
    },
    cancel: () => {
      setValue(undefined);
      setError(undefined);
    },
    async save() {
      const check = checkAlias(value ?? '', aliases, current);
      if (!check.ok) return setError(check.message);
      if (check.value === current) return setValue(undefined);
      setBusy(true);
      const outcome = await submit(check.value);
      setBusy(false);
      if (outcome.ok) setValue(undefined);
      else setError(outcome.error.message);
    },
  };
}

export type AliasDraft = ReturnType<typeof useAliasDraft>;

/**
 * Connect / Reconnect for one app: starts the link, opens the gateway's page in a new tab (the
 * desktop app hands it to the system browser) and keeps the link as a fallback.
 */
export function useConnectAction(
  connectApp: (
    connector: string,
    options?: { alias?: string; reconnect?: boolean },
  ) => Promise<Outcome<{ status: 'connected' | 'waiting'; connectUrl?: string }>>,
  connector: string,
) {
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  return {
    busy,
    link,
    error,
    async connect(options: { alias?: string; reconnect?: boolean } = {}): Promise<Outcome<unknown>> {
      setBusy(true);
      const outcome = await connectApp(connector, options);
      setBusy(false);
      setError(outcome.ok ? undefined : outcome.error.message);
      if (!outcome.ok) return outcome;
      setLink(outcome.value.connectUrl);
      if (outcome.value.connectUrl !== undefined)
        window.open(outcome.value.connectUrl, '_blank', 'noopener,noreferrer');
      return outcome;
    },
  };
}

export type ConnectAction = ReturnType<typeof useConnectAction>;
