/**
 * The one way a URL leaves the app for the system browser (security checklist M11/E15):
 * https anywhere, http only on loopback, nothing else; never through a shell.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The URL to open, or undefined when it is not one we open. */
export function safeExternalUrl(raw: string): URL | undefined {
  // `new URL` silently drops tabs and newlines and trims spaces; refuse them instead of "fixing" them.
  if (raw.length > 4096 || /[\s"'<>`\\]/.test(raw) || hasControlCharacter(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  if (url.protocol === 'https:') return url.hostname === '' ? undefined : url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  return undefined;
}

/** Opens a vetted URL; returns whether it did. */
export async function openExternalUrl(
  raw: string,
  openExternal: (url: string) => Promise<void>,
): Promise<boolean> {
  const url = safeExternalUrl(raw);
  if (url === undefined) return false;
  await openExternal(url.href);
  return true;
}
