#!/usr/bin/env node
// README.md is assembled from docs/readme/*.md, one file per part of the project, in this order.
// Edit the parts, then run `node scripts/build-readme.js`.
import { readFileSync, writeFileSync } from 'node:fs';

const PARTS = [
  '00-intro',
  'app',
  'host',
  'gateway',
  'engine',
  'catalog-cli',
  'bridge',
  'servers-store',
  'approvals',
  'security',
  'connectors',
  'compatibility',
  '99-rule-map',
];
const root = new URL('../', import.meta.url);
const text = PARTS.map((part) =>
  readFileSync(new URL(`docs/readme/${part}.md`, root), 'utf8')
    .replace(/\]\((?:\.\.\/)?screenshots\//g, '](docs/screenshots/')
    .trimEnd(),
).join('\n\n');
writeFileSync(new URL('README.md', root), `${text}\n`);
