import { isPlainObject } from '../base/json.js';

/**
 * JSON with object keys sorted at every depth, so two values that mean the same thing serialise to
 * the same text whatever order their keys were built in. `undefined` members are dropped, as
 * JSON.stringify does; anything JSON cannot hold (functions, bigint, cycles) is refused.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, seen: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    // JSON.stringify would turn these into null, silently making two different values hash alike.
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: non-finite number');
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  if (seen.has(value)) throw new TypeError('canonicalJson: cyclic value');
  seen.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => (item === undefined ? 'null' : write(item, seen))).join(',')}]`;
  } else if (isPlainObject(value)) {
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = value[key];
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${write(member, seen)}`);
    }
    text = `{${members.join(',')}}`;
  } else {
    throw new TypeError('canonicalJson: cannot serialise this object');
  }
  seen.delete(value);
  return text;
}
