import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isPlainObject } from '../base/json.js';
import { linearRegExpEngine, type UnenforcedPattern } from '../base/linear-regexp.js';
import { coerceArguments } from './argument-coercion.js';
import { normalizeSchema } from './schema-normalize.js';

/** The error object an agent receives when its arguments do not fit the tool's schema. */
export interface ArgumentError {
  error: string;
  /** Where: `arguments`, `arguments.options.count`, `arguments[0]`, `arguments["odd key"]`. */
  path: string;
  /** The failing JSON Schema keyword: `required`, `type`, `enum`, `additionalProperties`, … */
  constraint: string;
  /** The tool's parameters as declared, so the agent can retry without another tool_describe. */
  parameters: Record<string, unknown>;
  hint: string;
}

export type ArgumentCheck =
  | {
      ok: true;
      args: Record<string, unknown>;
      /** Patterns of the schema that were not checked (the linear-time engine cannot run them). */
      notEnforced?: UnenforcedPattern[];
    }
  | { ok: false; error: ArgumentError };

/** How the agent reached the tool, for the wording of the error. */
export type CallRoute = 'tool_call' | 'direct';

export interface ArgumentValidator {
  /**
   * Checks arguments before a call is dispatched. Missing required arguments and schema
   * violations block the call; anything that makes validation impossible (no schema, a schema
   * the validator rejects, an external `$ref`, an internal failure) lets it through. On success
   * `args` is the coerced copy to dispatch.
   */
  check(toolName: string, schema: unknown, args: Record<string, unknown>, route: CallRoute): ArgumentCheck;
  /**
   * Checks a result's `structuredContent` against the tool's `outputSchema` (MCP: clients should).
   * A schema that cannot be validated passes, as for arguments; a mismatch says where and why.
   */
  checkOutput(toolName: string, schema: unknown, structuredContent: unknown): OutputCheck;
  /** Distinct schemas compiled and kept (for diagnostics and tests). */
  readonly cachedSchemas: number;
}

export type OutputCheck = { ok: true } | { ok: false; message: string };

export interface ArgumentValidatorOptions {
  /**
   * How many compiled schemas to keep. The catalog is rebuilt often with the same schemas, and
   * compiling costs far more than validating.
   * @defaultValue 2000
   */
  maxCachedSchemas?: number;
}

const MAX_MESSAGE_CHARS = 600;
const HINT =
  'Retry with arguments that match the parameters above: every required argument, the declared types and allowed values.';
/** Keywords that only say "some branch failed"; a concrete error from inside a branch explains more. */
const WEAK_KEYWORDS = new Set(['anyOf', 'oneOf']);

type Draft = 'draft-07' | '2019-09' | '2020-12';

/** A compiled schema, or `undefined` when the schema cannot be validated (we then fail open). */
interface CacheRecord {
  validate: ValidateFunction | undefined;
  draft: Draft;
  compiled: Record<string, unknown> | undefined;
  notEnforced: UnenforcedPattern[];
}

export function createArgumentValidator(options: ArgumentValidatorOptions = {}): ArgumentValidator {
  const maxCached = options.maxCachedSchemas ?? 2000;
  const byIdentity = new WeakMap<object, CacheRecord>();
  const byContent = new Map<string, CacheRecord>();
  const engines = new Map<Draft, Ajv>();
  // Compiling is synchronous: the patterns skipped while one schema compiles are that schema's.
  let skipped: UnenforcedPattern[] = [];
  const regExp = linearRegExpEngine((pattern) => skipped.push(pattern));

  function engine(draft: Draft): Ajv {
    let ajv = engines.get(draft);
    if (ajv === undefined) {
      const settings = { strict: false, allErrors: true, logger: false as const, code: { regExp } };
      ajv =
        draft === '2020-12'
          ? new Ajv2020(settings)
          : draft === '2019-09'
            ? new Ajv2019(settings)
            : new Ajv(settings);
      addFormats.default(ajv);
      engines.set(draft, ajv);
    }
    return ajv;
  }

  function compile(schema: Record<string, unknown>): CacheRecord {
    const draft = draftOf(schema.$schema);
    const normalized = normalizeSchema(schema);
    const unchecked = { validate: undefined, draft, compiled: undefined, notEnforced: [] };
    if (normalized.hasExternalRef) return unchecked;
    // The engine's own meta-schema applies; a root $id would collide between tools that share one.
    const { $schema: _schema, $id: _id, ...compiled } = normalized.schema;
    skipped = [];
    try {
      // compile() checks the schema against its meta-schema first and throws on a broken one.
      return { validate: engine(draft).compile(compiled), draft, compiled, notEnforced: dedupe(skipped) };
    } catch {
      return unchecked;
    } finally {
      skipped = [];
    }
  }

  function lookup(schema: Record<string, unknown>): CacheRecord {
    const known = byIdentity.get(schema);
    if (known !== undefined) return known;
    const key = createHash('sha1').update(JSON.stringify(schema)).digest('base64');
    let record = byContent.get(key);
    if (record === undefined) {
      record = compile(schema);
      if (byContent.size >= maxCached) evictOldest();
    } else {
      byContent.delete(key); // re-inserted below: most recently used last
    }
    byContent.set(key, record);
    byIdentity.set(schema, record);
    return record;
  }

  function evictOldest(): void {
    const oldest = byContent.entries().next().value;
    if (oldest === undefined) return;
    const [key, record] = oldest;
    byContent.delete(key);
    // Ajv keeps every compiled schema; forget it, or a long-running host grows without bound.
    if (record.compiled !== undefined) engine(record.draft).removeSchema(record.compiled);
  }

  return {
    get cachedSchemas() {
      return byContent.size;
    },
    check(toolName, schema, args, route) {
      if (!isPlainObject(schema)) return { ok: true, args };
      const missing = missingRequired(schema, args);
      if (missing.length > 0) {
        return {
          ok: false,
          error: {
            error: `${lead(route, toolName)} is missing required argument(s): ${missing.join(', ')}. The tool was NOT invoked.`,
            path: 'arguments',
            constraint: 'required',
            parameters: schema,
            hint: HINT,
          },
        };
      }
      let coerced = args;
      try {
        coerced = coerceArguments(schema, args);
        const { validate, notEnforced } = lookup(schema);
        const passed =
          notEnforced.length === 0
            ? { ok: true as const, args: coerced }
            : { ok: true as const, args: coerced, notEnforced };
        if (validate === undefined || validate(coerced)) return passed;
        const best = bestError(validate.errors ?? []);
        if (best === undefined) return passed;
        const path = formatPath(best.instancePath, coerced);
        const detail = clip(describeError(best, coerced));
        return {
          ok: false,
          error: {
            error: `${lead(route, toolName)} failed argument validation at ${path} (${best.keyword}): ${detail}. The tool was NOT invoked.`,
            path,
            constraint: best.keyword,
            parameters: schema,
            hint: HINT,
          },
        };
      } catch {
        // Validation is a courtesy: a fault in it must never block a call the server could judge.
        return { ok: true, args: coerced };
      }
    },
    checkOutput(toolName, schema, structuredContent) {
      if (!isPlainObject(schema)) return { ok: true };
      if (structuredContent === undefined) {
        return {
          ok: false,
          message: `Tool '${toolName}' declares an outputSchema but its result has no structuredContent.`,
        };
      }
      const { validate } = lookup(schema);
      if (validate === undefined || validate(structuredContent)) return { ok: true };
      const best = bestError(validate.errors ?? []);
      if (best === undefined) return { ok: true };
      const path = formatPath(best.instancePath, structuredContent, 'structuredContent');
      return {
        ok: false,
        message: `Tool '${toolName}' returned structuredContent that does not match its outputSchema at ${path} (${best.keyword}): ${clip(describeError(best, structuredContent))}.`,
      };
    },
  };
}

