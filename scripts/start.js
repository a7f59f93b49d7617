#!/usr/bin/env node
// Placeholder until the desktop-app issue lands.
process.stdout.write(
  'toolbridge: the desktop app is not built yet; use the CLI (`node bin/toolbridge.js --help`).\n',
);
