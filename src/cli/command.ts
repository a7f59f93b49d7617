import { ToolbridgeError } from '../base/errors.js';

/** Where a command writes. Tests pass a collector; the real CLI writes to the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * One `toolbridge <name>` subcommand. `run` gets the arguments after the name (`--help` and
 * `--debug` already handled) and returns the exit code; bad input throws INVALID_ARGUMENT.
 */
export interface CliCommand {
  name: string;
  /** One line for `toolbridge --help`. */
  summary: string;
  /** The whole `toolbridge <name> --help` text. */
  help: string;
  run(args: readonly string[], io: CliIo): Promise<number> | number;
}

/** Exit code for bad input (usage, files, JSON): the shell convention for misuse. */
export const EXIT_BAD_INPUT = 2;

export type FlagKind = 'string' | 'strings' | 'boolean';
export type FlagSpec = Record<string, FlagKind>;

type FlagValue<K extends FlagKind> = K extends 'boolean' ? boolean : K extends 'strings' ? string[] : string;
export type FlagValues<S extends FlagSpec> = { [Name in keyof S]?: FlagValue<S[Name]> };

export interface ParsedArgs<S extends FlagSpec> {
  flags: FlagValues<S>;
  positionals: string[];
}

export function usageError(command: string, message: string): ToolbridgeError {
  return new ToolbridgeError('INVALID_ARGUMENT', `${message} See \`toolbridge ${command} --help\`.`);
}

/**
 * Parses `--name value`, `--name=value` and boolean `--name`; `strings` flags may repeat.
 * Everything after `--` is positional. Unknown flags and missing values are usage errors.
 */
export function parseArgs<S extends FlagSpec>(
  command: string,
  args: readonly string[],
  spec: S,
): ParsedArgs<S> {
  const flags: Record<string, string | string[] | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-') throw usageError(command, `unknown option ${arg}.`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw usageError(command, `unknown option --${name}.`);
    if (kind === 'boolean') {
      if (eq >= 0) throw usageError(command, `option --${name} takes no value.`);
      flags[name] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw usageError(command, `option --${name} needs a value.`);
      value = next;
      i++;
    }
    if (kind === 'strings') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else if (name in flags) throw usageError(command, `option --${name} was given twice.`);
    else flags[name] = value;
  }
  return { flags: flags as FlagValues<S>, positionals };
}

export function requireFlag(command: string, value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw usageError(command, `--${name} is required.`);
  return value;
}

/** A whole number in [min, max] given as a flag value. */
export function integerFlag(
  command: string,
  value: string | undefined,
  name: string,
  range: { min: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^\s*-?\d+\s*$/.test(value) ? Number.parseInt(value, 10) : Number.NaN;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(parsed) || parsed < range.min || parsed > max) {
    const bounds = range.max === undefined ? `≥ ${range.min}` : `from ${range.min} to ${range.max}`;
    throw usageError(command, `--${name} must be a whole number ${bounds}, got "${value}".`);
  }
  return parsed;
}
