/**
 * Web mode sign-in (security checklist O3): the launch URL carries a one-time secret in its
 * fragment. We take it out of the address bar first, then trade it for an HttpOnly cookie, so the
 * secret never sits in history, bookmarks or screenshots, even when the trade fails.
 */
const SESSION_URL = '/api/session';

export function takeLaunchSecret(
  location: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location,
  history: Pick<History, 'replaceState'> = window.history,
): string | undefined {
  if (!location.hash.startsWith('#secret=')) return undefined;
  const secret = location.hash.slice('#secret='.length);
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  return /^[A-Za-z0-9_-]{16,}$/.test(secret) ? secret : undefined;
}

/** Trades the secret for a session cookie; false when it was wrong or already used. */
export async function signIn(secret: string): Promise<boolean> {
  const response = await fetch(SESSION_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-Toolbridge-CSRF': '1' },
    body: JSON.stringify({ secret }),
  });
  return response.ok;
}

/** Whether the cookie this page holds is still good. */
export async function hasSession(): Promise<boolean> {
  const response = await fetch(SESSION_URL, { credentials: 'same-origin', cache: 'no-store' });
  return response.ok;
}
