/** Server ids (design.md, "Names the agent sees"): lower-case `[a-z0-9_-]`, shared by host and UI. */

const SERVER_ID_PATTERN = /^[a-z0-9_-]+$/;

export function isValidServerId(id: string): boolean {
  return SERVER_ID_PATTERN.test(id);
}

/**
 * Why an id would make tool names ambiguous, or undefined. `mcp__<server>__<tool>` is read up to
 * the first `__`, so an id holding `__` (`x__y` with `run` is `mcp__x__y__run`, as is `x` with
 * `y__run`) or ending in `_` (`x_` with `_y` is `x` with `__y`) could name another server's tool.
 */
export function ambiguousServerId(id: string): string | undefined {
  if (!id.includes('__') && !id.endsWith('_')) return undefined;
  return `Server id "${id}" would make its tool names ambiguous (mcp__<server>__<tool> ends the id at the first "__"): an id may not hold "__" or end with "_". Use "${toServerId(id)}" instead.`;
}

/**
 * Turns any label (a file stem, a config key) into a server id: lower-case `[a-z0-9_-]`, never
 * holding `__` or ending with `_` (see `ambiguousServerId`).
 */
export function toServerId(label: string): string {
  const id = label
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^-+|[-_]+$/g, '');
  return id === '' ? 'server' : id;
}

/** `base`, or `base-2`, `base-3`, … : the first that no existing server uses. */
export function uniqueServerId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
