import { Ajv, type ValidateFunction } from 'ajv';
import { type ToolbridgeApi, UI_METHODS, type UiMethod, type UiReply } from '../api/ui-api.js';
import { ToolbridgeError } from '../base/errors.js';
import { MAX_JSON_DEPTH, tooDeepAt } from '../base/json.js';
import { UI_METHOD_PARAMS } from './ui-method-schemas.js';

/** Where a dispatcher reports a bug: a short message and the error (log only its summary). */
export type UiLog = (message: string, error?: unknown) => void;

type MethodCall = (...params: unknown[]) => Promise<unknown>;

/**
 * The one place a UI call is checked and answered, whatever carried it (the WebSocket in web
 * mode, IPC in the desktop app): the method must be in `UI_METHODS`, its parameters must match
 * `UI_METHOD_PARAMS` and nest at most `MAX_JSON_DEPTH` deep, and the outcome is packed as a
 * `UiReply` (a thrown class would not survive either transport). A ToolbridgeError keeps its code,
 * message and data; anything else is a bug, logged here and reported without its internals.
 */
export async function dispatchUiCall(
  api: ToolbridgeApi,
  method: unknown,
  params: unknown,
  log: UiLog,
): Promise<UiReply> {
  const problem = uiCallProblem(method, params);
  if (problem !== undefined) return { ok: false, error: { code: 'INVALID_ARGUMENT', message: problem } };
  const known = method as UiMethod;
  try {
    const value = await (api[known] as MethodCall).apply(api, params as unknown[]);
    return { ok: true, value };
  } catch (error) {
    if (ToolbridgeError.is(error)) {
      // A message may quote what a server or the person sent: it leaves the host redacted.
      const wire = error.toJSON();
      const redact = (api as Partial<RedactingApi>).redactText;
      return {
        ok: false,
        error: redact === undefined ? wire : { ...wire, message: redact.call(api, wire.message) },
      };
    }
    log(`UI method ${known} failed unexpectedly`, error);
    return {
      ok: false,
      error: { code: 'INTERNAL', message: `${known} failed inside the host; see the host's log.` },
    };
  }
}

/** An API that masks secrets in its error messages (HostApi does; a test double need not). */
interface RedactingApi {
  redactText(text: string): string;
}

function uiCallProblem(method: unknown, params: unknown): string | undefined {
  if (typeof method !== 'string' || !(UI_METHODS as readonly string[]).includes(method)) {
    return `Unknown UI method ${JSON.stringify(String(method).slice(0, 64))}; call one of UI_METHODS.`;
  }
  if (!Array.isArray(params)) return `Bad parameters for ${method}: send them as an array.`;
  const deep = tooDeepAt(params, MAX_JSON_DEPTH + 1);
  if (deep !== undefined) {
    return `Bad parameters for ${method}: the value at ${deep} nests more than ${MAX_JSON_DEPTH} levels deep; flatten it.`;
  }
  const validate = paramValidators().get(method as UiMethod)!;
  return validate(params) ? undefined : `Bad parameters for ${method}: ${ajvMessage(validate)}.`;
}

/** Compiled once per process: compiling ~30 schemas costs more than a call should. */
let compiled: Map<UiMethod, ValidateFunction> | undefined;

function paramValidators(): Map<UiMethod, ValidateFunction> {
  compiled ??= new Map(
    UI_METHODS.map((method) => [method, uiAjv().compile(UI_METHOD_PARAMS[method])] as const),
  );
  return compiled;
}

let ajv: Ajv | undefined;

/** The one Ajv the UI transports share (strict; tuples without `additionalItems` are fine). */
export function uiAjv(): Ajv {
  ajv ??= new Ajv({ strict: true, strictTuples: false });
  return ajv;
}

/** The first ajv error as a sentence the caller can act on. */
export function ajvMessage(validate: ValidateFunction): string {
  const first = validate.errors?.[0];
  if (first === undefined) return 'invalid';
  // "must be equal to one of the allowed values" says nothing without the values.
  const allowed =
    first.keyword === 'enum'
      ? `: ${(first.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
      : '';
  return `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'}${allowed}`;
}
