import { DEFAULT_CONTEXT_LENGTH_TOKENS } from '../../agents/agent-registry.js';
import type { SearchExplanationView } from '../../api/ui-api.js';
import { ToolbridgeError } from '../../base/errors.js';
import type { JsonObject } from '../../base/json.js';
import { resolveLimit } from '../../bridge/tool-search.js';
import { TOOL_CALL_NAME } from '../../catalog/naming.js';
import type { SearchExplanation } from '../../search/types.js';
import type { UiApiSlice } from '../host-parts.js';

/** The agent id the playground's calls carry (audit log, cards). */
export const PLAYGROUND_AGENT_ID = 'playground';

/** The playground: search, describe and call exactly as an agent would, with the search explained. */
export const playgroundSlice: UiApiSlice<
  'catalog' | 'settings' | 'surfaceFor',
  'search' | 'describe' | 'call'
> = (parts) => {
  const { catalog, settings } = parts;
  return {
    search: async (queries, limit) => {
      const surface = catalog.surface(DEFAULT_CONTEXT_LENGTH_TOKENS);
      const response = (await surface.toolSearch(
        limit === undefined ? { queries } : { queries, limit },
      )) as unknown as JsonObject;
      if ('error' in response) return { response, explanations: [] };
      const { searchDefaultLimit, maxSearchLimit } = settings.current.toolSearch;
      const resolved = resolveLimit(limit, { defaultLimit: searchDefaultLimit, maxLimit: maxSearchLimit });
      const explanations = (response.queries as string[]).map((query) =>
        explanationView(query, catalog.index().search(query, { limit: resolved, explain: true }).explanation),
      );
      return { response, explanations };
    },

    describe: async (names) => {
      const surface = catalog.surface(DEFAULT_CONTEXT_LENGTH_TOKENS);
      return (await surface.toolDescribe({ names })) as unknown as JsonObject;
    },

    /** Runs a tool the way an agent would (through tool_call when it defers), approvals included. */
    call: async (name, args) => {
      const entry = catalog.entry(name);
      if (entry === undefined)
        throw new ToolbridgeError('NOT_FOUND', `No tool "${name}". List the tools to see the names.`);
      const plan = catalog.plan(DEFAULT_CONTEXT_LENGTH_TOKENS);
      const surface = parts.surfaceFor(PLAYGROUND_AGENT_ID, DEFAULT_CONTEXT_LENGTH_TOKENS);
      const context = { agentId: PLAYGROUND_AGENT_ID };
      const direct = plan.directNames.toDirect(name);
      if (direct !== undefined) return surface.callTool(direct, args, context);
      // Deferred, or known but out of reach (turned off): the bridge answers as it would an agent.
      if (plan.activated)
        return surface.callTool(TOOL_CALL_NAME, { calls: [{ name, arguments: args }] }, context);
      throw new ToolbridgeError(
        'NOT_FOUND',
        `'${name}' is not available to agents right now: it is turned off or its server is down.`,
      );
    },
  };
};

function explanationView(query: string, explanation: SearchExplanation | undefined): SearchExplanationView {
  if (explanation === undefined) return { query, answerableTerms: [], words: [], matches: [] };
  const view: SearchExplanationView = {
    query,
    answerableTerms: explanation.answerableTerms,
    words: explanation.words.map(({ word, fate, reason, why, correctedTo, expandedTo }) => ({
      word,
      fate,
      reason,
      why,
      ...(correctedTo === undefined ? {} : { correctedTo }),
      ...(expandedTo === undefined
        ? {}
        : {
            expandedTo: expandedTo.map(({ word: other, weight, source }) => ({
              word: other,
              weight,
              source,
            })),
          }),
    })),
    matches: explanation.matches.map(({ name, score, terms }) => ({ name, score, terms })),
  };
  if (explanation.gateToken !== undefined) view.gateToken = explanation.gateToken;
  if (explanation.corrections.length > 0) view.corrections = explanation.corrections;
  if (explanation.unknownWords.length > 0) {
    view.unknownWords = explanation.unknownWords.map((word) => ({
      word,
      why: explanation.whyUnknown[word] ?? 'no tool mentions it',
    }));
  }
  return view;
}
