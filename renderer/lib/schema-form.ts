import { isPlainObject, type JsonObject, type JsonValue } from '../../src/base/json.js';
import type { DraftCheck } from '../drafts/form-status.js';

/**
 * An argument form generated from a tool's input schema: one field per top-level property.
 * Strings (with enum as a menu), numbers, integers and booleans get their own inputs; anything
 * else (arrays, nested objects, unions) is a JSON box. A schema that is not a plain object of
 * properties gets no form: the caller shows the JSON editor instead.
 */
export type FieldKind = 'text' | 'enum' | 'number' | 'integer' | 'boolean' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
}

/** What the person typed: text for every kind, `true`/`false` for booleans, JSON text for json. */
export type FormValues = Record<string, string>;

export function formFields(schema: JsonObject | undefined): FormField[] | undefined {
  if (schema === undefined || schema.type !== 'object') return undefined;
  const properties = schema.properties;
  if (properties === undefined) return [];
  if (!isObject(properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter(isString) : []);
  return Object.entries(properties).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    const field: FormField = { name, kind: kindOf(property), required: required.has(name) };
    if (typeof property.description === 'string') field.description = property.description;
    if (field.kind === 'enum') field.options = (property.enum as JsonValue[]).map(String);
    return field;
  });
}

function kindOf(property: JsonObject): FieldKind {
  if (Array.isArray(property.enum) && property.enum.every(isString)) return 'enum';
  switch (property.type) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

/** Empty for every field, `false` for a required boolean (a checkbox has no "unset"). */
export function emptyValues(fields: readonly FormField[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, f.kind === 'boolean' && f.required ? 'false' : '']));
}

/** The arguments the form says, or what to fix: a missing required field, a bad number, bad JSON. */
export function formArguments(fields: readonly FormField[], values: FormValues): DraftCheck<JsonObject> {
  const args: JsonObject = {};
  for (const field of fields) {
    const text = (values[field.name] ?? '').trim();
    if (text === '') {
      if (field.required) return { ok: false, message: `"${field.name}" is required.` };
      continue;
    }
    switch (field.kind) {
      case 'number':
      case 'integer': {
        const value = Number(text);
        if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) {
          return {
            ok: false,
            message: `"${field.name}" must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}.`,
          };
        }
        args[field.name] = value;
        break;
      }
      case 'boolean':
        args[field.name] = text === 'true';
        break;
      case 'json':
        try {
          args[field.name] = JSON.parse(text) as JsonValue;
        } catch {
          return { ok: false, message: `"${field.name}" must be JSON, e.g. ["a", "b"] or {"key": "value"}.` };
        }
        break;
      default:
        args[field.name] = values[field.name] ?? '';
    }
  }
  return { ok: true, value: args };
}

/** The JSON editor's text as an arguments object, or what is wrong with it. */
export function jsonArguments(text: string): DraftCheck<JsonObject> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The arguments are not valid JSON.' };
  }
  if (!isObject(parsed))
    return { ok: false, message: 'The arguments must be a JSON object, e.g. {"path": "/tmp"}.' };
  return { ok: true, value: parsed };
}

const isObject = (value: unknown): value is JsonObject => isPlainObject(value);

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
