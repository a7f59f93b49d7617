import { createHash } from 'node:crypto';
import { RESERVED_DIRECT_NAMES } from './naming.js';

/**
 * Names an agent can list and call directly. MCP and the common LLM APIs accept tool names of
 * 1–64 characters from `[a-zA-Z0-9_-]`; catalog names are kept verbatim and can break that
 * (`mcp__files__read.file`, long server + tool names), which only matters once a tool is
 * listed directly (pinned, or tool search off). Deferred tools are called by their real name
 * inside `tool_call`, so they never need an alias.
 */
export const DIRECT_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const DIRECT_NAME_MAX_LENGTH = 64;

const SHORT_HASH_LENGTH = 8;

export function isValidDirectName(name: string): boolean {
  return DIRECT_NAME_PATTERN.test(name);
}

/**
 * The alias for one name, before collision checks: every run of characters outside
 * `[a-zA-Z0-9_-]` becomes `_`, the result is cut to leave room for `_` + the first
 * `hashLength` hex digits of the SHA-256 of the real name. The hash makes distinct names give
 * distinct aliases (`read.file` and `read file` would both sanitise to `read_file`) and keeps
 * the alias stable across restarts, so an agent's transcript stays valid.
 */
export function aliasFor(name: string, hashLength = SHORT_HASH_LENGTH): string {
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, hashLength);
  const stem = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, DIRECT_NAME_MAX_LENGTH - hash.length - 1);
  return `${stem}_${hash}`;
}

/** Two-way map between the names an agent sees in its direct tool list and the real names. */
export interface DirectNames {
  /** The direct name for a real name (itself when valid and free). */
  toDirect(realName: string): string | undefined;
  /** The real name behind a direct name (an alias or a name that needed none). */
  toReal(directName: string): string | undefined;
  /** Only the aliased pairs, alias → real name. */
  readonly aliases: ReadonlyMap<string, string>;
}

/**
 * Gives every name a direct name. A valid name that no other listed tool and no bridge tool
 * uses is kept as is; any other gets `aliasFor(name)`. If an alias is taken anyway (a 32-bit
 * hash clash, or a real tool already named like it), the hash is lengthened 4 digits at a time
 * until it is free. Names are processed in sorted order, so the result does not depend on the
 * order servers listed their tools.
 */
export function assignDirectNames(
  realNames: Iterable<string>,
  reserved: Iterable<string> = RESERVED_DIRECT_NAMES,
): DirectNames {
  const names = [...new Set(realNames)].sort();
  const taken = new Set(reserved);
  const toDirect = new Map<string, string>();
  const toReal = new Map<string, string>();
  const aliases = new Map<string, string>();
  const needAlias: string[] = [];
  for (const name of names) {
    if (isValidDirectName(name) && !taken.has(name)) {
      taken.add(name);
      toDirect.set(name, name);
      toReal.set(name, name);
    } else {
      needAlias.push(name);
    }
  }
  for (const name of needAlias) {
    let hashLength = SHORT_HASH_LENGTH;
    let alias = aliasFor(name, hashLength);
    while (taken.has(alias)) {
      hashLength += 4;
      // 64 hex digits is the whole SHA-256; two different names cannot reach it unresolved.
      if (hashLength > 60) throw new Error(`Cannot find a free direct name for "${name}"`);
      alias = aliasFor(name, hashLength);
    }
    taken.add(alias);
    toDirect.set(name, alias);
    toReal.set(alias, name);
    aliases.set(alias, name);
  }
  return {
    toDirect: (realName) => toDirect.get(realName),
    toReal: (directName) => toReal.get(directName),
    aliases,
  };
}
