import { defineMember, isPlainObject, parseBoundedJson } from '../base/json.js';

const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Repairs the drift models often produce in top-level arguments, guided by the tool's schema:
 * `"42"` → 42 for a number, `"true"` → true for a boolean, a JSON string → the array or object it
 * encodes, `"null"` → null where null is allowed, a bare value → `[value]` for an array, and a
 * blank string → `{}` for an object that requires nothing. Returns a new object; the input is
 * never changed. A value the schema accepts as it is, or that cannot be repaired, is kept.
 */
export function coerceArguments(
  schema: Record<string, unknown>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    defineMember(
      out,
      key,
      Object.hasOwn(properties, key) && isPlainObject(property) ? coerceValue(value, property) : value,
    );
  }
  return out;
}

function coerceValue(value: unknown, schema: Record<string, unknown>): unknown {
  const types = declaredTypes(schema);
  if (types.length === 0) return value;
  if (typeof value === 'string') return types.includes('string') ? value : coerceString(value, types, schema);
  if (types.includes('array') && value !== null && value !== undefined && !accepts(types, value))
    return [value];
  return value;
}

function coerceString(value: string, types: string[], schema: Record<string, unknown>): unknown {
  const trimmed = value.trim();
  if (types.includes('null') && trimmed.toLowerCase() === 'null') return null;
  for (const type of types) {
    const coerced = coerceStringTo(type, trimmed, schema);
    if (coerced !== undefined) return coerced;
  }
  return types.includes('array') ? [value] : value;
}

/** One attempt; undefined means "not this type". */
function coerceStringTo(type: string, trimmed: string, schema: Record<string, unknown>): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      if (!NUMBER_PATTERN.test(trimmed)) return undefined;
      const number = Number(trimmed);
      if (!Number.isFinite(number)) return undefined;
      return type === 'integer' && !Number.isInteger(number) ? undefined : number;
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : undefined;
    }
    case 'object': {
      // A blank string means "nothing to say", but only an object that requires nothing may be empty.
      if (trimmed === '') return requiresNothing(objectArm(schema)) ? {} : undefined;
      const parsed = parseJson(trimmed);
      return isPlainObject(parsed) ? parsed : undefined;
    }
    case 'array': {
      const parsed = parseJson(trimmed);
      return Array.isArray(parsed) ? parsed : undefined;
    }
    default:
      return undefined;
  }
}

/** The types a property admits: its own `type`, plus those of its `anyOf`/`oneOf` arms, plus null when `nullable`. */
function declaredTypes(schema: Record<string, unknown>): string[] {
  const types = new Set<string>();
  addTypes(types, schema.type);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const arms = schema[key];
    if (!Array.isArray(arms)) continue;
    for (const arm of arms) if (isPlainObject(arm)) addTypes(types, arm.type);
  }
  if (schema.nullable === true) types.add('null');
  return [...types];
}

function addTypes(into: Set<string>, type: unknown): void {
  if (typeof type === 'string') into.add(type);
  else if (Array.isArray(type)) for (const item of type) if (typeof item === 'string') into.add(item);
}

function accepts(types: string[], value: unknown): boolean {
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number')
    return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  if (typeof value === 'boolean') return types.includes('boolean');
  if (isPlainObject(value)) return types.includes('object');
  return true;
}

/** The schema that describes the object form: the property itself, or its `object` arm. */
function objectArm(schema: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const arms = schema[key];
    if (!Array.isArray(arms)) continue;
    const arm = arms.find((item) => isPlainObject(item) && item.type === 'object');
    if (isPlainObject(arm)) return arm;
  }
  return schema;
}

function requiresNothing(schema: Record<string, unknown>): boolean {
  return !Array.isArray(schema.required) || schema.required.length === 0;
}

function parseJson(text: string): unknown {
  try {
    return parseBoundedJson(text);
  } catch {
    return undefined;
  }
}
