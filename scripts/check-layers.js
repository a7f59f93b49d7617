#!/usr/bin/env node
// The layers of design.md, checked on every `npm test` (vscode's code-layering idea: only folder
// names in import paths count). Fails on an import that goes where its folder may not, and on any
// import cycle between files, type-only imports included. `node scripts/check-layers.js [ROOT]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Layer → the layers it may import (itself always). `types` adds layers it may take only
 * `import type` from. A layer is `src/<folder>`, or a top-level folder (`main`, `preload`, `renderer`).
 */
const SRC_LAYERS = [
  'src/base',
  'src/platform',
  'src/search',
  'src/catalog',
  'src/api',
  'src/servers',
  'src/connectors',
  'src/approvals',
  'src/store',
  'src/bridge',
  'src/agents',
  'src/host',
  'src/web',
  'src/cli',
];

export const LAYERS = {
  'src/base': { imports: [] },
  // base's Node-only half (processes, /proc): what the renderer and the engine must never load.
  'src/platform': { imports: ['src/base'] },
  'src/search': { imports: ['src/base'] },
  'src/catalog': { imports: ['src/search', 'src/base'] },
  'src/api': {
    imports: ['src/base'],
    types: ['src/approvals', 'src/catalog', 'src/servers', 'src/connectors', 'src/bridge'],
  },
  // A domain implements the ports the bridge declares (and may use the bridge's helpers for
  // them); the bridge never imports a domain.
  'src/servers': { imports: ['src/bridge', 'src/catalog', 'src/search', 'src/platform', 'src/base'] },
  'src/connectors': { imports: ['src/bridge', 'src/catalog', 'src/search', 'src/base'] },
  'src/approvals': { imports: ['src/bridge', 'src/catalog', 'src/search', 'src/base'] },
  // Loads, migrates and saves documents it does not understand: the domains check their sections.
  'src/store': { imports: ['src/platform', 'src/base'] },
  'src/bridge': { imports: ['src/catalog', 'src/search', 'src/base'] },
  'src/agents': { imports: ['src/bridge', 'src/catalog', 'src/search', 'src/base'] },
  'src/host': {
    imports: [
      'src/agents',
      'src/bridge',
      'src/approvals',
      'src/store',
      'src/connectors',
      'src/servers',
      'src/catalog',
      'src/search',
      'src/api',
      'src/platform',
      'src/base',
    ],
  },
  'src/web': { imports: ['src/host', 'src/agents', 'src/api', 'src/base'] },
  // The command line sits on top: it may use any part of the host and the engine.
  'src/cli': { imports: SRC_LAYERS.filter((layer) => layer !== 'src/cli') },
  // The Electron shell: the host, the web folder's file server, and the store it hands safeStorage to.
  main: { imports: ['src/host', 'src/web', 'src/store', 'src/api', 'src/base'] },
  preload: { imports: ['src/api', 'src/base'] },
  renderer: { imports: ['src/api', 'src/base'] },
};

/**
 * Breaks the code still has, each as `from → to` (none left: keep it so). An entry that no longer
 * occurs fails the check, so the list can only shrink.
 */
export const KNOWN_BREAKS = [];

/** Cycles still to break, each named by a file in it (none left: keep it so). */
export const KNOWN_CYCLES = [];

const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

function listFiles(dir) {
  const out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The layer a repo-relative path belongs to, or undefined (tests, scripts, bench). */
export function layerOf(relative) {
  const parts = relative.split('/');
  if (parts[0] === 'src' && parts.length > 2) return `src/${parts[1]}`;
  if (['main', 'preload', 'renderer'].includes(parts[0])) return parts[0];
  return undefined;
}

/** Every relative import and re-export of a file, with whether it is type-only. */
export function importsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((entry) => entry.specifier.startsWith('.'));
}

function isTypeOnly(node) {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const elements =
      node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
    return elements.length > 0 && elements.every((element) => element.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** `./x.js` from `src/a/b.ts` → the repo-relative source file it names, when it exists. */
function resolve(fromRelative, specifier, known) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromRelative), specifier));
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.js`, `${stem}/index.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** Checks the tree at `root`; returns the problems found, one line each. */
export function checkLayers(
  root,
  { layers = LAYERS, knownBreaks = KNOWN_BREAKS, knownCycles = KNOWN_CYCLES } = {},
) {
  const files = ['src', 'main', 'preload', 'renderer'].flatMap((dir) => listFiles(path.join(root, dir)));
  const relatives = files.map((file) => path.relative(root, file).split(path.sep).join('/'));
  const known = new Set(relatives);
  const graph = new Map();
  const problems = [];
  const usedBreaks = new Set();
  for (const from of relatives) {
    const fromLayer = layerOf(from);
    const edges = [];
    for (const { specifier, typeOnly } of importsOf(from, readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolve(from, specifier, known);
      if (to === undefined) continue;
      edges.push(to);
      const toLayer = layerOf(to);
      if (toLayer === fromLayer || fromLayer === undefined) continue;
      const rule = layers[fromLayer];
      const allowed =
        rule !== undefined &&
        (rule.imports.includes(toLayer) || (typeOnly && (rule.types ?? []).includes(toLayer)));
      if (allowed) continue;
      const key = `${from} → ${to}`;
      if (knownBreaks.includes(key)) {
        usedBreaks.add(key);
        continue;
      }
      const may =
        rule === undefined ? 'nothing (no rule)' : [...rule.imports, ...(rule.types ?? [])].join(', ');
      problems.push(
        `layer: ${from} imports ${typeOnly ? 'type from ' : ''}${to}: ${fromLayer}/ may import only ${may}.`,
      );
    }
    graph.set(from, edges);
  }
  for (const key of knownBreaks) {
    if (!usedBreaks.has(key))
      problems.push(`layer: KNOWN_BREAKS lists "${key}", which no longer occurs: remove it.`);
  }
  const usedCycles = new Set();
  for (const cycle of cyclesOf(graph)) {
    const known = knownCycles.find((name) => cycle.includes(name));
    if (known !== undefined) usedCycles.add(known);
    else problems.push(`cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  }
  for (const name of knownCycles) {
    if (!usedCycles.has(name))
      problems.push(`cycle: KNOWN_CYCLES lists "${name}", which is no longer in a cycle: remove it.`);
  }
  return problems;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cyclesOf(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const connect = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.reverse());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Another tree (a test's fixture) has no allow-list: the lists name this repository's files.
  const other = process.argv[2];
  const root = path.resolve(other ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'));
  const problems = checkLayers(root, other === undefined ? {} : { knownBreaks: [], knownCycles: [] });
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(
      `check-layers: ${problems.length} problem(s); the layers are in scripts/check-layers.js.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('check-layers: no layer breaks, no import cycles.\n');
}
