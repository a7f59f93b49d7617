/**
 * Security checklist A2 against the real decision path: mutated spellings of a denied tool's name
 * go through the bridge (tool_call, and a direct call when the tool is pinned) into the real
 * approval gate, and straight to the gate as well. Nothing may reach the server: each spelling is
 * refused as unknown, or it is the exact name and the rule denies it.
 */
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../../src/approvals/approval-queue.js';
import { ApprovalGate, parseToolError } from '../../../src/approvals/gate.js';
import type { PolicyConfig } from '../../../src/approvals/policy.js';
import type { JsonObject } from '../../../src/base/json.js';
import { type BridgeSurface, createAgentSurface } from '../../../src/bridge/agent-surface.js';
import type { ToolExecutor } from '../../../src/bridge/types.js';
import { classifyEntries } from '../../../src/catalog/catalog.js';
import { DEFAULT_TOOL_SEARCH_SETTINGS } from '../../../src/catalog/tool-search-config.js';
import { planToolSurface } from '../../../src/catalog/tool-surface.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import { BYPASS_CORPUS, DENIED_NAME } from './bypass-corpus.js';

function mcpEntry(serverId: string, toolName: string): CatalogEntry {
  const name = `mcp__${serverId}__${toolName}`;
  return {
    name,
    serverId,
    toolName,
    source: 'mcp',
    description: `${toolName} on ${serverId}`,
    inputSchema: undefined,
  };
}

// Everything except the denied tool is allowed, so a spelling taken for another tool would run.
const CATALOG = [
  mcpEntry('files', 'delete_file'),
  mcpEntry('files', 'read_file'),
  mcpEntry('files', 'delete_files'),
  mcpEntry('files_delete', 'file'),
  mcpEntry('github', 'delete_file'),
];
const DENY: PolicyConfig = {
  defaultPolicy: 'allow',
  // The key denied in both namespaces (issue #16 keeps them apart), so a prefix swap is just
  // another spelling here.
  rules: (['mcp', 'connectors'] as const).map((toolKind) => ({
    toolKind,
    serverId: 'files',
    toolName: 'delete_file',
    policy: 'deny' as const,
  })),
};
const CONTEXT = { agentId: 'agent-a' };

type Route = 'tool_call' | 'direct';
/** `deny`: the gate refused it; `unknown`: the bridge refused it before any gate; else what ran. */
type Verdict = 'deny' | 'unknown' | `ran ${string}`;

interface Session {
  surface: BridgeSurface;
  /** Names the bridge handed to the gate. */
  gated: string[];
  /** Names the gate let through to the server. */
  dispatched: string[];
}

const queues: ApprovalQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.close()));
});

/** A session as the host composes it: a real plan, the bridge, and the gate in front of a recording server. */
function session(route: Route): Session {
  const queue = new ApprovalQueue();
  queues.push(queue);
  const gate = new ApprovalGate({ policy: () => DENY, queue });
  const gated: string[] = [];
  const dispatched: string[] = [];
  const executor: ToolExecutor = {
    callTool(entry, args, context) {
      gated.push(entry.name);
      return gate.call(
        {
          agentId: context.agentId,
          name: entry.name,
          serverId: entry.serverId,
          toolName: entry.toolName,
          arguments: args as JsonObject,
          definitionHash: 'test',
        },
        async () => {
          dispatched.push(entry.name);
          return { content: [{ type: 'text', text: `ran ${entry.name}` }] };
        },
      );
    },
  };
  const settings = DEFAULT_TOOL_SEARCH_SETTINGS;
  const classified = classifyEntries(CATALOG, { pinned: route === 'direct' ? [DENIED_NAME] : [] });
  const plan = planToolSurface(classified, { settings });
  if (route === 'direct') expect(plan.direct.map((item) => item.directName)).toEqual([DENIED_NAME]);
  else expect(plan.deferred.map((entry) => entry.name)).toContain(DENIED_NAME);
  return { surface: createAgentSurface({ plan, settings, executor }), gated, dispatched };
}

async function verdict(s: Session, route: Route, name: string): Promise<Verdict> {
  const gatedBefore = s.gated.length;
  const dispatchedBefore = s.dispatched.length;
  let result: CallToolResult;
  try {
    result =
      route === 'tool_call'
        ? await s.surface.callTool('tool_call', { calls: [{ name, arguments: {} }] }, CONTEXT)
        : await s.surface.callTool(name, {}, CONTEXT);
  } catch (error) {
    // A direct call to a name that is not listed is a protocol error: the tool is unknown.
    if (error instanceof McpError && s.gated.length === gatedBefore) return 'unknown';
    throw error;
  }
  if (s.dispatched.length > dispatchedBefore) return `ran ${s.dispatched.at(-1)}`;
  if (s.gated.length > gatedBefore) {
    expect(parseToolError(result)?.code, JSON.stringify(name)).toBe('DENIED');
    return 'deny';
  }
  expect(result.isError, JSON.stringify(name)).toBe(true);
  return 'unknown';
}

/** Only the exact name of a different real tool may run, and then it is that tool. */
function acceptable(name: string, result: Verdict): boolean {
  if (result === 'deny' || result === 'unknown') return true;
  return name !== DENIED_NAME && result === `ran ${name}` && CATALOG.some((entry) => entry.name === name);
}

