// Tests for src/servers/mcp-catalog.ts: the bundled install catalog (MCP registry server.json).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogServerConfig, loadMcpCatalog, parseServerJson } from '../../../src/servers/mcp-catalog.js';

/** A registry server.json with one npm stdio package; `pkg` adds to the package. */
function serverJson(pkg: Record<string, unknown>) {
  return {
    name: 'io.example/thing',
    title: 'Thing',
    description: 'Does things.',
    packages: [
      {
        registryType: 'npm',
        identifier: '@modelcontextprotocol/server-memory',
        transport: { type: 'stdio' },
        ...pkg,
      },
    ],
    _meta: { 'dev.toolbridge/install': { id: 'thing', bin: 'mcp-server-memory' } },
  };
}

describe('loadMcpCatalog', () => {
  it('issue #16: reads what a person needs to decide from every bundled entry', () => {
    const entries = loadMcpCatalog();
    expect(entries.map((entry) => entry.id)).toEqual(['everything', 'filesystem', 'memory']);
    for (const entry of entries) {
      expect(entry.description.length).toBeGreaterThan(20);
      expect(entry.description.length).toBeLessThanOrEqual(100);
      expect(entry.details?.length).toBeGreaterThan(80);
      expect(entry.keywords.length).toBeGreaterThan(3);
      expect(entry.tools.length).toBeGreaterThan(5);
      expect(entry.packageVersion).toMatch(/^\d/);
      expect(entry.registryName).toBe(`io.github.modelcontextprotocol/server-${entry.id}`);
    }
    const filesystem = entries.find((entry) => entry.id === 'filesystem')!;
    expect(filesystem.arguments).toEqual([
      expect.objectContaining({
        kind: 'positional',
        name: 'allowed-directory',
        default: '{dataDir}/sandbox',
        isRequired: true,
        isRepeated: true,
        isSecret: false,
        format: 'filepath',
      }),
    ]);
    expect(entries.find((entry) => entry.id === 'memory')!.env).toEqual([
      expect.objectContaining({ kind: 'env', name: 'MEMORY_FILE_PATH', default: '{dataDir}/memory.jsonl' }),
    ]);
  });
});

describe('catalogServerConfig', () => {
  it("runs the package's own script with this Node, values filled in", () => {
    const memory = loadMcpCatalog().find((entry) => entry.id === 'memory')!;
    const config = catalogServerConfig(memory, '/data');
    expect(config).toMatchObject({
      id: 'memory',
      transport: 'stdio',
      command: process.execPath,
      enabled: true,
    });
    if (config.transport !== 'stdio') throw new Error('stdio expected');
    expect(existsSync(config.args![0]!)).toBe(true);
    expect(config.env).toEqual({ MEMORY_FILE_PATH: '/data/memory.jsonl' });
    const filesystem = loadMcpCatalog().find((entry) => entry.id === 'filesystem')!;
    expect((catalogServerConfig(filesystem, '/data') as { args: string[] }).args.slice(1)).toEqual([
      '/data/sandbox',
    ]);
  });

  it('refuses an entry that needs a value only the person can give', () => {
    const entry = parseServerJson(
      serverJson({ environmentVariables: [{ name: 'WORKSPACE', isRequired: true }] }),
    )!;
    expect(() => catalogServerConfig(entry, '/data')).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('Add from catalog'),
      }),
    );
  });
});

describe('parseServerJson', () => {
  it('reads named arguments, choices and a secret the secret store knows by its name', () => {
    const entry = parseServerJson(
      serverJson({
        packageArguments: [{ type: 'named', name: '--mode', choices: ['fast', 'safe'], default: 'safe' }],
        environmentVariables: [{ name: 'API_TOKEN', isSecret: true, isRequired: true }],
      }),
    );
    expect(entry?.arguments).toEqual([
      {
        kind: 'named',
        name: '--mode',
        default: 'safe',
        choices: ['fast', 'safe'],
        isRequired: false,
        isSecret: false,
        isRepeated: false,
        format: 'string',
      },
    ]);
    expect(entry?.env[0]).toMatchObject({ name: 'API_TOKEN', isSecret: true });
  });

  it('offers no entry whose secret settings would hold in the clear', () => {
    // On the command line, or in a variable whose name the secret store would not move out.
    expect(
      parseServerJson(
        serverJson({ packageArguments: [{ type: 'positional', valueHint: 'key', isSecret: true }] }),
      ),
    ).toBeUndefined();
    expect(
      parseServerJson(serverJson({ environmentVariables: [{ name: 'DATABASE_URL', isSecret: true }] })),
    ).toBeUndefined();
    expect(parseServerJson({ ...serverJson({}), packages: [{ registryType: 'pypi' }] })).toBeUndefined();
  });
});
