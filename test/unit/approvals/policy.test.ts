import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, decidePolicy, type PolicyConfig } from '../../../src/approvals/policy.js';
import { type KnownTool, ToolNameResolver } from '../../../src/approvals/tool-key.js';
import { BYPASS_CORPUS, DENIED_NAME } from './bypass-corpus.js';

const key = { serverId: 'files', toolName: 'delete_file' };

describe('decidePolicy', () => {
  it('falls back to the server setting, then the default, which is ask', () => {
    expect(DEFAULT_POLICY).toBe('ask');
    expect(decidePolicy({ defaultPolicy: DEFAULT_POLICY }, key)).toMatchObject({
      policy: 'ask',
      source: 'default',
    });
    const config: PolicyConfig = { defaultPolicy: 'ask', servers: { files: { policy: 'allow' } } };
    expect(decidePolicy(config, key)).toMatchObject({ policy: 'allow', source: 'server' });
    expect(decidePolicy(config, { serverId: 'other', toolName: 'x' })).toMatchObject({ policy: 'ask' });
  });

  it('a tool rule beats the server fallback', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      servers: { files: { policy: 'ask' } },
      rules: [{ serverId: 'files', toolName: 'delete_file', policy: 'allow' }],
    };
    expect(decidePolicy(config, key)).toMatchObject({ policy: 'allow', source: 'rule' });
    expect(decidePolicy(config, { serverId: 'files', toolName: 'read_file' }).policy).toBe('ask');
  });

  it('judges deny, then ask, then allow: a broad deny beats a narrow allow, ask beats allow', () => {
    const broadDeny: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { serverId: 'files', toolName: 'delete_file', policy: 'allow' },
        { serverId: 'files', policy: 'deny' },
      ],
    };
    expect(decidePolicy(broadDeny, key)).toMatchObject({ policy: 'deny', rule: { policy: 'deny' } });
    const askAndAllow: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { serverId: 'files', toolName: 'delete_file', policy: 'allow' },
        { serverId: 'files', toolName: 'delete_file', policy: 'ask' },
      ],
    };
    expect(decidePolicy(askAndAllow, key).policy).toBe('ask');
  });

  it('an allow rule bound to a definition hash stops holding when the definition changes', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'ask',
      rules: [{ serverId: 'files', toolName: 'delete_file', policy: 'allow', definitionHash: 'h1' }],
    };
    expect(decidePolicy(config, { ...key, definitionHash: 'h1' }).policy).toBe('allow');
    expect(decidePolicy(config, { ...key, definitionHash: 'h2' }).policy).toBe('ask');
    expect(decidePolicy(config, key).policy).toBe('ask');
  });

  it('a deny rule keeps holding whatever the definition hash', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [{ serverId: 'files', toolName: 'delete_file', policy: 'deny', definitionHash: 'h1' }],
    };
    expect(decidePolicy(config, { ...key, definitionHash: 'h2' }).policy).toBe('deny');
  });

  it('deny and ask rules cover look-alike names on the same server; allow rules do not', () => {
    const config: PolicyConfig = {
      defaultPolicy: 'allow',
      rules: [
        { serverId: 'files', toolName: 'delete_file', policy: 'deny' },
        { serverId: 'files', toolName: 'move_file', policy: 'ask' },
      ],
    };
    expect(decidePolicy(config, { serverId: 'files', toolName: 'Delete-File' }).policy).toBe('deny');
    expect(decidePolicy(config, { serverId: 'files', toolName: 'MOVE_FILE' }).policy).toBe('ask');
    expect(decidePolicy(config, { serverId: 'other', toolName: 'delete_file' }).policy).toBe('allow');
    const allowOnly: PolicyConfig = {
      defaultPolicy: 'ask',
      rules: [{ serverId: 'files', toolName: 'read_file', policy: 'allow' }],
    };
    expect(decidePolicy(allowOnly, { serverId: 'files', toolName: 'Read_File' }).policy).toBe('ask');
  });

  describe('annotations', () => {
    const readOnly = { ...key, annotations: { readOnlyHint: true } };

    it('a read-only hint relaxes ask to allow only on a server the user trusts', () => {
      const trusted: PolicyConfig = { defaultPolicy: 'ask', servers: { files: { trusted: true } } };
      expect(decidePolicy(trusted, readOnly)).toMatchObject({ policy: 'allow', source: 'read-only' });
      expect(decidePolicy({ defaultPolicy: 'ask' }, readOnly).policy).toBe('ask');
      expect(
        decidePolicy({ defaultPolicy: 'ask', servers: { files: { trusted: false } } }, readOnly).policy,
      ).toBe('ask');
    });

    it('never relaxes a deny, a rule, or a tool that also says it is destructive', () => {
      const trusted = { trusted: true };
      expect(decidePolicy({ defaultPolicy: 'deny', servers: { files: trusted } }, readOnly).policy).toBe(
        'deny',
      );
      expect(
        decidePolicy(
          { defaultPolicy: 'allow', servers: { files: trusted }, rules: [{ ...key, policy: 'ask' }] },
          readOnly,
        ).policy,
      ).toBe('ask');
      const contradictory = { ...key, annotations: { readOnlyHint: true, destructiveHint: true } };
      expect(decidePolicy({ defaultPolicy: 'ask', servers: { files: trusted } }, contradictory).policy).toBe(
        'ask',
      );
    });

    it('from an untrusted server, no annotation relaxes anything', () => {
      const hints = [
        { readOnlyHint: true },
        { destructiveHint: false },
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ];
      for (const annotations of hints) {
        for (const defaultPolicy of ['ask', 'deny'] as const) {
          expect(decidePolicy({ defaultPolicy }, { ...key, annotations }).policy).toBe(defaultPolicy);
        }
      }
    });
  });

  it('asks for outbound redaction when a matching rule or the server says so', () => {
    expect(decidePolicy({ defaultPolicy: 'allow' }, key).redactOutbound).toBe(false);
    expect(
      decidePolicy(
        { defaultPolicy: 'allow', rules: [{ ...key, policy: 'allow', redactOutbound: true }] },
        key,
      ).redactOutbound,
    ).toBe(true);
    expect(
      decidePolicy({ defaultPolicy: 'allow', servers: { files: { redactOutbound: true } } }, key)
        .redactOutbound,
    ).toBe(true);
  });
});

