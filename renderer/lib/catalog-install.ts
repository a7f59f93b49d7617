import type { CatalogServerView, McpCatalogInput, ServerConfig } from '../../src/api/ui-api.js';
import { uniqueServerId } from '../../src/base/server-id.js';
import { checkId, type FormResult, identity } from './server-form.js';

/** The catalog form: id and name as in the command form, and the text typed per input. */
export interface CatalogFormValues {
  id: string;
  name: string;
  /** By `inputKey`; a repeated input holds one value per line. */
  inputs: Record<string, string>;
}

/** `arg.<index>` for an argument, `env.<NAME>` for a variable: the form field and its error. */
export function inputKey(input: McpCatalogInput, index: number): string {
  return input.kind === 'env' ? `env.${input.name}` : `arg.${index}`;
}

/** The inputs the person fills in (fixed values are not asked), with their keys. */
export function askedInputs(server: CatalogServerView): Array<{ key: string; input: McpCatalogInput }> {
  return [
    ...server.arguments.map((input, index) => ({ key: inputKey(input, index), input })),
    ...server.env.map((input, index) => ({ key: inputKey(input, index), input })),
  ].filter(({ input }) => input.value === undefined);
}

/** The form as it opens: the entry's id (numbered when taken), its title, every default. */
export function catalogFormValues(server: CatalogServerView, taken: ReadonlySet<string>): CatalogFormValues {
  return {
    id: uniqueServerId(server.id, taken),
    name: server.title,
    inputs: Object.fromEntries(askedInputs(server).map(({ key, input }) => [key, input.default ?? ''])),
  };
}

/** Entries matching every word of `query` in their names, title, description, keywords or tools. */
export function filterCatalog(servers: readonly CatalogServerView[], query: string): CatalogServerView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...servers];
  return servers.filter((server) => {
    const haystack = [
      server.id,
      server.registryName,
      server.title,
      server.description,
      server.details ?? '',
      server.packageName,
      ...server.keywords,
      ...server.tools,
    ]
      .join('\n')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Checks one typed value against its input; the values it stands for, or what is wrong. */
function inputValues(input: McpCatalogInput, typed: string): string[] | string {
  const values = (input.isRepeated ? typed.split('\n') : [typed]).map((v) => v.trim()).filter(Boolean);
  if (values.length === 0)
    return input.isRequired ? `${input.name} is required: ${input.description ?? 'enter a value'}.` : [];
  for (const value of values) {
    if (input.choices !== undefined && !input.choices.includes(value)) {
      return `${input.name} must be one of ${input.choices.join(', ')}.`;
    }
    if (input.format === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) return `${input.name} must be a number.`;
    if (input.format === 'boolean' && value !== 'true' && value !== 'false') {
      return `${input.name} must be true or false.`;
    }
  }
  return values;
}

/**
 * The server config an entry installs as with the person's values: the same `addServer` and the
 * same review as the command form. Secret variables go in `env`, whose secret-looking names the
 * host moves to the secret store (the catalog offers no entry whose secret would stay in settings).
 */
export function buildCatalogConfig(
  server: CatalogServerView,
  values: CatalogFormValues,
  taken: ReadonlySet<string> = new Set(),
): FormResult {
  const idError = checkId(values.id.trim(), taken);
  if (idError !== undefined) return { ok: false, field: 'id', message: idError };
  const valuesOf = (input: McpCatalogInput, key: string) =>
    input.value === undefined ? inputValues(input, values.inputs[key] ?? '') : [input.value];
  const args: string[] = [server.script];
  for (const [index, input] of server.arguments.entries()) {
    const key = inputKey(input, index);
    const given = valuesOf(input, key);
    if (typeof given === 'string') return { ok: false, field: key, message: given };
    for (const value of given) args.push(...(input.kind === 'named' ? [input.name, value] : [value]));
  }
  const env: Record<string, string> = { ...server.fixedEnv };
  for (const [index, input] of server.env.entries()) {
    const key = inputKey(input, index);
    const given = valuesOf(input, key);
    if (typeof given === 'string') return { ok: false, field: key, message: given };
    if (given.length > 0) env[input.name] = given.join(' ');
  }
  const config: ServerConfig = {
    ...identity(values),
    transport: 'stdio',
    command: server.command,
    args,
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
  return { ok: true, config };
}
