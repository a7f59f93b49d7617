import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Hashed build assets never change under the same name; everything else is re-checked. */
  immutable: boolean;
}

/**
 * Maps a URL path onto a file under `root`, or undefined when it would leave `root` (`..`,
 * encoded `%2e%2e`, backslashes, NUL, absolute paths). `/` is `index.html`. Pure: no disk access,
 * so the Electron `app://` handler and the web server share it.
 */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const wanted = decoded === '/' ? '/index.html' : decoded;
  const absoluteRoot = resolve(root);
  const target = resolve(absoluteRoot, `.${wanted}`);
  return isInside(absoluteRoot, target) ? target : undefined;
}

/** Reads a file served from `root`; undefined for anything missing, a directory, or a symlink leading out. */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  const target = resolveStaticPath(root, urlPath);
  if (target === undefined) return undefined;
  try {
    const [realRoot, realTarget] = await Promise.all([realpath(root), realpath(target)]);
    if (!isInside(realRoot, realTarget) || !(await stat(realTarget)).isFile()) return undefined;
    const body = await readFile(realTarget);
    const extension = extname(realTarget).toLowerCase();
    return {
      body,
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      immutable: realTarget.includes(`${sep}assets${sep}`),
    };
  } catch {
    return undefined;
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
