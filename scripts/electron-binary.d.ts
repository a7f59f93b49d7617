/** Where the Electron binary is, or why it cannot run here; never downloads. */
export function findElectronBinary(
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
): { path: string } | { reason: string };
