import { defineMember, isPlainObject } from '../base/json.js';

/** Keywords whose value is one subschema (or, for `items`, possibly an array of them). */
const SCHEMA_KEYWORDS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
  'dependencies',
] as const;

export interface NormalizedSchema {
  schema: Record<string, unknown>;
  /** A `$ref` that does not start with `#` appears in a schema position: we never fetch, so we skip validation. */
  hasExternalRef: boolean;
}

/**
 * Returns a copy fit for a standard validator: OpenAPI `nullable: true` becomes a `null` type (or
 * an `anyOf` arm when there is no `type`). Only schema positions are visited, so literal values
 * under `const`, `enum`, `default` or `examples` are copied verbatim, never read as schemas.
 */
export function normalizeSchema(schema: Record<string, unknown>): NormalizedSchema {
  const state = { hasExternalRef: false };
  const copy = normalizeNode(schema, state);
  return { schema: isPlainObject(copy) ? copy : {}, hasExternalRef: state.hasExternalRef };
}

function normalizeNode(node: unknown, state: { hasExternalRef: boolean }): unknown {
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = { ...node };
  if (typeof out.$ref === 'string' && !out.$ref.startsWith('#')) state.hasExternalRef = true;

  for (const key of SCHEMA_KEYWORDS) {
    if (!(key in out)) continue;
    const value = out[key];
    out[key] = Array.isArray(value)
      ? value.map((item) => normalizeNode(item, state))
      : normalizeNode(value, state);
  }
  for (const key of SCHEMA_ARRAY_KEYWORDS) {
    const value = out[key];
    if (Array.isArray(value)) out[key] = value.map((item) => normalizeNode(item, state));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const value = out[key];
    if (!isPlainObject(value)) continue;
    const mapped: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value))
      defineMember(mapped, name, normalizeNode(child, state));
    out[key] = mapped;
  }
  return 'nullable' in out ? applyNullable(out) : out;
}

function applyNullable(node: Record<string, unknown>): Record<string, unknown> {
  const { nullable, ...rest } = node;
  if (nullable !== true) return rest;
  if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
  const type = rest.type;
  if (typeof type === 'string') {
    if (type !== 'null') rest.type = [type, 'null'];
    return rest;
  }
  if (Array.isArray(type)) {
    if (!type.includes('null')) rest.type = [...type, 'null'];
    return rest;
  }
  if (Array.isArray(rest.anyOf)) return { ...rest, anyOf: [...rest.anyOf, { type: 'null' }] };
  return { anyOf: [rest, { type: 'null' }] };
}
