import { useEffect, useState } from 'react';
import type { AgentView } from '../../src/api/ui-api.js';
import type { Outcome } from '../store/outcome.js';
import type { DraftCheck } from './form-status.js';

/** What stands in for the token on screen until "Show" is pressed; copying always copies the real one. */
export const TOKEN_MASK = '•'.repeat(24);

export function parseContextLength(text: string): DraftCheck<number> {
  const tokens = Number.parseInt(text, 10);
  if (Number.isNaN(tokens) || tokens <= 0) {
    return { ok: false, message: 'Context length must be a positive number of tokens.' };
  }
  return { ok: true, value: tokens };
}

/** The client config as shown: the token masked unless the person asked to see it. */
export function visibleConfig(config: string, token: string | undefined, showToken: boolean): string {
  return showToken || token === undefined ? config : config.replaceAll(token, TOKEN_MASK);
}

/** One agent's editing state: the chosen client tab, the token's visibility, the context length, Revoke. */
export function useAgentDraft(
  agent: AgentView,
  actions: {
    updateAgent: (id: string, patch: { contextLengthTokens: number }) => Promise<Outcome<unknown>>;
    revokeAgent: (id: string) => Promise<Outcome<unknown>>;
  },
) {
  const saved = String(agent.contextLengthTokens);
  const [client, setClient] = useState('claude-desktop');
  const [showToken, setShowToken] = useState(false);
  const [context, setContext] = useState(saved);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => setContext(saved), [saved]);
  return {
    client,
    setClient,
    showToken,
    toggleToken: () => setShowToken((v) => !v),
    context,
    setContext,
    contextChanged: context !== saved,
    confirmRevoke,
    setConfirmRevoke,
    error,
    setError,
    async saveContext() {
      const tokens = parseContextLength(context);
      if (!tokens.ok) {
        setError(tokens.message);
        return;
      }
      const outcome = await actions.updateAgent(agent.id, { contextLengthTokens: tokens.value });
      setError(outcome.ok ? undefined : outcome.error.message);
    },
    async revoke() {
      const outcome = await actions.revokeAgent(agent.id);
      if (!outcome.ok) setError(outcome.error.message);
    },
  };
}

export type AgentDraft = ReturnType<typeof useAgentDraft>;
