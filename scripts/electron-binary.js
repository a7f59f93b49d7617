// Where the Electron binary is, or why it cannot run here, without downloading anything:
// `require('electron')` would try to download a missing binary, which must not happen at run time.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** @returns {{ path: string } | { reason: string }} */
export function findElectronBinary(env = process.env, platform = process.platform) {
  let packageDir;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return { reason: 'the Electron binary was never downloaded (node_modules/electron has no path.txt)' };
  }
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    : join(packageDir, 'dist', relative);
  if (!existsSync(binary)) return { reason: `the Electron binary is missing (${binary})` };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  return { path: binary };
}
