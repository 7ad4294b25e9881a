import { parseArgs as parseNodeArgs } from 'node:util';
import { StrataError } from '../engine/ports';
import type { CommandSpec } from './commandSpec';

/** Parsed flags: strings and booleans by option name, as node:util's parseArgs returns them. */
export interface ParsedCommand {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/**
 * Reads `argv` by a command's spec with node:util's parseArgs (strict: unknown options and
 * missing values are errors; `--name=value` and `--name value` both work). Every problem is a
 * usage error (exit 2) that names the flag and points at `--help`.
 */
export function parseArgs(spec: CommandSpec, argv: string[]): ParsedCommand {
  const options = Object.fromEntries(Object.entries(spec.options).map(([name, o]) => [name, { type: o.type }]));
  try {
    const { positionals, values } = parseNodeArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { positionals, values: values as ParsedCommand['values'] };
  } catch (error) {
    throw new StrataError(`${describeParseError(error)} Run 'strata ${spec.name} --help' for the options.`, 'usage');
  }
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `Unknown option ${flag}.`;
  }
  return message.endsWith('.') ? message : `${message}.`;
}

/** A flag's value as a whole number of tokens > 0 (`200000`, `200_000`); `undefined` when not given. */
export function positiveInt(value: string | boolean | undefined, flag: string): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const n = Number(value.replace(/_/g, ''));
  if (value.trim() === '' || !Number.isInteger(n) || n <= 0) throw new StrataError(`--${flag} takes a positive whole number, got '${value}'.`, 'usage');
  return n;
}

/** A comma-separated list of positive whole numbers (`32000,64000`); `undefined` when not given. */
export function positiveIntList(value: string | boolean | undefined, flag: string): number[] | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const parts = value.split(',').map((x) => x.trim());
  const numbers = parts.map((x) => Number(x.replace(/_/g, '')));
  if (parts.some((x) => x === '') || numbers.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new StrataError(`--${flag} takes positive whole numbers separated by commas, got '${value}'.`, 'usage');
  }
  return numbers;
}

/** A string flag's value; `undefined` when not given. */
export function stringValue(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