// Everything except the denied tool is allowed, so any resolution to another tool would show.
const catalog: KnownTool[] = [
  { name: DENIED_NAME, serverId: 'files', toolName: 'delete_file' },
  { name: 'mcp__files__read_file', serverId: 'files', toolName: 'read_file' },
  { name: 'mcp__files__delete_files', serverId: 'files', toolName: 'delete_files' },
  { name: 'mcp__files_delete__file', serverId: 'files_delete', toolName: 'file' },
  { name: 'mcp__github__delete_file', serverId: 'github', toolName: 'delete_file' },
  { name: 'connectors__files__delete_file2', serverId: 'files', toolName: 'delete_file2' },
];
const denyConfig: PolicyConfig = {
  defaultPolicy: 'allow',
  rules: [{ serverId: 'files', toolName: 'delete_file', policy: 'deny' }],
};

/** What the dispatcher does with a name: resolve it, then decide; unknown is never dispatched. */
function verdict(resolver: ToolNameResolver, name: string): 'unknown' | 'allow' | 'ask' | 'deny' {
  const tool = resolver.resolve(name);
  return tool === undefined ? 'unknown' : decidePolicy(denyConfig, tool).policy;
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

// With and without a tool whose name folds to the same skeleton as the denied one
// (`mcp__files_delete__file`), so both the "resolves to the denied tool" and the "ambiguous, so
// unknown" paths are exercised.
const catalogs: Array<[string, KnownTool[]]> = [
  ['a catalog with a skeleton collision', catalog],
  ['a catalog without one', catalog.filter((tool) => tool.serverId !== 'files_delete')],
];

describe('name bypass attempts on a denied tool (checklist A2)', () => {
  for (const [label, tools] of catalogs) {
    it(`property: a mutated name of a denied tool never resolves to allow (${label})`, () => {
      const resolver = new ToolNameResolver(tools);
      const seen = new Set<string>();
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 8 }), (mutations) => {
          const name = mutations.reduce(mutate, DENIED_NAME);
          const result = verdict(resolver, name);
          seen.add(result);
          expect(result === 'deny' || result === 'unknown', `${JSON.stringify(name)} → ${result}`).toBe(true);
        }),
        { numRuns: 1000 },
      );
      expect(seen).toContain('unknown');
      if (tools.length < catalog.length) expect(seen).toContain('deny');
    });
  }

  it('the regression corpus gives deny or unknown, identically on 3 runs', () => {
    for (const [, tools] of catalogs) {
      const runs = [0, 1, 2].map(() => {
        const resolver = new ToolNameResolver(tools);
        return BYPASS_CORPUS.map((name) => verdict(resolver, name));
      });
      for (const [i, result] of runs[0]!.entries()) {
        expect(['deny', 'unknown'], JSON.stringify(BYPASS_CORPUS[i])).toContain(result);
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
      expect(runs[0]).toContain('unknown');
    }
  });

  it('the exact name of a different real tool is not caught by the rule', () => {
    expect(verdict(new ToolNameResolver(catalog), 'mcp__files__delete_files')).toBe('allow');
  });
});
