/**
 * The agents' part of settings.json: `agents` (who may call the endpoint; tokens live in the
 * secret store), with its default and validation. Pure; host/settings-document.ts composes it.
 */
import { isPlainObject } from '../base/json.js';
import { describeValue, type SettingsChecker, type SettingsSection } from '../base/settings-check.js';

/** An agent allowed to call the endpoint. Its token is a secret and lives in the secret store. */
export interface AgentSettings {
  id: string;
  name: string;
  contextLengthTokens: number;
  /** ISO 8601. */
  createdAt: string;
}

export interface AgentsSection {
  agents: AgentSettings[];
}

export const AGENTS_SECTION: SettingsSection<AgentsSection> = {
  defaults: () => ({ agents: [] }),
  check: (c, raw) => ({ agents: c.field(raw, 'agents', [], (value) => checkAgents(c, value)) }),
};

const AGENT_ID = /^[A-Za-z0-9_-]+$/;

function checkAgents(c: SettingsChecker, raw: unknown): AgentSettings[] {
  if (!Array.isArray(raw)) {
    c.issue('agents', `must be a list of agent objects; got ${describeValue(raw)}.`);
    return [];
  }
  const agents: AgentSettings[] = [];
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const path = `agents[${index}]`;
    if (!isPlainObject(item)) {
      c.issue(
        path,
        `must be an object like {"id": "a1", "name": "Claude", "contextLengthTokens": 200000, "createdAt": "2026-01-01T00:00:00.000Z"}; got ${describeValue(item)}.`,
      );
      return;
    }
    if ('token' in item) {
      c.issue(
        `${path}.token`,
        'must not be here: agent tokens are secrets and live in the secret store, never in settings.json. Remove the field.',
      );
    }
    c.knownKeys(item, path, ['id', 'name', 'contextLengthTokens', 'createdAt', 'token']);
    const id = c.string(item.id, `${path}.id`) ?? '';
    if (id !== '' && !AGENT_ID.test(id))
      c.issue(`${path}.id`, `may only hold letters, digits, "_" and "-"; got "${id}".`);
    if (seen.has(id))
      c.issue(`${path}.id`, `"${id}" is used by an earlier agent; every agent needs its own id.`);
    seen.add(id);
    const createdAt =
      c.string(item.createdAt, `${path}.createdAt`, 'an ISO 8601 time like "2026-01-01T00:00:00.000Z"') ?? '';
    if (createdAt !== '' && Number.isNaN(Date.parse(createdAt))) {
      c.issue(
        `${path}.createdAt`,
        `must be an ISO 8601 time like "2026-01-01T00:00:00.000Z"; got "${createdAt}".`,
      );
    }
    agents.push({
      id,
      name: c.string(item.name, `${path}.name`) ?? '',
      contextLengthTokens: c.integer(
        item.contextLengthTokens,
        `${path}.contextLengthTokens`,
        1_000,
        100_000_000,
        'tokens, e.g. 200000',
      ),
      createdAt,
    });
  });
  return agents;
}
