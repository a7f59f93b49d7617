/** Server ids (design.md, "Names the agent sees"): lower-case `[a-z0-9_-]`, shared by host and UI. */

const SERVER_ID_PATTERN = /^[a-z0-9_-]+$/;

export function isValidServerId(id: string): boolean {
  return SERVER_ID_PATTERN.test(id);
}

/** Turns any label (a file stem, a config key) into a server id: lower-case `[a-z0-9_-]`. */
export function toServerId(label: string): string {
  const id = label
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'server' : id;
}
