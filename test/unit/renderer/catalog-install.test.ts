// Tests for renderer/lib/catalog-install.ts: the catalog panel's search and the config it installs.
import { describe, expect, it } from 'vitest';
import {
  askedInputs,
  buildCatalogConfig,
  catalogFormValues,
  filterCatalog,
} from '../../../renderer/lib/catalog-install.js';
import type { CatalogServerView, McpCatalogInput } from '../../../src/api/ui-api.js';

const input = (
  patch: Partial<McpCatalogInput> & Pick<McpCatalogInput, 'kind' | 'name'>,
): McpCatalogInput => ({
  isRequired: false,
  isSecret: false,
  isRepeated: false,
  format: 'string',
  ...patch,
});

const server = (patch: Partial<CatalogServerView> = {}): CatalogServerView => ({
  id: 'notes',
  registryName: 'io.example/notes',
  title: 'Notes',
  description: 'Keeps notes in a folder.',
  keywords: ['markdown'],
  tools: ['add_note'],
  packageName: '@example/notes',
  packageVersion: '1.0.0',
  command: '/usr/bin/node',
  script: '/app/node_modules/@example/notes/index.js',
  fixedEnv: {},
  arguments: [
    input({ kind: 'positional', name: 'transport', value: 'stdio' }),
    input({ kind: 'positional', name: 'folder', default: '/data/notes', isRequired: true, isRepeated: true }),
    input({ kind: 'named', name: '--mode', choices: ['fast', 'safe'] }),
  ],
  env: [input({ kind: 'env', name: 'NOTES_TOKEN', isSecret: true, isRequired: true })],
  ...patch,
});

describe('filterCatalog', () => {
  const everything = server({
    id: 'everything',
    registryName: 'io.example/everything',
    packageName: '@example/everything',
    title: 'Everything',
    description: 'Test server.',
    keywords: [],
    tools: ['echo'],
  });
  it('issue #16: matches every word in names, title, description, keywords and tools', () => {
    const all = [server(), everything];
    expect(filterCatalog(all, '').map((s) => s.id)).toEqual(['notes', 'everything']);
    expect(filterCatalog(all, 'MARKDOWN folder').map((s) => s.id)).toEqual(['notes']);
    expect(filterCatalog(all, 'echo').map((s) => s.id)).toEqual(['everything']);
    expect(filterCatalog(all, 'notes echo')).toEqual([]);
  });
});

describe('buildCatalogConfig', () => {
  it('asks only what is not fixed, proposes the defaults and a free id', () => {
    expect(askedInputs(server()).map(({ key }) => key)).toEqual(['arg.1', 'arg.2', 'env.NOTES_TOKEN']);
    expect(catalogFormValues(server(), new Set(['notes']))).toEqual({
      id: 'notes-2',
      name: 'Notes',
      inputs: { 'arg.1': '/data/notes', 'arg.2': '', 'env.NOTES_TOKEN': '' },
    });
  });

  it("builds the command form's stdio config: this Node, the script, the person's values", () => {
    const values = {
      id: 'notes',
      name: 'Notes',
      inputs: { 'arg.1': '/a\n\n /b ', 'arg.2': 'safe', 'env.NOTES_TOKEN': 's3cret' },
    };
    expect(buildCatalogConfig(server({ fixedEnv: { ELECTRON_RUN_AS_NODE: '1' } }), values)).toEqual({
      ok: true,
      config: {
        id: 'notes',
        name: 'Notes',
        enabled: true,
        transport: 'stdio',
        command: '/usr/bin/node',
        args: ['/app/node_modules/@example/notes/index.js', 'stdio', '/a', '/b', '--mode', 'safe'],
        env: { ELECTRON_RUN_AS_NODE: '1', NOTES_TOKEN: 's3cret' },
      },
    });
  });

  it('says which field is wrong: a taken id, a missing required value, a value off its choices', () => {
    const values = catalogFormValues(server(), new Set());
    expect(buildCatalogConfig(server(), values, new Set(['notes']))).toMatchObject({
      ok: false,
      field: 'id',
      message: expect.stringContaining('"notes-2"'),
    });
    expect(buildCatalogConfig(server(), values)).toMatchObject({ ok: false, field: 'env.NOTES_TOKEN' });
    const filled = { ...values, inputs: { ...values.inputs, 'env.NOTES_TOKEN': 't', 'arg.1': ' ' } };
    expect(buildCatalogConfig(server(), filled)).toMatchObject({ ok: false, field: 'arg.1' });
    const wrong = { ...values, inputs: { ...values.inputs, 'env.NOTES_TOKEN': 't', 'arg.2': 'slow' } };
    expect(buildCatalogConfig(server(), wrong)).toMatchObject({
      ok: false,
      field: 'arg.2',
      message: '--mode must be one of fast, safe.',
    });
    const numbers = server({ env: [input({ kind: 'env', name: 'PORT', format: 'number' })] });
    expect(
      buildCatalogConfig(numbers, { id: 'n', name: '', inputs: { 'arg.1': '/a', 'env.PORT': 'ten' } }),
    ).toMatchObject({
      ok: false,
      field: 'env.PORT',
    });
  });
});