const INVISIBLES = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u061c',
  '\u{e0020}',
  '\ufe0f',
];
const SPACES = [' ', '\t', '\n', '\u00a0', '\u2003', '\u3000'];
const SEPARATORS = ['-', ' ', '.', '__', '_', ':', '/', '\u2010', '\u2212', '\uff3f', '\uff0d', '\u30fb'];
const PREFIXES = ['mcp__', 'MCP__', 'connectors__', 'functions.', 'mcp__files__', 'files__', 'github__'];

type Mutation =
  | { op: 'case' | 'fullwidth'; at: number }
  | { op: 'invisible'; at: number; char: string }
  | { op: 'trail' | 'lead'; char: string }
  | { op: 'separator'; at: number; sep: string }
  | { op: 'prefix'; prefix: string }
  | { op: 'strip' }
  | { op: 'ligature' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('case' as const, 'fullwidth' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('invisible' as const), at: fc.nat(), char: fc.constantFrom(...INVISIBLES) }),
  fc.record({ op: fc.constantFrom('trail' as const, 'lead' as const), char: fc.constantFrom(...SPACES) }),
  fc.record({ op: fc.constant('separator' as const), at: fc.nat(), sep: fc.constantFrom(...SEPARATORS) }),
  fc.record({ op: fc.constant('prefix' as const), prefix: fc.constantFrom(...PREFIXES) }),
  fc.constant({ op: 'strip' as const }),
  fc.constant({ op: 'ligature' as const }),
);

function mutate(name: string, m: Mutation): string {
  const chars = [...name];
  const at = 'at' in m ? m.at % Math.max(chars.length, 1) : 0;
  switch (m.op) {
    case 'case': {
      const c = chars[at] ?? '';
      chars[at] = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
      return chars.join('');
    }
    case 'fullwidth': {
      const code = chars[at]?.codePointAt(0) ?? 0;
      if (code >= 0x21 && code <= 0x7e) chars[at] = String.fromCodePoint(code + 0xfee0);
      return chars.join('');
    }
    case 'invisible':
      chars.splice(at, 0, m.char);
      return chars.join('');
    case 'trail':
      return name + m.char;
    case 'lead':
      return m.char + name;
    case 'separator': {
      const underscores = chars.flatMap((c, i) => (c === '_' ? [i] : []));
      if (underscores.length === 0) return name;
      chars[underscores[m.at % underscores.length]!] = m.sep;
      return chars.join('');
    }
    case 'prefix':
      return m.prefix + name;
    case 'strip':
      return name.replace(/^mcp__/, '');
    case 'ligature':
      return name.replace('fi', '\ufb01');
  }
}

const mutatedName = fc
  .array(mutation, { minLength: 1, maxLength: 8 })
  .map((mutations) => mutations.reduce(mutate, DENIED_NAME));

describe('name bypass attempts on a denied tool (checklist A2)', () => {
  for (const route of ['tool_call', 'direct'] as const) {
    it(`property: a mutated name through ${route} and the gate is never dispatched`, async () => {
      const s = session(route);
      const seen = new Set<Verdict>();
      await fc.assert(
        fc.asyncProperty(mutatedName, async (name) => {
          const result = await verdict(s, route, name);
          seen.add(result);
          expect(acceptable(name, result), `${JSON.stringify(name)} → ${result}`).toBe(true);
        }),
        { numRuns: 500 },
      );
      expect(s.dispatched).not.toContain(DENIED_NAME);
      expect(seen).toContain('unknown');
    });

    it(`the regression corpus through ${route} gives deny or unknown, identically on 3 runs`, async () => {
      const runs: Verdict[][] = [];
      for (let run = 0; run < 3; run++) {
        const s = session(route);
        const results: Verdict[] = [];
        for (const name of BYPASS_CORPUS) results.push(await verdict(s, route, name));
        expect(s.dispatched).toEqual([]);
        runs.push(results);
      }
      for (const [i, result] of runs[0]!.entries()) {
        const name = BYPASS_CORPUS[i]!;
        // The exact name reaches the gate and is denied. tool_call may trim outer whitespace (the
        // same key, so denied too); every other spelling is unknown to the bridge.
        if (name === DENIED_NAME) expect(result).toBe('deny');
        else if (route === 'tool_call' && name.trim() === DENIED_NAME)
          expect(['deny', 'unknown']).toContain(result);
        else expect(result, JSON.stringify(name)).toBe('unknown');
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
    });
  }

  it('property: the gate itself refuses a mutated name on the denied key and never runs it', async () => {
    const queue = new ApprovalQueue();
    queues.push(queue);
    const gate = new ApprovalGate({ policy: () => DENY, queue });
    const ran: string[] = [];
    const codes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutatedName, async (name) => {
        const result = await gate.call(
          {
            agentId: 'agent-a',
            name,
            serverId: 'files',
            toolName: 'delete_file',
            arguments: {},
            definitionHash: 'test',
          },
          async () => {
            ran.push(name);
            return { content: [] };
          },
        );
        const code = parseToolError(result)?.code;
        codes.add(code ?? 'ran');
        expect(code === 'DENIED' || code === 'NOT_FOUND', `${JSON.stringify(name)} → ${code}`).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(ran).toEqual([]);
    expect(codes).toContain('NOT_FOUND');
  });

  it('the exact name of a different real tool still runs, as itself', async () => {
    const s = session('tool_call');
    expect(await verdict(s, 'tool_call', 'mcp__files__delete_files')).toBe('ran mcp__files__delete_files');
    expect(await verdict(s, 'tool_call', 'mcp__files_delete__file')).toBe('ran mcp__files_delete__file');
  });
});