function dedupe(patterns: UnenforcedPattern[]): UnenforcedPattern[] {
  const seen = new Map(patterns.map((item) => [item.pattern, item]));
  return [...seen.values()];
}

function lead(route: CallRoute, toolName: string): string {
  return route === 'tool_call' ? `tool_call to '${toolName}'` : `The call to '${toolName}'`;
}

function draftOf(declared: unknown): Draft {
  if (typeof declared !== 'string') return 'draft-07';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

function missingRequired(schema: Record<string, unknown>, args: Record<string, unknown>): string[] {
  if (!Array.isArray(schema.required)) return [];
  return schema.required.filter((key): key is string => typeof key === 'string' && !Object.hasOwn(args, key));
}

/**
 * The error most worth showing: the shallowest, preferring a concrete keyword over "no branch of
 * anyOf/oneOf matched"; when only such a branch error is left, the best error from inside it.
 */
function bestError(errors: ErrorObject[]): ErrorObject | undefined {
  const rank = (error: ErrorObject) =>
    depth(error.instancePath) * 2 + (WEAK_KEYWORDS.has(error.keyword) ? 1 : 0);
  let best: ErrorObject | undefined;
  for (const error of errors) if (best === undefined || rank(error) < rank(best)) best = error;
  while (best !== undefined && WEAK_KEYWORDS.has(best.keyword)) {
    const prefix = `${best.schemaPath}/`;
    const inner = errors.filter((error) => error.schemaPath.startsWith(prefix));
    const next = inner.reduce<ErrorObject | undefined>(
      (chosen, error) => (chosen === undefined || rank(error) < rank(chosen) ? error : chosen),
      undefined,
    );
    if (next === undefined) break;
    best = next;
  }
  return best;
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `arguments.options.count`, `arguments.items[0]`, `arguments["odd key"]` (or under another root). */
export function formatPath(pointer: string, data: unknown, root = 'arguments'): string {
  let path = root;
  let node = data;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      path += `[${segment}]`;
      node = node[Number(segment)];
      continue;
    }
    path += /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
    node = isPlainObject(node) ? node[segment] : undefined;
  }
  return path;
}

function valueAt(pointer: string, data: unknown): unknown {
  let node = data;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isPlainObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

function describeError(error: ErrorObject, data: unknown): string {
  const params = error.params as Record<string, unknown>;
  const value = valueAt(error.instancePath, data);
  switch (error.keyword) {
    case 'required':
      return `missing required property ${quote(params.missingProperty)}`;
    case 'additionalProperties':
      return `property ${quote(params.additionalProperty)} is not allowed here`;
    case 'enum':
      return `${shown(value)} is not one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}, got ${shown(value)}`;
    case 'type':
      return `${shown(value)} is not of type ${JSON.stringify(params.type)}`;
    default:
      return `${shown(value)} ${error.message ?? 'is not valid'}`;
  }
}

function quote(value: unknown): string {
  return `'${String(value)}'`;
}

function shown(value: unknown): string {
  if (value === undefined) return 'the value';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function clip(message: string): string {
  const collapsed = message.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_MESSAGE_CHARS ? `${collapsed.slice(0, MAX_MESSAGE_CHARS - 3)}...` : collapsed;
}
