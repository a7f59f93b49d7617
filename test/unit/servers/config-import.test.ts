// biome-ignore-all lint/suspicious/noTemplateCurlyInString: imported configs spell out ${input:…} and ${env:…} literally.
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolbridgeError } from '../../../src/base/errors.js';
import { InMemorySecretStore } from '../../../src/base/secret-store.js';
import { openSettingsStore } from '../../../src/host/host-settings.js';
import {
  importServers,
  parseJsonc,
  parseServerImport,
  readServerImportFile,
} from '../../../src/servers/config-import.js';

function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/servers/import/${name}`, import.meta.url));
}
function fixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

describe('parseServerImport: Claude Desktop', () => {
  it('reads mcpServers as stdio servers, ids from the names', () => {
    const result = parseServerImport(fixture('claude_desktop_config.json'));
    expect(result.format).toBe('claude-desktop');
    expect(result.notes).toEqual([]);
    expect(result.servers).toEqual([
      {
        id: 'filesystem',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop', '/Users/me/Downloads'],
        enabled: true,
      },
      {
        id: 'github',
        name: 'GitHub',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_importcanary123' },
        enabled: true,
      },
      {
        id: 'memory',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: '/Users/me/memory.jsonl' },
        enabled: true,
      },
    ]);
  });

  it('avoids taken ids and says so', () => {
    const result = parseServerImport(fixture('claude_desktop_config.json'), {
      existingIds: ['github', 'memory', 'memory-2'],
    });
    expect(result.servers.map((s) => s.id)).toEqual(['filesystem', 'github-2', 'memory-3']);
    expect(result.notes).toEqual([
      '"GitHub" was imported as "github-2" because "github" is taken.',
      '"memory" was imported as "memory-3" because "memory" is taken.',
    ]);
  });

  it('accepts just the inner object pasted on its own', () => {
    const result = parseServerImport('{"time": {"command": "uvx", "args": ["mcp-server-time"]}}');
    expect(result.servers).toEqual([
      { id: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'], enabled: true },
    ]);
  });
});

describe('parseServerImport: Cursor', () => {
  it('reads url and command entries, with notes for what it cannot use', () => {
    const result = parseServerImport(fixture('cursor-mcp.json'));
    expect(result.format).toBe('cursor');
    expect(result.servers).toEqual([
      { id: 'linear', transport: 'http', url: 'https://mcp.linear.app/mcp', enabled: true },
      {
        id: 'legacy-events',
        transport: 'sse',
        url: 'http://127.0.0.1:9000/sse',
        headers: { Authorization: 'Bearer cursor-canary-456' },
        enabled: true,
      },
      {
        id: 'postgres',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/db'],
        env: { PGPORT: '5432', API_KEY: '' },
        enabled: false,
      },
    ]);
    expect(result.notes).toEqual([
      '"postgres": env API_KEY uses ${env:PG_API_KEY}, which its original client asks for at start. Enter the value in Toolbridge, then enable the server.',
      'Skipped "broken": it has neither a "command" nor a "url".',
    ]);
  });
});

describe('parseServerImport: VS Code', () => {
  it('reads servers with type, comments and trailing commas; ${input:…} becomes a note', () => {
    const result = parseServerImport(fixture('vscode-mcp.json'));
    expect(result.format).toBe('vscode');
    expect(result.servers).toEqual([
      {
        id: 'github',
        transport: 'stdio',
        command: 'docker',
        args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '' },
        enabled: false,
      },
      {
        id: 'fetch',
        transport: 'http',
        url: 'https://example.com/mcp',
        headers: { 'X-Team': 'tools' },
        enabled: true,
      },
      { id: 'events', transport: 'sse', url: 'https://example.com/sse', enabled: true },
    ]);
    expect(result.notes).toEqual([
      '"github": env GITHUB_PERSONAL_ACCESS_TOKEN uses ${input:github_token} ("GitHub Personal Access Token"), which its original client asks for at start. Enter the value in Toolbridge, then enable the server.',
    ]);
  });

  it('also reads the "mcp" block of a VS Code settings.json', () => {
    const result = parseServerImport(
      '{"editor.fontSize": 14, "mcp": {"servers": {"t": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}}',
    );
    expect(result).toMatchObject({ format: 'vscode', servers: [{ id: 't', transport: 'http' }] });
  });

  it('keeps a "//" inside a string', () => {
    expect(parseJsonc('{"url": "https://x.example/a//b", /* c */ "n": [1, 2,],}')).toEqual({
      url: 'https://x.example/a//b',
      n: [1, 2],
    });
  });
});

describe('parseServerImport errors', () => {
  it('names the line and column of invalid JSON', () => {
    const error = (() => {
      try {
        parseServerImport('{\n  "mcpServers": {\n    "a": { "command": "x" \n  }\n');
      } catch (e) {
        return e;
      }
    })();
    expect(ToolbridgeError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^The config is not valid JSON: .*line \d+.*Paste the whole file/,
    );
  });

  it('says what shape it expected', () => {
    expect(() => parseServerImport('{"settings": {}}')).toThrow(
      /Found no servers: expected "mcpServers".*Found keys: settings/,
    );
    expect(() => parseServerImport('{"mcpServers": []}')).toThrow(
      /"mcpServers" must be an object of servers keyed by name/,
    );
    expect(() => parseServerImport('[1]')).toThrow(/Expected a JSON object/);
  });
});

describe('readServerImportFile', () => {
  it('reads from a path, and reports a missing file', async () => {
    expect((await readServerImportFile(fixturePath('cursor-mcp.json'))).servers).toHaveLength(3);
    await expect(readServerImportFile('/nonexistent/mcp.json')).rejects.toThrow(
      /Could not read \/nonexistent\/mcp\.json/,
    );
  });
});

describe('importServers', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-import-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('adds the servers in one update; their secrets go to the secret store', async () => {
    const secrets = new InMemorySecretStore();
    const store = await openSettingsStore({ dataDir: dir, secrets });
    await store.update((d) => ({
      ...d,
      servers: [{ id: 'github', transport: 'stdio', command: 'x', enabled: true }],
    }));
    const result = await importServers(store, { path: fixturePath('claude_desktop_config.json') });
    expect(result.servers.map((s) => s.id)).toEqual(['filesystem', 'github-2', 'memory']);
    expect(store.current.servers.map((s) => s.id)).toEqual(['github', 'filesystem', 'github-2', 'memory']);
    const bytes = await fs.readFile(path.join(dir, 'settings.json'), 'utf8');
    expect(bytes).not.toContain('ghp_importcanary123');
    expect(await secrets.get('github-2:env.GITHUB_PERSONAL_ACCESS_TOKEN')).toBe('ghp_importcanary123');
  });

  it('leaves the settings file untouched on invalid input', async () => {
    const store = await openSettingsStore({ dataDir: dir, secrets: new InMemorySecretStore() });
    await store.update((d) => ({
      ...d,
      servers: [{ id: 'keep', transport: 'stdio', command: 'x', enabled: true }],
    }));
    const before = await fs.readFile(path.join(dir, 'settings.json'));
    await expect(importServers(store, { text: '{"mcpServers": {' })).rejects.toThrow(/not valid JSON/);
    await expect(importServers(store, { text: '{"whatever": 1}' })).rejects.toThrow(/Found no servers/);
    expect(await fs.readFile(path.join(dir, 'settings.json'))).toEqual(before);
    expect(store.current.servers.map((s) => s.id)).toEqual(['keep']);
  });
});
