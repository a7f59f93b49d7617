/** A value that survives JSON.stringify / JSON.parse unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How deep agent- and UI-supplied JSON may nest. Real tool arguments stay far below it; every
 * recursive walk behind the edges (coercion, validation, canonical JSON, redaction, hashing)
 * relies on it instead of guarding its own stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Where `value` first nests deeper than `maxDepth` containers, as a short path
 * (`arguments.a.b[0]…`), or undefined when it does not. Iterative, so no depth can overflow it.
 */
export function tooDeepAt(value: unknown, maxDepth: number, rootPath = ''): string | undefined {
  interface Step {
    value: unknown;
    depth: number;
    parent: Step | undefined;
    key: string;
  }
  const stack: Step[] = [{ value, depth: 0, parent: undefined, key: rootPath }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (typeof step.value !== 'object' || step.value === null) continue;
    if (step.depth >= maxDepth) return pathOf(step);
    const entries = Array.isArray(step.value)
      ? step.value.map((item, index) => [`[${index}]`, item] as const)
      : Object.entries(step.value).map(([key, item]) => [`.${key.slice(0, 32)}`, item] as const);
    for (const [key, item] of entries) stack.push({ value: item, depth: step.depth + 1, parent: step, key });
  }
  return undefined;

  function pathOf(step: Step): string {
    const keys: string[] = [];
    for (let at: Step | undefined = step; at !== undefined; at = at.parent) keys.push(at.key);
    const path = keys.reverse().join('').replace(/^\./, '');
    return path.length > 120 ? `${path.slice(0, 120)}…` : path;
  }
}

/**
 * JSON.parse for JSON an agent hid inside a string (a stringified `calls` or `arguments`), held to
 * the same `MAX_JSON_DEPTH` as the edge. Throws with a message fit to follow "… is not valid JSON: ".
 */
export function parseBoundedJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 gives up on absurd nesting with a RangeError; say what it means.
    if (error instanceof RangeError) throw new Error(`it nests more than ${MAX_JSON_DEPTH} levels deep`);
    throw error;
  }
  const deep = tooDeepAt(value, MAX_JSON_DEPTH);
  if (deep !== undefined)
    throw new Error(`it nests more than ${MAX_JSON_DEPTH} levels deep (at ${deep || 'the top'})`);
  return value;
}

/**
 * Sets `key` on `target` as an own data property, whatever the key: plain assignment of
 * `__proto__` would change the prototype instead and the member would vanish from the copy.
 */
export function defineMember<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
