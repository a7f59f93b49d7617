/**
 * issue #13: the layers of design.md hold under `npm test`. The real tree passes; a planted
 * break in a throwaway tree (a lower layer importing a higher one, a value import into the
 * contract, the renderer reaching past the contract, a type-only cycle) fails, and so does the
 * command `npm run lint` runs.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, importsOf, KNOWN_BREAKS, LAYERS, layerOf } from '../../../scripts/check-layers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/check-layers.js');

const trees: string[] = [];
afterEach(async () => {
  for (const dir of trees.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** Writes `files` (repo-relative path → source) into a fresh temp tree. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'tb-layers-'));
  trees.push(root);
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), text);
  }
  return root;
}

const CLEAN = {
  'src/base/errors.ts': 'export const E = 1;\n',
  'src/search/index.ts': "import { E } from '../base/errors.js';\nexport const S = E;\n",
  'src/approvals/types.ts': 'export type Policy = "allow";\n',
  'src/api/ui-api.ts':
    "export type { Policy } from '../approvals/types.js';\nexport { E } from '../base/errors.js';\n",
  'src/host/host.ts': "import { S } from '../search/index.js';\nexport const H = S;\n",
  'renderer/app.tsx': "import type { Policy } from '../src/api/ui-api.js';\nexport type P = Policy;\n",
};
const none = { knownBreaks: [], knownCycles: [] };

describe('check-layers', () => {
  it('issue #13: the real tree has no layer break and no import cycle', () => {
    expect(checkLayers(ROOT)).toEqual([]);
  });

  it('issue #13: the real tree needs no allow-listed break', () => {
    expect(KNOWN_BREAKS).toEqual([]);
  });

  it('issue #13: store/ knows no domain: the settings file reaching for a section fails', async () => {
    const root = await tree({
      ...CLEAN,
      'src/servers/settings.ts': 'export type ServersSection = { servers: [] };\n',
      'src/store/settings-file.ts':
        "import type { ServersSection } from '../servers/settings.js';\nexport type F = ServersSection;\n",
    });
    expect(checkLayers(root, none)).toEqual([
      'layer: src/store/settings-file.ts imports type from src/servers/settings.ts: src/store/ may import only src/platform, src/base.',
    ]);
  });

  it("issue #13: the README's layout table says what LAYERS allows, folder by folder", async () => {
    const text = await fs.readFile(path.join(ROOT, 'docs/readme/99-rule-map.md'), 'utf8');
    const rows = text.split('\n').filter((line) => /^\| `(src\/|main\/|preload\/)/.test(line));
    const names = (cell: string) =>
      [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/^src\//, '').replace(/\/$/, ''));
    const short = (layers: readonly string[] = []) =>
      layers.map((layer) => layer.replace(/^src\//, '')).sort();
    const rules = LAYERS as Record<string, { imports: string[]; types?: string[] }>;
    const documented: Record<string, { imports: string[]; types: string[] }> = {};
    for (const row of rows) {
      const cells = row.split('|').slice(1, -1);
      const may = cells.at(-1)!;
      const [direct, typesOnly = ''] = may.split('types only from');
      const above = Object.keys(documented);
      for (const folder of names(cells[0]!)) {
        const layer = `src/${folder}` in rules ? `src/${folder}` : folder;
        documented[layer] = may.includes('every folder above')
          ? { imports: short(above), types: [] }
          : may.includes('anything in `src/`')
            ? {
                imports: short(Object.keys(rules).filter((key) => key.startsWith('src/') && key !== layer)),
                types: [],
              }
            : { imports: names(direct!).sort(), types: names(typesOnly).sort() };
      }
    }
    expect(Object.keys(documented).sort()).toEqual(Object.keys(rules).sort());
    for (const [layer, rule] of Object.entries(rules)) {
      expect({ layer, ...documented[layer] }).toEqual({
        layer,
        imports: short(rule.imports),
        types: short(rule.types),
      });
    }
  });

  it('issue #13: a clean planted tree passes', async () => {
    expect(checkLayers(await tree(CLEAN), none)).toEqual([]);
  });

  it('issue #13: a lower layer importing a higher one fails, type-only too', async () => {
    const root = await tree({
      ...CLEAN,
      'src/search/index.ts': "import type { H } from '../host/host.js';\nexport type S = typeof H;\n",
    });
    const problems = checkLayers(root, none);
    expect(problems.join('\n')).toContain(
      'layer: src/search/index.ts imports type from src/host/host.ts: src/search/ may import only src/base.',
    );
  });

  it('issue #13: the contract takes only types from a domain, and the renderer only the contract and base', async () => {
    const root = await tree({
      ...CLEAN,
      'src/api/ui-api.ts':
        "export { type Policy } from '../approvals/types.js';\nimport '../approvals/types.js';\n",
      'renderer/app.tsx':
        "import type { Policy } from '../src/approvals/types.js';\nexport type P = Policy;\n",
    });
    const problems = checkLayers(root, none).join('\n');
    expect(problems).toContain('layer: src/api/ui-api.ts imports src/approvals/types.ts');
    expect(problems).toContain('layer: renderer/app.tsx imports type from src/approvals/types.ts');
  });

  it('issue #13: a type-only import cycle fails', async () => {
    const root = await tree({
      ...CLEAN,
      'renderer/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'renderer/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
    });
    expect(checkLayers(root, none)).toEqual(['cycle: renderer/a.ts → renderer/b.ts → renderer/a.ts']);
  });

  it('issue #13: an allow-list entry that no longer occurs fails, so the list only shrinks', async () => {
    const problems = checkLayers(await tree(CLEAN), {
      knownBreaks: ['src/search/index.ts → src/host/host.ts'],
      knownCycles: ['renderer/a.ts'],
    });
    expect(problems).toEqual([
      'layer: KNOWN_BREAKS lists "src/search/index.ts → src/host/host.ts", which no longer occurs: remove it.',
      'cycle: KNOWN_CYCLES lists "renderer/a.ts", which is no longer in a cycle: remove it.',
    ]);
  });

  it('issue #13: the lint command fails on a planted break and names it', async () => {
    const root = await tree({
      ...CLEAN,
      'src/base/errors.ts': "import '../host/host.js';\nexport const E = 1;\n",
    });
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('layer: src/base/errors.ts imports src/host/host.ts');
    expect(spawnSync(process.execPath, [SCRIPT, await tree(CLEAN)], { encoding: 'utf8' }).status).toBe(0);
  });

  it('reads layers from folder names and imports of every form', () => {
    expect(layerOf('src/host/host.ts')).toBe('src/host');
    expect(layerOf('renderer/views/x.tsx')).toBe('renderer');
    expect(layerOf('test/unit/x.test.ts')).toBeUndefined();
    const text = [
      "import a from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export * from './d.js';",
      "export type { E } from './e.js';",
      "const f = await import('./f.js');",
      "type G = import('./g.js').G;",
      "import 'node:fs';",
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual([
      { specifier: './a.js', typeOnly: false },
      { specifier: './b.js', typeOnly: true },
      { specifier: './c.js', typeOnly: true },
      { specifier: './d.js', typeOnly: false },
      { specifier: './e.js', typeOnly: true },
      { specifier: './f.js', typeOnly: false },
      { specifier: './g.js', typeOnly: true },
    ]);
  });
});
