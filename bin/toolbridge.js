#!/usr/bin/env node
// The CLI is compiled from src/cli by `npm run build:host`; say so instead of a stack trace when it is missing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('toolbridge: not built yet. Run `npm run build:host` (or `npm run build`) first.\n');
  process.exit(2);
}
await import(entry.href);
