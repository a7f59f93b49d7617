import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HERMES_OPTIONS } from '../../../src/search/presets.js';
import { createToolIndex } from '../../../src/search/tool-index.js';
import type { IndexEntry } from '../../../src/search/types.js';
import { sharedDataDir } from './shared-data.js';

// Every raw engine call among the reference scenarios (`input.query` + `input.limit`), run with the
// Hermes preset. Bridge scenarios (`tool_search_args`) are the bridge's tests.

interface ScenarioTool {
  name: string;
  source: string | null;
  description?: string | null;
  parameters?: unknown;
}

interface Scenario {
  id: string;
  kind: string;
  catalog: ScenarioTool[] | null;
  input: { query?: string; limit?: number };
  expect: {
    matches?: string[];
    matches_first?: string;
    matches_include?: string[];
    matches_exclude?: string[];
    max_len?: number;
    peer_matches?: string[];
  };
}

const scenarios = (
  JSON.parse(
    readFileSync(join(sharedDataDir(), '..', 'reference', 'hermes-scenarios.json'), 'utf8'),
  ) as Scenario[]
).filter((scenario) => scenario.kind === 'search' && typeof scenario.input.query === 'string');

/** A toolset like `mcp-github` is labelled `github`; `null` means an unregistered tool with no label. */
function toEntry(tool: ScenarioTool): IndexEntry {
  return {
    name: tool.name,
    description: tool.description ?? null,
    inputSchema: tool.parameters,
    server: tool.source === null ? null : tool.source.replace(/^mcp-/, ''),
  };
}

describe('Hermes reference scenarios (raw engine calls)', () => {
  it('finds the raw engine scenarios in the reference file', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(11);
  });

  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', (_id, scenario) => {
    const index = createToolIndex((scenario.catalog ?? []).map(toEntry), HERMES_OPTIONS);
    const { matches } = index.search(scenario.input.query!, { limit: scenario.input.limit! });
    const want = scenario.expect;
    if (want.matches !== undefined) expect(matches).toEqual(want.matches);
    if (want.peer_matches !== undefined) expect(matches).toEqual(want.peer_matches);
    if (want.matches_first !== undefined) expect(matches[0]).toBe(want.matches_first);
    for (const name of want.matches_include ?? []) expect(matches).toContain(name);
    for (const name of want.matches_exclude ?? []) expect(matches).not.toContain(name);
    if (want.max_len !== undefined) expect(matches.length).toBeLessThanOrEqual(want.max_len);
  });
});
